// The event bus: in memory, and as two "replicas" sharing the real Redis.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus, SubscriberTooSlowError, type EventBus, type ResourceChange } from '../../src/events/bus.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { createLogger } from '../../src/logger.js';
import type { LoggedPaymentEvent, PaymentEventRecord } from '../../src/events/payment-event.js';
import { compareStreamIds } from '../../src/events/stream-id.js';
import { compiled } from '../helpers/compiled.js';
import { waitFor } from '../redis/wait.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace, waitForSubscribers } from './redis-helpers.js';

function paymentEvent(id: string, reference: string | null = 'chk_1'): PaymentEventRecord {
  return {
    id,
    kind: 'checkout.success',
    receivedAt: '2025-01-01T00:00:00.000Z',
    reference,
    resourceType: 'checkout',
    payload: { event: 'checkout.success', data: { reference, nested: [1, 'two', null] } },
  };
}

/** The event as the log hands it back: the record and its position. */
/** The event as logged (its generation: any, the log's own). */
function logged(event: PaymentEventRecord, seq: string): LoggedPaymentEvent {
  return { ...event, seq, generation: expect.any(String) as string };
}

function change(type: ResourceChange['type'], reference: string, status: string): ResourceChange {
  return { type, reference, status, resource: { reference, status } };
}

