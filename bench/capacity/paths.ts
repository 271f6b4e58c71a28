// The per-operation Redis cost of each hot path, counted on one replica (bench/capacity/count.ts).
import { randomBytes } from 'node:crypto';
import { countPath, delivered, idleRate, sendOne, startEventSubscribers, type PathCost } from './count.js';
import { startFleet, WEBHOOK_PATH } from './fleet.js';
import { countOutgoing } from './outgoing.js';
import type { OperationSpec } from './operations.js';
import type { BenchRedis } from './redis.js';

const OPS = Number(process.env.BENCH_CAPACITY_OPS ?? 200);

export async function countHotPaths(redis: BenchRedis, stubUrl: string): Promise<PathCost[]> {
  // First, while no merchant endpoint is registered (the outgoing row below adds one, whose deliveries would count).
  const two = await countWebhookOnReplicas(redis, stubUrl, 2);
  // A local receiver for the outgoing webhook row: private http:// targets allowed (as for a merchant's own network).
  const fleet = await startFleet(1, stubUrl, redis.env, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  const spec: OperationSpec = {
    graphqlUrl: fleet.urls[0]!,
    token: fleet.token,
    webhookSecret: fleet.webhookSecret,
    webhookPath: WEBHOOK_PATH,
  };
  const costs: PathCost[] = [];
  try {
    // Warm: the first requests compile documents, open pooled connections and load scripts (SCRIPT LOAD, NOSCRIPT).
    for (const kind of ['read', 'charge', 'transfer', 'webhook'] as const) for (let i = 0; i < 20; i++) await sendOne(kind, spec);
    const idle = await idleRate(redis);
    costs.push(await countPath(redis, idle, 'read: `charge(reference)`', OPS, () => sendOne('read', spec)));
    costs.push(await countPath(redis, idle, 'money mutation: `createCharge` (idempotency key)', OPS, () => sendOne('charge', spec)));
    costs.push(await countPath(redis, idle, 'money mutation: `createTransfer` (idempotency key)', OPS, () => sendOne('transfer', spec)));
    costs.push(await countPath(redis, idle, 'webhook received (no subscriber)', OPS, () => sendOne('webhook', spec)));
    for (const n of [1, 100]) costs.push(await countFanout(redis, spec, n));
    costs.push(await countOutgoing(redis, spec, Math.max(20, Math.round(OPS / 4))));
  } finally {
    await fleet.stop();
  }
  return [two, ...costs];
}

/** A webhook sent to the first of `n` replicas: what each further replica adds (its read of the log, nothing per watch). */
async function countWebhookOnReplicas(redis: BenchRedis, stubUrl: string, n: number): Promise<PathCost> {
  const fleet = await startFleet(n, stubUrl, redis.env);
  try {
    const spec: OperationSpec = {
      graphqlUrl: fleet.urls[0]!,
      token: fleet.token,
      webhookSecret: fleet.webhookSecret,
      webhookPath: WEBHOOK_PATH,
    };
    for (let i = 0; i < 20; i++) await sendOne('webhook', spec);
    const idle = await idleRate(redis);
    return await countPath(redis, idle, `webhook received on the first of ${n} replicas (no subscriber)`, OPS, () =>
      sendOne('webhook', spec),
    );
  } finally {
    await fleet.stop();
  }
}

/** A webhook, counted until its event reached each of `n` paymentEvents subscribers. */
async function countFanout(redis: BenchRedis, spec: OperationSpec, n: number): Promise<PathCost> {
  const subscribers = await startEventSubscribers(spec.graphqlUrl, spec.token, n);
  try {
    const run = randomBytes(3).toString('hex');
    // Subscriptions are registered a moment after connection_ack: until one event reaches every subscriber.
    for (let i = 0; ; i++) {
      await sendOne('webhook', spec, `warm_${run}_${i}`);
      try {
        await delivered(subscribers, `warm_${run}_${i}`, n);
        break;
      } catch (err) {
        if (i >= 5) throw err;
      }
    }
    const idle = await idleRate(redis);
    const ops = Math.max(20, Math.round(OPS / 4));
    return await countPath(redis, idle, `event delivered to ${n} subscriber${n > 1 ? 's' : ''} (webhook in, to each)`, ops, async (i) => {
      const marker = `fan_${run}_${i}`;
      await sendOne('webhook', spec, marker);
      await delivered(subscribers, marker, n);
    });
  } finally {
    await subscribers.stop();
  }
}
