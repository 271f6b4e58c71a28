// The Redis owner against a redis-server of the test's own: names and
// namespaces, fail-fast commands, a subscriber that survives a restart, a
// clean close, and the live-mode check of eviction and persistence.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/events/bus.js';
import { ServiceUnavailableError } from '../../src/errors/payment-errors.js';
import { redisIdempotencyStore } from '../../src/idempotency/store.js';
import { createLogger } from '../../src/logger.js';
import { checkRedisForLiveMode, connectRedis, RedisUnfitError, type GatewayRedis } from '../../src/redis/index.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { acceptIntoLog, createWebhookHandler } from '../../src/inbound-webhooks/receiver.js';
import { signBody } from '../../src/inbound-webhooks/signature.js';
import { startRedisServer, type TestRedisServer } from '../helpers/redis-server.js';
import { settledThisTurn, waitFor } from './wait.js';

const PASSWORD = 'pw-hunter2-secret';

describe('the Redis owner', () => {
  let server: TestRedisServer;
  let observer: Redis;
  const logLines: string[] = [];
  const log = createLogger('debug', { write: (l) => logLines.push(l) });

  beforeAll(async () => {
    server = await startRedisServer({ requirePass: PASSWORD });
    observer = new Redis(server.url);
  });
  afterAll(async () => {
    observer.disconnect();
    await server.stop();
  });

  const clientNames = async () =>
    String(await observer.client('LIST'))
      .split('\n')
      .map((line) => /\bname=(\S*)/.exec(line)?.[1] ?? '')
      .filter(Boolean);

  it('names its three connections and prefixes every key with its namespace', async () => {
    const redis = await connectRedis({ url: server.url, namespace: 'ns-a', log });
    try {
      expect(redis.key('idem', 'since')).toBe('ns-a:idem:since');
      expect((await clientNames()).sort()).toEqual(['ns-a:commands', 'ns-a:publisher', 'ns-a:subscriber']);
      // A bus on it keeps its log and the deliveries it has seen under the namespace too.
      const bus = await createEventBus({ redis, log });
      try {
        expect(await bus.publishPaymentEventOnce(event('d1'), 60_000)).toMatchObject({ duplicate: false });
        expect(await observer.exists('ns-a:webhook-delivery:d1', 'ns-a:events:log')).toBe(2);
      } finally {
        await bus.close();
      }
    } finally {
      await redis.close();
    }
    // close() ends every connection it opened.
    await waitFor(async () => (await clientNames()).length === 0, 'connections to close');
  });

  it('fails commands at once while Redis is down, and recovers by itself; pub/sub resumes after a restart', async () => {
    const redis = await connectRedis({ url: server.url, namespace: 'ns-b', log });
    const bus = await createEventBus({ redis, log });
    try {
      const changes = bus.subscribeResourceChanged('charge', 'ch_restart');
      const first = changes.next();
      const channel = 'ns-b:events:resourceChanged:charge:ch_restart';
      await waitFor(async () => ((await observer.pubsub('NUMSUB', channel)) as [string, number])[1] == 1, 'subscription');

      await server.kill();
      await waitFor(() => redis.commands.status !== 'ready', 'the client to see the connection drop');
      // Fail fast: a command (and a webhook delivery's append-once, the idempotency store's typed error, an append
      // to the log) is refused within the same turn of the event loop: nothing waits for a reconnection or a timeout.
      const command = await settledThisTurn(redis.commands.get('anything'));
      expect(command.settled).toBe('error');
      expect((await settledThisTurn(bus.publishPaymentEventOnce(event('d2'), 60_000))).settled).toBe('error');
      const claim = await settledThisTurn(redisIdempotencyStore(redis).claim('p:op:k', 'fp', {}));
      expect(claim).toMatchObject({ settled: 'error', error: expect.any(ServiceUnavailableError) });
      const publish = await settledThisTurn(bus.publishPaymentEvent(event('while-down')));
      expect(publish.settled).toBe('error');

      await server.restart();
      await waitFor(() => redis.commands.status === 'ready' && redis.publisher.status === 'ready', 'reconnection');
      expect(await redis.commands.set('ns-b:k', '1')).toBe('OK');
      // The subscriber re-subscribed on its own: an event published now arrives on the same stream.
      await waitFor(async () => ((await observer.pubsub('NUMSUB', channel)) as [string, number])[1] == 1, 'resubscription');
      const change = { type: 'charge' as const, reference: 'ch_restart', status: 'success', resource: { reference: 'ch_restart' } };
      await bus.publishResourceChanged(change);
      expect(await first).toEqual({ done: false, value: change });
      await changes.return();
    } finally {
      await bus.close();
      await redis.close();
    }
    expect(logLines.some((l) => l.includes('redis connection lost'))).toBe(true);
    expect(logLines.some((l) => l.includes('redis connection restored'))).toBe(true);
    expect(logLines.join('\n')).not.toContain(PASSWORD);
  });
});

