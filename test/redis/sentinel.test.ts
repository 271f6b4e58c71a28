// A gateway on a Sentinel-managed primary (REDIS_SENTINELS, REDIS_MIN_REPLICAS=1) keeps every acknowledged
// webhook and makes every payment once while the primary changes: a SENTINEL FAILOVER during traffic, and a
// primary SIGKILLed right after acknowledging. The Redis processes are the test's own (test/helpers/redis-topology.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestStack } from '../helpers/gateway.js';
import { startSentinelSet, type SentinelSet } from '../helpers/redis-topology.js';
import type { Api } from '../helpers/sandbox-api.js';
import {
  failoverDuringTraffic,
  killRightAfterAcknowledging,
  pubSubRoundTrip,
  retryReasons,
  startFailoverStack,
} from './failover-traffic.js';

let set: SentinelSet;
let stack: TestStack;
let rest: Api;

beforeAll(async () => {
  set = await startSentinelSet();
  ({ stack, rest } = await startFailoverStack({
    REDIS_SENTINELS: set.sentinels.map((s) => `${s.host}:${s.port}`).join(','),
    REDIS_SENTINEL_NAME: set.name,
    PAYMENT_TIMEOUT_MS: '1000',
    IDEMPOTENCY_PENDING_TTL_MS: '1500',
  }));
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await set?.stop();
});

describe('Redis Sentinel', () => {
  it('SENTINEL FAILOVER during 200 payments and 500 webhooks: nothing paid twice, nothing acknowledged lost, serving again', async () => {
    const result = await failoverDuringTraffic(stack, rest, {
      mutations: 200,
      webhooks: 500,
      firstAmount: 100,
      failover: () => set.failover(),
    });
    process.stderr.write(
      `sentinel failover: ${JSON.stringify({ servingAgainAfterMs: result.servingAgainAfterMs, retries: result.retries, why: Object.fromEntries(retryReasons) })}\n`,
    );
    expect(result.paidOtherThanOnce).toEqual([]);
    expect(result.missingFromHistory).toEqual([]);
    expect(result.missingFromLiveSubscriber).toEqual([]);
    expect(result.missingFromReplay).toEqual([]);
  }, 120_000);

  it('a primary SIGKILLed right after acknowledging loses nothing (REDIS_MIN_REPLICAS=1)', async () => {
    await set.replicated();
    const result = await killRightAfterAcknowledging(stack, rest, {
      mutations: 40,
      webhooks: 100,
      firstAmount: 400,
      kill: () => set.killPrimary(),
    });
    process.stderr.write(`sentinel kill: ${JSON.stringify({ servingAgainAfterMs: result.servingAgainAfterMs })}\n`);
    expect(result.paidOtherThanOnce).toEqual([]);
    expect(result.changedReferences).toBe(0);
    expect(result.missingFromHistory).toEqual([]);
    expect(result.missingFromReplay).toEqual([]);
  }, 120_000);

  it("pub/sub (the bus's resource changes) travels through the Sentinel after the failovers", async () => {
    expect(await pubSubRoundTrip(stack)).toMatchObject({ type: 'charge', status: 'pubsub' });
  });
});
