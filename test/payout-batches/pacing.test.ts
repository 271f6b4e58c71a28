// The pacer every replica asks before a bulk call: at most N calls in any
// sliding second, each counted until one second after the latest moment it may
// have reached the service (the end of the call; while on its way, up to
// HOLD_MS), together for every pacer that shares the Redis key (replicas), and
// an honest wait when the window is full.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HOLD_MS, memoryPacer, redisPacer, type PacerSlot, type Take } from '../../src/payout-batches/pacing.js';
import { connectRedis, type GatewayRedis } from '../../src/redis/index.js';
import { deleteByPrefix, REDIS_URL, uniqueNamespace } from '../events/redis-helpers.js';

const namespace = uniqueNamespace('payout-pacing');
let a: GatewayRedis;
let b: GatewayRedis;

beforeAll(async () => {
  a = await connectRedis({ url: REDIS_URL, namespace });
  b = await connectRedis({ url: REDIS_URL, namespace });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  const redis = new Redis(REDIS_URL);
  await deleteByPrefix(redis, namespace);
  await redis.quit();
});

const granted = (take: Take): PacerSlot => {
  if (!('slot' in take)) throw new Error(`no slot: wait ${take.waitMs} ms`);
  return take.slot;
};
const waitOf = (take: Take) => ('waitMs' in take ? take.waitMs : null);

it('memory: a sliding window, not a fixed one: a call on its way holds its slot until it is over, then one second more', async () => {
  let now = 10_500;
  const pacer = memoryPacer({ callsPerSecond: 5, marginMs: 10 }, () => now);
  const slots: PacerSlot[] = [];
  for (let i = 0; i < 5; i++) {
    slots.push(granted(await pacer.tryTake()));
    now += 100;
  }
  // The last four are answered at once; the first is still on its way.
  now = 10_950;
  for (const slot of slots.slice(1)) await slot.finished();
  // t = 11,000: a fixed one-second window would open here; the service's sliding one does not. The first call may
  // free its slot as early as 11,510 (were it over at once), so the waiter is told to ask again then.
  now = 11_000;
  expect(waitOf(await pacer.tryTake())).toBe(510);
  now = 11_510;
  // Still on its way: it may reach the service any moment; asked again shortly.
  expect(waitOf(await pacer.tryTake())).toBe(10);
  // Over at 11,520: its slot frees a second (and the margin) later. The others (over at 10,950) free at 11,960.
  now = 11_520;
  await slots[0]!.finished();
  expect(waitOf(await pacer.tryTake())).toBe(440);
  now = 11_959;
  expect(waitOf(await pacer.tryTake())).toBe(1);
  now = 11_960;
  for (let i = 0; i < 4; i++) granted(await pacer.tryTake());
  expect(waitOf(await pacer.tryTake())).toBe(570);
});

it('memory: a call never told it is over holds its slot HOLD_MS after its grant, then one second', async () => {
  let now = 0;
  const pacer = memoryPacer({ callsPerSecond: 1, marginMs: 10 }, () => now);
  granted(await pacer.tryTake());
  now = HOLD_MS + 999;
  expect(waitOf(await pacer.tryTake())).toBe(1);
  now = HOLD_MS + 1_000;
  granted(await pacer.tryTake());
});

it('redis: two replicas share one window; a slot frees one second after its call is over, on Redis clock', async () => {
  const options = { callsPerSecond: 5, marginMs: 10 };
  const pacers = [redisPacer(a, options), redisPacer(b, options)];
  const slots: PacerSlot[] = [];
  const asked = performance.now();
  for (let i = 0; i < 5; i++) slots.push(granted(await pacers[i % 2]!.tryTake()));
  // Every call is on its way (HOLD_MS): both replicas wait, and are told to ask again within a second.
  for (const pacer of pacers) {
    const wait = waitOf(await pacer.tryTake());
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(1_010);
  }
  // Over: each slot is held one second (and the margin) from now, not HOLD_MS from its grant.
  const finishing = performance.now();
  for (const slot of slots) await slot.finished();
  const wait = waitOf(await pacers[1]!.tryTake());
  const spent = Math.ceil(performance.now() - asked);
  // The first slot told it is over frees first: a second and the margin after it was told, less what has passed
  // since (a loaded machine may take a while between these lines; the 1 ms is TIME's cut).
  expect(wait).toBeGreaterThanOrEqual(1_010 - Math.ceil(performance.now() - finishing) - 1);
  // A second and the margin from the end of the call, as the caller measured it (from before it asked for the slot,
  // so by at most the time this test has spent so far, plus the 1 ms TIME is cut by): far below HOLD_MS.
  expect(wait).toBeLessThanOrEqual(1_011 + spent);
  expect(wait).toBeLessThan(HOLD_MS);
});