describe('webhooks while Redis is down', () => {
  it('are answered 503 at once (the sender retries), and accepted again once Redis is back', async () => {
    const server = await startRedisServer();
    const redis = await connectRedis({ url: server.url, namespace: 'hooks' });
    const bus = await createEventBus({ redis });
    const handler = createWebhookHandler({
      secret: 'whsec_down',
      scheme: 'hmac-sha256-hex',
      accept: acceptIntoLog(bus),
      log: createLogger('silent'),
    });
    let received = 0;
    const http = createServer((req, res) => void (received++, handler(req, res)));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const body = JSON.stringify({ event: 'charge.success', data: { reference: 'ch_down' } });
    const post = () =>
      fetch(`http://127.0.0.1:${(http.address() as AddressInfo).port}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-hash': signBody(body, 'whsec_down', 'hmac-sha256-hex') },
        body,
      }).then((r) => r.status);
    try {
      await server.kill();
      await waitFor(() => redis.commands.status !== 'ready', 'the client to see the connection drop');
      const answer = post();
      // Redis comes back as soon as the request has reached the handler: a handler that waited for it (instead
      // of answering at once) would answer 200 here, not 503.
      await waitFor(() => received > 0, 'the delivery to reach the handler');
      await server.restart();
      expect(await answer).toBe(503);
      await waitFor(() => redis.commands.status === 'ready', 'reconnection');
      expect(await post()).toBe(200);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await bus.close();
      await redis.close();
      await server.stop();
    }
  });
});

describe('connecting', () => {
  it('fails at start without showing the URL, and leaves nothing open', async () => {
    const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
    const before = sockets();
    const err = await connectRedis({ url: 'redis://:hunter2-secret@127.0.0.1:1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/cannot connect to Redis/);
    expect((err as Error).message).not.toContain('hunter2');
    await waitFor(() => sockets() <= before, 'sockets to close');
  });
});

describe('checkRedisForLiveMode', () => {
  const check = async (options: Parameters<typeof startRedisServer>[0]) => {
    const server = await startRedisServer(options);
    let redis: GatewayRedis | null = null;
    const lines: string[] = [];
    try {
      redis = await connectRedis({ url: server.url, namespace: 'check' });
      const result = await checkRedisForLiveMode(redis.commands, createLogger('warn', { write: (l) => lines.push(l) })).catch(
        (e: unknown) => e,
      );
      return { result, lines };
    } finally {
      await redis?.close();
      await server.stop();
    }
  };

  it('refuses a Redis that evicts keys', async () => {
    const { result } = await check({ maxmemory: '50mb', maxmemoryPolicy: 'allkeys-lru' });
    expect(result).toBeInstanceOf(RedisUnfitError);
    expect((result as Error).message).toContain('allkeys-lru');
  });

  it('accepts noeviction, and warns when nothing is persisted', async () => {
    const { result, lines } = await check({ persistence: 'none' });
    expect(result).toEqual({ maxmemoryPolicy: 'noeviction', persistence: 'none' });
    expect(lines.join('\n')).toMatch(/persists nothing/);
  });

  it('does not warn when writes are persisted', async () => {
    const aof = await check({ persistence: 'aof' });
    expect(aof.result).toEqual({ maxmemoryPolicy: 'noeviction', persistence: 'aof' });
    expect(aof.lines).toEqual([]);
    const rdb = await check({ persistence: 'rdb' });
    expect(rdb.result).toMatchObject({ persistence: 'rdb' });
    expect(rdb.lines).toEqual([]);
  });
});

function event(id: string) {
  return {
    id,
    kind: 'charge.success',
    receivedAt: '2025-01-01T00:00:00.000Z',
    reference: 'ch_1',
    resourceType: 'charge' as const,
    payload: { id },
  };
}
