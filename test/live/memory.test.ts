// Memory comes back when subscribers leave: three rounds of 1,000 subscriptions over real sockets, each round
// receiving events and then closing every socket, in a process of its own with --expose-gc (the heap is read after
// full collections, so garbage not yet collected does not count). What the subscriptions held is released, and the
// rounds do not add up. The gateway's RSS around a 10,000-subscriber fan-out is bench/fanout-health.ts's figure.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('memory after the sockets close', () => {
  it('returns: what 1,000 subscriptions held is freed, and three rounds do not accumulate', { timeout: 240_000 }, () => {
    const out = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        `${ROOT}node_modules/tsx/dist/loader.mjs`,
        fileURLToPath(new URL('./fixtures/memory-rounds.ts', import.meta.url)),
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 230_000, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const { base, rounds } = JSON.parse(out.trim().split('\n').at(-1)!) as {
      base: number;
      rounds: Array<{ connected: number; closed: number }>;
    };
    for (const { connected, closed } of rounds) {
      // Most of what the subscriptions took is given back (the rest: caches filled once, compiled code).
      expect(closed - base, JSON.stringify({ base, rounds })).toBeLessThan((connected - base) / 2);
    }
    // The second and third rounds leave no more behind than the first: nothing per subscription is kept.
    expect(rounds[2]!.closed - rounds[0]!.closed, JSON.stringify({ base, rounds })).toBeLessThan(4);
  });
});
