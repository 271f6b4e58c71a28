// A fan-out to many listeners goes out in slices with turns of the event loop in between (so /health and other
// requests are served meanwhile: bench/fanout-health.ts measures it), and each listener still receives the
// events in log order, each once.
import { afterEach, describe, expect, it } from 'vitest';
import { memoryEventLog, type EventLog } from '../../src/events/log.js';
import type { LoggedPaymentEvent } from '../../src/events/payment-event.js';
import { DELIVERY_SLICE, startTailer, type LogTailer } from '../../src/events/tailer.js';
import { silentLogger } from '../../src/logger.js';
import { waitFor } from '../helpers/wait.js';

const record = (id: string) => ({
  id,
  kind: 'charge.success',
  receivedAt: new Date().toISOString(),
  reference: `ch_${id}`,
  resourceType: 'charge' as const,
  payload: { event: 'charge.success', data: { reference: `ch_${id}` } },
});

let tailer: LogTailer | null = null;
afterEach(async () => {
  await tailer?.stop();
  tailer = null;
});

describe('the tailer’s fan-out', () => {
  it('lets the event loop turn between slices of listeners, and keeps every listener’s events in order', async () => {
    const log = memoryEventLog();
    tailer = await startTailer({ log, logger: silentLogger, blockMs: 50 });
    const LISTENERS = DELIVERY_SLICE * 8;
    const received: string[][] = Array.from({ length: LISTENERS }, () => []);
    // How many listeners had the first event when a macrotask queued by the first listener ran.
    let deliveredWhenLoopTurned: number | null = null;
    let delivered = 0;
    for (let i = 0; i < LISTENERS; i++) {
      tailer.listen({
        onEvent(event: LoggedPaymentEvent) {
          received[i]!.push(event.id);
          if (event.id !== 'first') return;
          delivered += 1;
          if (i === 0) setImmediate(() => (deliveredWhenLoopTurned = delivered));
        },
        onGap() {},
      });
    }
    await log.append(record('first'));
    await log.append(record('second'));
    await log.append(record('third'));
    await waitFor(() => received.every((ids) => ids.length === 3), 'every listener to get the three events');
    // The loop turned after the first slice, long before the last listener had the event.
    expect(deliveredWhenLoopTurned).not.toBeNull();
    expect(deliveredWhenLoopTurned!).toBeLessThan(LISTENERS);
    expect(deliveredWhenLoopTurned!).toBeGreaterThanOrEqual(DELIVERY_SLICE);
    for (const ids of received) expect(ids).toEqual(['first', 'second', 'third']);
  });

  it('a listener removed while a fan-out is under way gets nothing more', async () => {
    const log = memoryEventLog();
    tailer = await startTailer({ log, logger: silentLogger, blockMs: 50 });
    let lastGot = 0;
    let firstGot = 0;
    let stopLast: () => void = () => {};
    tailer.listen({
      onEvent() {
        firstGot += 1;
        stopLast(); // during the first slice: the last listener is in a later one
      },
      onGap() {},
    });
    for (let i = 0; i < DELIVERY_SLICE * 2; i++) tailer.listen({ onEvent() {}, onGap() {} });
    stopLast = tailer.listen({ onEvent: () => (lastGot += 1), onGap() {} });
    await log.append(record('only'));
    await waitFor(() => firstGot === 1, 'the first listener to get the event');
    await log.append(record('next'));
    await waitFor(() => firstGot === 2, 'the next event');
    expect(lastGot).toBe(0);
  });
});

describe('a faulty log whose read “after an id” includes that id (bug 8 of issue 19)', () => {
  /** The in-memory log with the bug: every read after `from` also returns the event `from` itself. */
  const inclusiveLog = () => {
    const log = memoryEventLog();
    let reads = 0;
    const faulty: EventLog = {
      ...log,
      async waitAfter(from, count, blockMs) {
        reads += 1;
        // A fuse: past it the bug stops, so a tailer that spins makes this test fail instead of hanging the worker.
        if (reads > 100_000) return log.waitAfter(from, count, blockMs);
        const itself = (await log.descending(null, 10_000)).find((event) => event.seq === from);
        // It answers at once (no wait, not even a timer) whenever the id itself is there.
        return itself ? [itself, ...(await log.ascending(from, count))] : log.waitAfter(from, count, blockMs);
      },
    };
    return { log: faulty, reads: () => reads };
  };

  it('delivers each event once and lets the event loop turn while the log keeps answering the same id', async () => {
    const { log, reads } = inclusiveLog();
    tailer = await startTailer({ log, logger: silentLogger, blockMs: 50, retryMs: 1, maxRetryMs: 2 });
    const received: string[] = [];
    tailer.listen({ onEvent: (event) => void received.push(event.id), onGap() {} });
    await log.append(record('first'));
    await waitFor(() => received.length === 1, 'the first event');
    // From here on every read answers the same id at once. A timer queued now must run after a few reads at most.
    const readsAtTimer = await new Promise<number>((resolve) => setTimeout(() => resolve(reads()), 0));
    expect(readsAtTimer).toBeLessThan(100);
    await log.append(record('second'));
    await waitFor(() => received.length === 2, 'the second event');
    const readsThen = reads();
    await waitFor(() => reads() >= readsThen + 5, 'the tailer to read the faulty log again a few times');
    expect(received).toEqual(['first', 'second']);
  });
});

describe('a delivery id logged again (the log lost its first copy: a failover, a Redis restarted empty)', () => {
  it('goes to the listeners that joined since the first copy, and not to those that were handed it', async () => {
    const log = memoryEventLog();
    tailer = await startTailer({ log, logger: silentLogger, blockMs: 50 });
    const throughout: Array<[string, boolean]> = [];
    const joined: Array<[string, boolean]> = [];
    tailer.listen({ onEvent: (event, copy) => void throughout.push([event.id, copy]), onGap() {} });
    await log.append(record('e'));
    await waitFor(() => throughout.length === 1, 'the first copy');
    expect(tailer.handedOut('e')).toBe(true);
    expect(tailer.handedOut('never')).toBe(false);
    tailer.listen({ onEvent: (event, copy) => void joined.push([event.id, copy]), onGap() {} });
    await log.append(record('e'));
    await log.append(record('z'));
    await waitFor(() => throughout.length === 2 && joined.length === 2, 'the following event at both listeners');
    expect(throughout).toEqual([
      ['e', false],
      ['z', false],
    ]);
    expect(joined).toEqual([
      ['e', true],
      ['z', false],
    ]);
  });
});
