// A new log generation is read from its start (issue 26, point 5). After an outage the event log comes back
// under a new generation (Redis restarted empty, then written again) whose ids are BELOW the tailer's old
// position: a read "after" that position would never return them. The tailer must notice the new log, read it
// from its start, and deliver its events, in order, each once, to a subscriber connected across the loss.
// Redis's clock would issue later ids after a restart; the test forces lower ones (XADD with explicit ids) so
// that it does not pass by that luck. A redis-server of the test's own on a spare port, stopped by PID.
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus, type EventBus } from '../../src/events/bus.js';
import type { LoggedPaymentEvent } from '../../src/events/payment-event.js';
import { compareStreamIds } from '../../src/events/stream-id.js';
import { connectRedis } from '../../src/redis/index.js';
import { startRedisServer, type TestRedisServer } from '../helpers/redis-server.js';
import { waitFor } from '../redis/wait.js';
import { logRecord } from './redis-helpers.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

interface Setup {
  server: TestRedisServer;
  admin: Redis;
  bus: EventBus;
  logKey: string;
  /** What the tailer handed out, in order, and what a subscriber connected throughout received. */
  read: LoggedPaymentEvent[];
  received: string[];
}

async function setup(): Promise<Setup> {
  const server = await startRedisServer({ persistence: 'none' });
  cleanup.push(() => server.stop());
  const admin = new Redis(server.url);
  admin.on('error', () => {}); // down while Redis restarts: reconnects by itself
  cleanup.push(() => admin.disconnect());
  const redis = await connectRedis({ url: server.url, namespace: 'generation' });
  cleanup.push(() => redis.close());
  // The bus's own tailer, with short blocking reads.
  const bus = await createEventBus({ redis, tailBlockMs: 200 });
  cleanup.push(() => bus.close());
  const read: LoggedPaymentEvent[] = [];
  bus.onLoggedEvent((event) => void read.push(event));
  const received: string[] = [];
  const stream = bus.subscribePaymentEvents();
  void (async () => {
    for await (const event of stream) received.push((event as LoggedPaymentEvent).id);
  })();
  return { server, admin, bus, logKey: redis.key('events', 'log'), read, received };
}

/** Writes the new log's entries as the gateway writes them (event JSON and generation), under explicit low ids. */
async function writeNewLog(admin: Redis, key: string, ids: string[], generation: string) {
  for (const [i, id] of ids.entries()) await admin.xadd(key, id, 'e', JSON.stringify(logRecord(`new-${i + 1}`)), 'g', generation);
}

async function before(s: Setup) {
  for (const name of ['old-1', 'old-2']) await s.bus.publishPaymentEvent(logRecord(name));
  await waitFor(() => s.received.length === 2, 'the old log’s events');
  const oldPosition = s.read.at(-1)!.seq;
  const oldGeneration = s.read.at(-1)!.generation!;
  expect(oldGeneration).toBeTruthy();
  return { oldPosition, oldGeneration };
}

/** Server-side count of a command since the server started (INFO commandstats). */
async function calls(admin: Redis, command: string): Promise<number> {
  const match = new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(await admin.info('commandstats'));
  return match ? Number(match[1]) : 0;
}

async function expectNewLogDelivered(s: Setup, oldPosition: string, oldGeneration: string) {
  await waitFor(() => s.received.length === 5, 'the new log’s events at the subscriber', 10_000);
  expect(s.received).toEqual(['old-1', 'old-2', 'new-1', 'new-2', 'new-3']);
  const fresh = s.read.slice(2);
  expect(fresh.map((e) => [e.id, e.seq, e.generation])).toEqual([
    ['new-1', '5-0', 'gen-after'],
    ['new-2', '5-1', 'gen-after'],
    ['new-3', '6-0', 'gen-after'],
  ]);
  expect(compareStreamIds('6-0', oldPosition)).toBeLessThan(0);
  expect(oldGeneration).not.toBe('gen-after');
  // And it reads on live in the new log.
  await s.bus.publishPaymentEvent(logRecord('live'));
  await waitFor(() => s.received.length === 6, 'a live event after the new log');
  expect(s.received.at(-1)).toBe('live');
}

describe('the event log lost, and created again with ids below the old position', () => {
  it('created after the tailer came back and found no log yet: read from its start, every new event delivered once', async () => {
    const s = await setup();
    const { oldPosition, oldGeneration } = await before(s);

    await s.server.restart();
    // The tailer is back: its read worked and it asked for the log's generation (there was no log).
    await waitFor(async () => (await calls(s.admin, 'xrevrange').catch(() => 0)) >= 1, 'the tailer to look for the log after the outage');
    await waitFor(async () => (await calls(s.admin, 'xread').catch(() => 0)) >= 2, 'the tailer to read again');

    await writeNewLog(s.admin, s.logKey, ['5-0', '5-1', '6-0'], 'gen-after');
    await expectNewLogDelivered(s, oldPosition, oldGeneration);
  });

  it('already there when the tailer reads again (its connection cut as the log was replaced): read from its start, every new event delivered once', async () => {
    const s = await setup();
    const { oldPosition, oldGeneration } = await before(s);

    // In one step: the old log gone, the new one written, and the tailer's connection cut (as by a failover to a
    // node that never had the old log). The tailer can only see the new log after the cut.
    const entries = ['5-0', '5-1', '6-0'].map((id, i) => [id, JSON.stringify(logRecord(`new-${i + 1}`))] as const);
    const clients = (await s.admin.client('LIST')) as string;
    const tailerId = /id=(\d+) .*name=generation:blocking:events-log/.exec(clients)![1]!;
    const step = s.admin.multi().del(s.logKey);
    for (const [id, json] of entries) step.xadd(s.logKey, id, 'e', json, 'g', 'gen-after');
    const replies = await step.client('KILL', 'ID', tailerId).exec();
    expect(replies?.every(([error]) => error === null)).toBe(true);

    await expectNewLogDelivered(s, oldPosition, oldGeneration);
  });
});
