// Memory comes back when subscribers leave: four rounds of 1,000 subscriptions over real sockets, each round
// receiving events and then closing every socket, in a process of its own with --expose-gc (the heap is read after
// full collections, so garbage not yet collected does not count). What the subscriptions held is released, and the
// rounds do not add up. The same at 10,000 subscriptions (200 connections x 50) is bench/memory-after-close.ts's
// figure (about 25 s of the machine's two cores, too long for every test run).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compiled } from '../helpers/compiled.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs the rounds in a process of its own (the heap read after full collections) and returns its figures. */
function runRounds() {
  const out = execFileSync(process.execPath, ['--expose-gc', compiled('test/live/fixtures/memory-rounds.ts')], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 230_000,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: process.env,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as {
    base: number;
    rounds: Array<{ connected: number; closed: number; rssConnected: number; rssClosed: number }>;
  };
}

describe('memory after the sockets close', () => {
  it('returns: what 1,000 subscriptions held is freed, and four rounds do not accumulate', { timeout: 240_000 }, () => {
    const { base, rounds } = runRounds();
    for (const { connected, closed } of rounds) {
      // Most of what the subscriptions took is given back (the rest: caches filled once, compiled code).
      expect(closed - base, JSON.stringify({ base, rounds })).toBeLessThan((connected - base) / 2);
    }
    // The later rounds leave no more behind than the first: nothing per subscription is kept. A reading now and then
    // lands while some garbage is still reachable (sockets still closing: measured up to +4.5 MB in one round, gone
    // by the next), so the later rounds' lower reading is compared; what a leak keeps is in both.
    const later = Math.min(rounds[2]!.closed, rounds[3]!.closed);
    expect(later - rounds[0]!.closed, JSON.stringify({ base, rounds })).toBeLessThan(4);
  });
});
