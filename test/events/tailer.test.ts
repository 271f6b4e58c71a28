// A fan-out to many listeners goes out in slices with turns of the event loop in between (so /health and other
// requests are served meanwhile: bench/fanout-health.ts measures it), and each listener still receives the
// events in log order, each once.
import { afterEach, describe, expect, it } from 'vitest';
import { memoryEventLog } from '../../src/events/log.js';
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
