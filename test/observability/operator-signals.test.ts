// What an operator of several replicas watches: /health reports Redis; /metrics has the
// build (version, Node.js), readiness (turning 0 as soon as shutdown begins) and how far
// this replica's reading of the event log lags behind its head; a start whose payment
// service does not answer leaves exactly one warning line.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logLag } from '../../src/events/lag.js';
import { memoryEventLog } from '../../src/events/log.js';
import type { PaymentEventRecord } from '../../src/events/payment-event.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { parseMetrics } from './prometheus-text.js';

const METRICS_TOKEN = randomBytes(24).toString('hex');
const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const record = (label: string): PaymentEventRecord => ({
  id: `${label}-${randomUUID()}`,
  kind: 'charge.success',
  receivedAt: new Date().toISOString(),
  reference: `ch_${label}`,
  resourceType: 'charge',
  payload: { label },
});

async function scrape(stack: TestStack) {
  const res = await fetch(`${stack.gateway.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  return parseMetrics(await res.text());
}

describe('a replica on Redis', () => {
  const namespace = uniqueNamespace('operator');
  let stack: TestStack;
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    stack = await startStack({ env: { REDIS_URL, METRICS_TOKEN }, redisNamespace: namespace });
  });
  afterAll(async () => {
    await stack?.close();
    await deleteByPrefix(redis, namespace);
    redis.disconnect();
  });

  it('reports Redis in /health', async () => {
    const body = (await (await fetch(`${stack.gateway.url}/health`)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'ok', redis: { status: 'ok', latencyMs: expect.any(Number) } });
  });

  it('exports build info, readiness and the event-log lag with their values', async () => {
    // An event appended and read by this replica's tailer: the lag is back to nothing.
    const seen: string[] = [];
    const stop = stack.gateway.bus.onLoggedEvent((e) => seen.push(e.seq));
    const logged = await stack.gateway.bus.publishPaymentEvent(record('lag'));
    await waitFor(() => seen.includes(logged.seq), 'the tailer to read the event');
    stop();

    const metrics = await scrape(stack);
    expect(metrics.samples('gateway_build_info')).toEqual([{ labels: { version, node_version: process.version }, value: 1 }]);
    expect(metrics.samples('gateway_ready')).toEqual([{ labels: {}, value: 1 }]);
    expect(metrics.samples('gateway_event_log_lag_entries')).toEqual([{ labels: {}, value: 0 }]);
    expect(metrics.samples('gateway_event_log_lag_seconds')).toEqual([{ labels: {}, value: 0 }]);
  });

  it('turns the readiness gauge to 0 as soon as shutdown begins', async () => {
    const closing = stack.gateway.close({ graceMs: 200 });
    try {
      // Still serving during the grace period: the scrape is answered, and says not ready.
      expect((await scrape(stack)).samples('gateway_ready')).toEqual([{ labels: {}, value: 0 }]);
    } finally {
      await closing;
    }
  });
});

it('counts the entries and seconds between the log head and a tail behind it', async () => {
  let now = 1_700_000_000_000;
  const log = memoryEventLog({ now: () => now });
  const tail = (await log.append(record('first'))).seq;
  expect(await logLag(log, tail)).toEqual({ entries: 0, seconds: 0 });
  now += 1_500;
  await log.append(record('second'));
  now += 2_000;
  await log.append(record('third'));
  expect(await logLag(log, tail)).toEqual({ entries: 2, seconds: 3.5 });
});

it('reports Redis as not configured without REDIS_URL, and logs one warning when the service is unreachable at start', async () => {
  // A port nothing listens on: the payment service cannot be reached.
  const stack = await startStack({ env: { PAYMENT_BASE_URL: 'http://127.0.0.1:9', METRICS_TOKEN } });
  try {
    const warnings = stack.logLines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'payment service not reachable at start');
    expect(warnings).toEqual([expect.objectContaining({ level: 'warn', upstream: 'unreachable', service: 'http://127.0.0.1:9' })]);
    const body = (await (await fetch(`${stack.gateway.url}/health`)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'degraded', redis: { status: 'not_configured', latencyMs: null } });
    expect((await scrape(stack)).samples('gateway_ready')).toEqual([{ labels: {}, value: 0 }]);
  } finally {
    await stack.close();
  }
});