describe('in-memory bus', () => {
  let bus: EventBus;
  afterEach(async () => bus.close());

  it('delivers payment events to every subscriber', async () => {
    bus = await createEventBus();
    expect(bus.mode).toBe('memory');
    const s1 = bus.subscribePaymentEvents();
    const s2 = bus.subscribePaymentEvents();
    // Subscriptions start with the first next() (the iterators are lazy).
    const n1 = s1.next();
    const n2 = s2.next();
    const e1 = await bus.publishPaymentEvent(paymentEvent('e1'));
    expect(e1.seq).toMatch(/^\d+-\d+$/);
    expect(await n1).toEqual({ done: false, value: logged(paymentEvent('e1'), e1.seq) });
    expect(await n2).toEqual({ done: false, value: logged(paymentEvent('e1'), e1.seq) });
    // Exactly once: the next event s1 sees is the following one, not a second e1.
    const following = s1.next();
    const e2 = await bus.publishPaymentEvent(paymentEvent('e2'));
    expect(compareStreamIds(e2.seq, e1.seq)).toBeGreaterThan(0);
    expect(await following).toEqual({ done: false, value: logged(paymentEvent('e2'), e2.seq) });
  });

  it('a delivery id logged twice reaches a resumed subscriber once, as it reaches one connected throughout', async () => {
    bus = await createEventBus();
    const throughout = bus.subscribePaymentEvents();
    const first = throughout.next();
    const before = await bus.publishPaymentEvent(paymentEvent('before'));
    await first;
    const original = await bus.publishPaymentEvent(paymentEvent('e'));
    expect((await throughout.next()).value).toEqual(logged(paymentEvent('e'), original.seq));
    // Resumed after `before`: its replay reads the first copy from the log.
    const resumed = bus.subscribePaymentEvents({ after: before.seq });
    expect((await resumed.next()).value).toEqual(logged(paymentEvent('e'), original.seq));
    const nextResumed = resumed.next();
    await bus.publishPaymentEvent(paymentEvent('e')); // the sender's re-sent copy, logged again
    const after = await bus.publishPaymentEvent(paymentEvent('after'));
    expect((await nextResumed).value).toEqual(logged(paymentEvent('after'), after.seq));
    expect((await throughout.next()).value).toEqual(logged(paymentEvent('after'), after.seq));
  });

  it('routes resource changes by type and reference only', async () => {
    bus = await createEventBus({ redis: null });
    const charge1 = bus.subscribeResourceChanged('charge', 'ch_1');
    const pending = charge1.next();
    await bus.publishResourceChanged(change('charge', 'ch_2', 'success'));
    await bus.publishResourceChanged(change('checkout', 'ch_1', 'success'));
    await bus.publishResourceChanged(change('charge', 'ch_1', 'pending'));
    expect(await pending).toEqual({ done: false, value: change('charge', 'ch_1', 'pending') });
    // Events reach subscribers in publish order: the next one for ch_1 is the later ch_1 change, so nothing else came.
    const following = charge1.next();
    await bus.publishResourceChanged(change('charge', 'ch_1', 'success'));
    expect(await following).toEqual({ done: false, value: change('charge', 'ch_1', 'success') });
  });

  it('works with for await, and return() ends one subscription', async () => {
    bus = await createEventBus();
    const got: string[] = [];
    const consumer = (async () => {
      for await (const e of bus.subscribePaymentEvents()) {
        got.push(e.id);
        if (got.length === 2) break;
      }
    })();
    await new Promise((r) => setImmediate(r));
    for (const id of ['a', 'b', 'c']) await bus.publishPaymentEvent(paymentEvent(id));
    await consumer;
    expect(got).toEqual(['a', 'b']);
  });

  it('close() ends pending iterators and refuses further use', async () => {
    bus = await createEventBus();
    const it1 = bus.subscribePaymentEvents();
    const pending = it1.next();
    const unstarted = bus.subscribeResourceChanged('transfer', 'tr_1');
    await bus.close();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(await unstarted.next()).toEqual({ done: true, value: undefined });
    await expect(bus.publishPaymentEvent(paymentEvent('late'))).rejects.toThrow(/closed/);
    expect(() => bus.subscribePaymentEvents()).toThrow(/closed/);
    await bus.close(); // idempotent
  });

  it('throw() ends one subscription like return(), and the others keep receiving', async () => {
    bus = await createEventBus();
    const thrown = bus.subscribePaymentEvents();
    const kept = bus.subscribePaymentEvents();
    const keptFirst = kept.next();
    const thrownFirst = thrown.next();
    const before = await bus.publishPaymentEvent(paymentEvent('before-throw'));
    expect((await thrownFirst).value).toEqual(logged(paymentEvent('before-throw'), before.seq));
    expect((await keptFirst).value).toEqual(logged(paymentEvent('before-throw'), before.seq));
    await expect(thrown.throw!(new Error('client went away'))).rejects.toThrow('client went away');
    const keptNext = kept.next();
    const after = await bus.publishPaymentEvent(paymentEvent('after-throw'));
    expect(await keptNext).toEqual({ done: false, value: logged(paymentEvent('after-throw'), after.seq) });
    expect(await thrown.next()).toEqual({ done: true, value: undefined });
  });

  it('ends the stream of a subscriber that stops reading, after what it had buffered', async () => {
    bus = await createEventBus({ maxBuffered: 3 });
    const slow = bus.subscribePaymentEvents();
    const first = slow.next();
    const e0 = await bus.publishPaymentEvent(paymentEvent('e0'));
    expect((await first).value).toEqual(logged(paymentEvent('e0'), e0.seq));
    for (const id of ['e1', 'e2', 'e3', 'e4', 'e5']) await bus.publishPaymentEvent(paymentEvent(id));
    // It reads nothing until this replica has handed out all five (none left between its position and the head).
    await waitFor(async () => (await bus.lag()).entries === 0, 'the tailer to deliver the five events');
    const got: string[] = [];
    const ended = await (async () => {
      for (;;) got.push(((await slow.next()).value as PaymentEventRecord).id);
    })().catch((err: unknown) => err);
    // In order, no more than it was allowed to hold, then the error instead of silently skipping the rest.
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThanOrEqual(3);
    expect(got).toEqual(['e1', 'e2', 'e3'].slice(0, got.length));
    expect(ended).toBeInstanceOf(SubscriberTooSlowError);
  });
});

