import { describe, expect, it } from 'vitest';
import { MANUAL_CLOCK_DEFAULT_START, manualClock } from '../../src/sandbox/index.js';

describe('manualClock', () => {
  it('starts at a fixed instant or the given one', () => {
    expect(manualClock().now()).toBe(MANUAL_CLOCK_DEFAULT_START);
    expect(manualClock(42).now()).toBe(42);
  });

  it('runs due timers in due order, ties in scheduling order, with now() at each due time', async () => {
    const clock = manualClock(0);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => seen.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => seen.push(`a2@${clock.now()}`), 10);
    const cancelled = clock.setTimeout(() => seen.push('never'), 5);
    cancelled.cancel();
    await clock.advance(15);
    expect(seen).toEqual(['a@10', 'a2@10']);
    expect(clock.now()).toBe(15);
    await clock.advance(5);
    expect(seen).toEqual(['a@10', 'a2@10', 'b@20']);
  });

  it('runs timers scheduled by timers if they fall due within the same advance', async () => {
    const clock = manualClock(0);
    const seen: number[] = [];
    clock.setTimeout(() => {
      seen.push(clock.now());
      clock.setTimeout(() => seen.push(clock.now()), 10);
    }, 10);
    await clock.advance(25);
    expect(seen).toEqual([10, 20]);
  });

  it('awaits async work returned by timers before going on', async () => {
    const clock = manualClock(0);
    const seen: string[] = [];
    clock.setTimeout(async () => {
      // Several turns of the event loop, not a moment of real time.
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      seen.push('slow done');
    }, 1);
    clock.setTimeout(() => seen.push('second'), 2);
    await clock.advance(2);
    expect(seen).toEqual(['slow done', 'second']);
  });

  it('refuses negative or non-finite advances', async () => {
    await expect(manualClock().advance(-1)).rejects.toThrow(RangeError);
    await expect(manualClock().advance(Infinity)).rejects.toThrow(RangeError);
  });
});
