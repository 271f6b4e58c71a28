// An event about a watched resource is recorded for reconciliation by the replica that appended it, not by
// every replica that reads the log: its watch is read once per event, whatever the number of replicas. And a
// replica that dies between appending an event and recording it loses nothing: the resource is still in the
// schedule, and the lease holder looks at it when it is due. Two (and a third, "dying") replicas on a private
// redis-server, whose MONITOR shows every command with its keys.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEventBus, type EventBus } from '../../src/events/bus.js';
import type { LoggedPaymentEvent, PaymentEventRecord } from '../../src/events/payment-event.js';
import { silentLogger } from '../../src/logger.js';
import { startReconciler, type Reconciler } from '../../src/reconcile/reconciler.js';
import { redisReconcileStore, type ReconcileStore } from '../../src/reconcile/store.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import type { UpstreamClient } from '../../src/upstream/types.js';
import { countingConnection } from '../helpers/redis-counts.js';
import { startRedisServer, type TestRedisServer } from '../helpers/redis-server.js';
import { waitFor } from '../redis/wait.js';

const NAMESPACE = 'heard-once';
const AFTER_MS = 120_000;
const START = 1_000_000;
let now = START;
const clock = { now: () => now, setTimeout: () => ({ cancel() {} }) };
const statuses = new Map<string, string>();
const fetched: string[] = [];
const upstream = {
  fetchCharge: async (reference: string) => (fetched.push(reference), { reference, status: statuses.get(reference) ?? 'pending' }),
} as unknown as UpstreamClient;

interface Replica {
  redis: GatewayRedis;
  bus: EventBus;
  store: ReconcileStore;
  reconciler: Reconciler | null;
  read: LoggedPaymentEvent[];
}

let server: TestRedisServer;
let admin: Redis;
const replicas: Replica[] = [];

async function replica(reconciles: boolean): Promise<Replica> {
  const redis = await connectRedis({ url: server.url, namespace: NAMESPACE });
  const bus = await createEventBus({ redis, tailBlockMs: 200 });
  const store = redisReconcileStore(redis, { itemTtlMs: 3_600_000 });
  const reconciler = reconciles
    ? startReconciler({ store, bus, upstream, clock, log: silentLogger, afterMs: AFTER_MS, stuckMs: 100 * AFTER_MS })
    : null;
  const read: LoggedPaymentEvent[] = [];
  // Registered after the reconciler's own listeners: when it hears an event, theirs have been told.
  bus.onLoggedEvent((event) => void read.push(event));
  const made = { redis, bus, store, reconciler, read };
  replicas.push(made);
  return made;
}

beforeAll(async () => {
  server = await startRedisServer();
  admin = await countingConnection(server.url);
});
afterAll(async () => {
  for (const r of replicas) {
    await r.reconciler?.stop();
    await r.bus.close();
    await r.redis.close();
  }
  admin?.disconnect();
  await server?.stop();
});

const webhook = (id: string, reference: string, status: string): PaymentEventRecord => ({
  id,
  kind: `charge.${status}`,
  receivedAt: new Date(now).toISOString(),
  reference,
  resourceType: 'charge',
  payload: { event: `charge.${status}`, data: { reference, status } },
  source: 'WEBHOOK',
});

const watch = (store: ReconcileStore, reference: string) =>
  store.add({ type: 'charge', reference, createdAt: now, lastStatus: null, intervalMs: AFTER_MS, dueAt: now + AFTER_MS });

/** Every command the server runs from now on (scripts' own included), as MONITOR shows them. */
async function monitorCommands(): Promise<{ commands: string[][]; flushed: (r: Replica[]) => Promise<void>; stop: () => void }> {
  const monitor = await admin.monitor();
  const commands: string[][] = [];
  monitor.on('monitor', (_time: string, args: string[]) => void commands.push(args.map(String)));
  return {
    commands,
    /** Once every command the replicas issued so far has run and MONITOR has shown it. */
    flushed: async (of) => {
      for (const r of of) await r.redis.commands.ping();
      const marker = `flushed-${Math.random()}`;
      await admin.echo(marker);
      await waitFor(() => commands.some((c) => c[1] === marker), 'MONITOR to show the marker');
    },
    stop: () => monitor.disconnect(),
  };
}

it('reads the watch once per event: on the replica that appended it', async () => {
  const [a, b] = [await replica(true), await replica(true)];
  await watch(a.store, 'ch_once');
  const itemKey = `${NAMESPACE}:reconcile:item:charge:ch_once`;
  const seen = await monitorCommands();
  now = START + 1_000;
  try {
    await a.bus.publishPaymentEventOnce(webhook('wh_once', 'ch_once', 'pending'), 60_000);
    await waitFor(() => a.read.length === 1 && b.read.length === 1, 'both replicas to read the event');
    // The record pushes the next look back: from the event, not from the creation.
    const due = () => admin.zscore(`${NAMESPACE}:reconcile:due`, 'charge:ch_once');
    await waitFor(async () => (await due()) === String(now + AFTER_MS), 'the event to be recorded');
    await seen.flushed([a, b]);
    expect(seen.commands.filter((c) => c[0]?.toLowerCase() === 'get' && c[1] === itemKey)).toHaveLength(1);
  } finally {
    seen.stop();
  }
  expect(await b.store.get('charge', 'ch_once')).toMatchObject({ lastStatus: 'pending', dueAt: now + AFTER_MS });
});

it('loses nothing when the appending replica dies before recording: the lease holder looks when it is due', async () => {
  const [a] = replicas as [Replica];
  const dying = await replica(false); // appends, then is gone before any record
  await watch(a.store, 'ch_orphan');
  statuses.set('ch_orphan', 'success');
  await dying.bus.publishPaymentEventOnce(webhook('wh_orphan', 'ch_orphan', 'success'), 60_000);
  await waitFor(() => a.read.some((e) => e.id === 'wh_orphan'), 'the event in the log');
  // Nobody recorded it: the watch is as it was, in the schedule at its old time.
  expect(await a.store.get('charge', 'ch_orphan')).toMatchObject({ lastStatus: null, dueAt: now + AFTER_MS });
  now += AFTER_MS;
  for (const r of replicas) await r.reconciler?.tick(); // whichever holds the lease looks
  expect(fetched.filter((r) => r === 'ch_orphan')).toHaveLength(1);
  // Final upstream: let go, after announcing the status once more (a POLL event; the webhook's was first).
  expect(await a.store.get('charge', 'ch_orphan')).toBeNull();
  expect(await admin.zscore(`${NAMESPACE}:reconcile:due`, 'charge:ch_orphan')).toBeNull();
  await waitFor(() => a.read.some((e) => e.reference === 'ch_orphan' && e.source === 'POLL'), 'the POLL event');
});

it('tells only the appending replica, once it is stored, and never of a duplicate delivery', async () => {
  const [a, b] = replicas as [Replica, Replica];
  const told: [string[], string[]] = [[], []];
  const stops = [a, b].map((r, i) => r.bus.onAppendedEvent((event) => void told[i]!.push(event.id)));
  await a.bus.publishPaymentEventOnce(webhook('wh_dup', 'ch_dup', 'pending'), 60_000);
  expect(told).toEqual([['wh_dup'], []]);
  expect((await b.bus.publishPaymentEventOnce(webhook('wh_dup', 'ch_dup', 'pending'), 60_000)).duplicate).toBe(true);
  expect(told).toEqual([['wh_dup'], []]);
  stops.forEach((stop) => stop());
});