describe('redis bus: two replicas', () => {
  const namespace = uniqueNamespace('bus');
  const channel = (topic: string) => `${namespace}:events:${topic}`;
  let observer: Redis;
  let redisA: GatewayRedis;
  let redisB: GatewayRedis;
  let a: EventBus;
  let b: EventBus;
  const logLines: string[] = [];

  beforeAll(async () => {
    const log = createLogger('debug', { write: (l) => logLines.push(l) });
    [redisA, redisB] = await Promise.all([
      connectRedis({ url: REDIS_URL, namespace, log }),
      connectRedis({ url: REDIS_URL, namespace, log }),
    ]);
    [a, b] = await Promise.all([createEventBus({ redis: redisA, log }), createEventBus({ redis: redisB, log })]);
    observer = new Redis(REDIS_URL);
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all([redisA?.close(), redisB?.close()]);
    await deleteByPrefix(observer, namespace);
    await observer.quit();
  });

  it('delivers an event published on A to subscribers on A and B exactly once each', async () => {
    expect(a.mode).toBe('redis');
    const onA = a.subscribePaymentEvents();
    const onB = b.subscribePaymentEvents();
    const nextA = onA.next();
    const nextB = onB.next();

    const shared = await a.publishPaymentEvent(paymentEvent('evt_shared'));
    expect(await nextA).toEqual({ done: false, value: logged(paymentEvent('evt_shared'), shared.seq) });
    expect(await nextB).toEqual({ done: false, value: logged(paymentEvent('evt_shared'), shared.seq) });
    // No second copy (e.g. a local dispatch plus the Redis echo).
    // (Redis delivers in publish order: the next event each replica sees being evt_2 proves no second evt_shared.)
    const againA = onA.next();
    const againB = onB.next();
    // The next one arrives on the same iterators.
    const second = await b.publishPaymentEvent(paymentEvent('evt_2'));
    expect((await againA).value).toEqual(logged(paymentEvent('evt_2'), second.seq));
    expect((await againB).value).toEqual(logged(paymentEvent('evt_2'), second.seq));
    await Promise.all([onA.return(), onB.return()]);
  });

  it('a subscriber resumed during a failover gets the copy of an event whose first copy the new primary lacks', async () => {
    const throughout = a.subscribePaymentEvents();
    const first = throughout.next();
    const before = await a.publishPaymentEvent(paymentEvent('evt_before_failover'));
    await first;
    const lost = await a.publishPaymentEvent(paymentEvent('evt_lost_in_failover'));
    expect((await throughout.next()).value).toEqual(logged(paymentEvent('evt_lost_in_failover'), lost.seq));
    // The replica promoted never received that entry (its write was not acknowledged, so the sender re-sends it).
    await observer.xdel(`${namespace}:events:log`, lost.seq);
    const resumed = a.subscribePaymentEvents({ after: before.seq });
    const nextResumed = resumed.next();
    const copy = await a.publishPaymentEvent(paymentEvent('evt_lost_in_failover'));
    const after = await a.publishPaymentEvent(paymentEvent('evt_after_failover'));
    expect((await nextResumed).value).toEqual(logged(paymentEvent('evt_lost_in_failover'), copy.seq));
    expect((await resumed.next()).value).toEqual(logged(paymentEvent('evt_after_failover'), after.seq));
    // Connected throughout: handed the first copy, not the second.
    expect((await throughout.next()).value).toEqual(logged(paymentEvent('evt_after_failover'), after.seq));
    await Promise.all([throughout.return(), resumed.return()]);
  });

  it('routes resource changes across replicas by type and reference', async () => {
    const sub = a.subscribeResourceChanged('transfer', 'tr_42');
    const pending = sub.next();
    await waitForSubscribers(observer, channel('resourceChanged:transfer:tr_42'), 1);
    await b.publishResourceChanged(change('transfer', 'tr_41', 'success'));
    await b.publishResourceChanged(change('transfer', 'tr_42', 'success'));
    expect(await pending).toEqual({ done: false, value: change('transfer', 'tr_42', 'success') });
    // In publish order: the next tr_42 change is the later one, so tr_41's never came.
    const following = sub.next();
    await b.publishResourceChanged(change('transfer', 'tr_41', 'failed'));
    await b.publishResourceChanged(change('transfer', 'tr_42', 'failed'));
    expect(await following).toEqual({ done: false, value: change('transfer', 'tr_42', 'failed') });
    await sub.return();
    // Unsubscribed from Redis once the last local iterator is gone.
    // (waitForSubscribers waits for at least n: with 0 it would not wait for the unsubscribe at all.)
    const numsub = async () =>
      Number(((await observer.pubsub('NUMSUB', channel('resourceChanged:transfer:tr_42'))) as [string, number])[1]);
    await waitFor(async () => (await numsub()) === 0, 'the unsubscribe from Redis');
    const [, count] = (await observer.pubsub('NUMSUB', channel('resourceChanged:transfer:tr_42'))) as [string, number];
    expect(Number(count)).toBe(0);
  });

  it('is not disturbed by a malformed entry in its event log, nor by a malformed message on a channel', async () => {
    const sub = b.subscribePaymentEvents();
    const pending = sub.next();
    await observer.xadd(`${namespace}:events:log`, '*', 'e', '{not json');
    const good = await a.publishPaymentEvent(paymentEvent('after_garbage'));
    expect((await pending).value).toEqual(logged(paymentEvent('after_garbage'), good.seq));
    expect(logLines.some((l) => l.includes('skipped a malformed event log entry'))).toBe(true);
    await sub.return();

    const changes = b.subscribeResourceChanged('charge', 'ch_garbage');
    const next = changes.next();
    await waitForSubscribers(observer, channel('resourceChanged:charge:ch_garbage'), 1);
    await observer.publish(channel('resourceChanged:charge:ch_garbage'), '{not json');
    await a.publishResourceChanged(change('charge', 'ch_garbage', 'success'));
    expect((await next).value).toEqual(change('charge', 'ch_garbage', 'success'));
    expect(logLines.some((l) => l.includes('"op":"deliver"'))).toBe(true);
    await changes.return();
  });

  it('does not receive events of another namespace', async () => {
    const otherRedis = await connectRedis({ url: REDIS_URL, namespace: `${namespace}-other` });
    const other = await createEventBus({ redis: otherRedis });
    try {
      const sub = a.subscribePaymentEvents();
      const pending = sub.next();
      await other.publishPaymentEvent(paymentEvent('foreign'));
      const own = await a.publishPaymentEvent(paymentEvent('own'));
      // The foreign event was published first; the first this namespace's subscriber sees is its own.
      expect(await pending).toEqual({ done: false, value: logged(paymentEvent('own'), own.seq) });
      await sub.return();
    } finally {
      await other.close();
      await otherRedis.close();
    }
  });

  it('close() ends pending iterators and unsubscribes; closing the Redis owner then closes every connection', async () => {
    // The connections both replicas opened, as Redis sees them: each is named after the namespace.
    const ours = async () =>
      String(await observer.client('LIST'))
        .split('\n')
        .filter((line) => line.includes(` name=${namespace}:`)).length;
    expect(await ours()).toBeGreaterThanOrEqual(6);
    const pendingA = a.subscribePaymentEvents().next();
    const pendingB = b.subscribeResourceChanged('charge', 'ch_close').next();
    await waitForSubscribers(observer, channel('resourceChanged:charge:ch_close'), 1);
    const linesBeforeClose = logLines.length;
    await Promise.all([a.close(), b.close()]);
    expect(await pendingA).toEqual({ done: true, value: undefined });
    expect(await pendingB).toEqual({ done: true, value: undefined });
    await expect(a.publishPaymentEvent(paymentEvent('late'))).rejects.toThrow(/closed/);
    await waitFor(
      async () => Number(((await observer.pubsub('NUMSUB', channel('resourceChanged:charge:ch_close'))) as [string, number])[1]) === 0,
      'unsubscribe',
    );
    await Promise.all([redisA.close(), redisB.close()]);
    // Closing itself produced no failed unsubscribe or similar.
    expect(logLines.slice(linesBeforeClose).join('\n')).not.toMatch(/failed|Connection is closed/i);
    // None of them remains open.
    await waitFor(async () => (await ours()) === 0, 'every connection of both replicas to close');
  });

  it('a process that closed its bus exits by itself', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [compiled('test/events/fixtures/bus-exit.ts'), `${namespace}-exit`], {
      timeout: 15_000,
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    });
    expect(JSON.parse(stdout.trim())).toEqual({ received: true, pendingEnded: true });
  });
});
