// Paces the calls to the service's bulk endpoint so that all replicas together
// never exceed its rate (at most N calls in any one-second window).
//
// Hand-written rather than rate-limiter-flexible: the service counts a
// *sliding* one-second window, and that library's limiters count fixed windows,
// which let 2N calls through across a window boundary (N at the end of one
// second, N at the start of the next), exactly what the service refuses.
//
// Exact rather than padded. The service counts a call from the moment it
// arrives there, which we cannot see; we know it is not before the slot was
// granted and not after the call was over (answered, refused, or given up). So
// each call holds its slot until one second after the latest moment it may
// have arrived: while it is on its way, that is unknown (it holds the slot, up
// to HOLD_MS); once it is over, that moment (plus the margin). With answers in
// a few milliseconds the calls go about 1,000 ms + one answer's time apart, and
// a slow answer (a busy service, a busy machine) holds its slot exactly as long
// as needed, where a fixed pad would either be too short (a refusal) or always
// paid. A caller waiting for a slot is told when the first one may free: for a
// call still on its way, as early as its grant plus a second (it then asks
// again every POLL_MS).
//
// The Redis version keeps the calls of the last window in a sorted set scored
// by that moment, on Redis's own clock (replicas' clocks may disagree; only a
// duration measured on one process's clock is added to it), in atomic scripts.
import { randomUUID } from 'node:crypto';
import { orUnavailable } from '../idempotency/unavailable.js';
import { LIST_EXPIRING_LUA, type GatewayRedis } from '../redis/index.js';

/** The service's window. */
const WINDOW_MS = 1_000;
/**
 * Longest a call on its way holds its slot without being told it is over: a replica that dies mid-call never tells,
 * and its slots must not block the others for long. Far above an answer's time; a call still unanswered this long
 * after its grant is near its deadline and most likely reached the service long before.
 */
export const HOLD_MS = 5_000;
/** How often a waiter asks again while the call that holds its slot is on its way. */
const POLL_MS = 10;

/** A slot to call the service now, taken from the pacer; told when its call is over, so the next slot is timed by when calls arrived. */
export interface PacerSlot {
  /**
   * The call that took this slot is over (answered, refused, or failed): it reached the service by now, or never
   * will. Best effort: a slot never told is held HOLD_MS, then a second.
   */
  finished(): Promise<void>;
}

/** A slot to call now, or how long to wait (ms) before asking again. */
export type Take = { slot: PacerSlot } | { waitMs: number };

/** Paces the calls of every batch run to `callsPerSecond`, counted by when the service may have received them. */
export interface Pacer {
  /** Takes a slot now, or says how long to wait before asking again (ms). */
  tryTake(): Promise<Take>;
}

interface PacingOptions {
  callsPerSecond: number;
  /**
   * Added to the moment a call was over before its second starts (PAYOUT_BATCH_PACING_MARGIN_MS, default 10). The
   * moment itself is exact on one clock; the margin is for the service's side, which we cannot see: a limiter that
   * stamps calls on several front ends keeps their clocks only a few ms apart (NTP), or counts a second a hair longer
   * than ours. 10 ms covers that and costs 19 windows x 10 ms = 0.19 s on a 10,000-item batch; a refusal costs more
   * (its chunk waits a second and goes again), so the margin is worth its price up to the service's own jitter.
   */
  marginMs: number;
}

interface Held {
  /** Latest moment the call may have reached the service (plus the margin), or its grant + HOLD_MS while on its way. */
  bound: number;
  granted: number;
  over: boolean;
}

/** When the k-th slot frees, from the calls held: a call on its way may free as early as its grant plus a second. */
function firstFree(held: Held[], k: number, marginMs: number, t: number): number {
  const opens = held
    .map((call) =>
      call.over ? call.bound + WINDOW_MS : Math.min(call.bound + WINDOW_MS, Math.max(call.granted + marginMs + WINDOW_MS, t + POLL_MS)),
    )
    .sort((a, b) => a - b);
  return Math.max(1, opens[k]! - t);
}

/**
 * A Pacer in this process's memory, for a single replica: at most `callsPerSecond` calls in any window, with `marginMs` of slack for
 * clocks.
 */
export function memoryPacer({ callsPerSecond, marginMs }: PacingOptions, now: () => number = Date.now): Pacer {
  let held: Held[] = [];
  return {
    async tryTake() {
      const t = now();
      held = held.filter((call) => call.bound > t - WINDOW_MS);
      if (held.length < callsPerSecond) {
        const call: Held = { bound: t + HOLD_MS, granted: t, over: false };
        held.push(call);
        return {
          slot: {
            async finished() {
              call.bound = Math.min(call.bound, now() + marginMs);
              call.over = true;
            },
          },
        };
      }
      return { waitMs: firstFree(held, held.length - callsPerSecond, marginMs, t) };
    },
  };
}

// KEYS[1] the set, KEYS[2] (platform mode) the merchant's key index; ARGV: window, limit, member id, margin, poll, hold.
// Members: p:<id> on its way, o:<id> over.
const TAKE = `${LIST_EXPIRING_LUA}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window, limit, margin, poll, hold = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local held = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local count = #held / 2
if count < limit then
  redis.call('ZADD', KEYS[1], now + hold, 'p:' .. ARGV[3])
  redis.call('PEXPIRE', KEYS[1], (window + hold) * 2)
  if KEYS[2] then listExpiring(KEYS[2], KEYS[1], (window + hold) * 3) end
  return -1
end
local opens = {}
for i = 1, #held, 2 do
  local bound = tonumber(held[i + 1])
  local at = bound + window
  if string.sub(held[i], 1, 2) == 'p:' then at = math.min(at, math.max(bound - hold + margin + window, now + poll)) end
  opens[#opens + 1] = at
end
table.sort(opens)
return math.max(1, opens[count - limit + 1] - now)`;

// KEYS[1] the set; ARGV: id, hold, ms from before the slot was asked for to the end of the call (on the caller's
// clock) plus the margin, the set's lifetime (renewed: the ZREM of its last member may have deleted it).
const FINISHED = `
local bound = redis.call('ZSCORE', KEYS[1], 'p:' .. ARGV[1])
if not bound then return 0 end
bound = tonumber(bound)
redis.call('ZREM', KEYS[1], 'p:' .. ARGV[1])
redis.call('ZADD', KEYS[1], math.min(bound, bound - tonumber(ARGV[2]) + tonumber(ARGV[3])), 'o:' .. ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

/** A Pacer shared by every replica through Redis, timed by Redis's clock: the bound holds however many replicas send. */
export function redisPacer(
  redis: Pick<GatewayRedis, 'commands' | 'key'>,
  { callsPerSecond, marginMs }: PacingOptions,
  // Platform mode: one merchant's own (its account at the service has its own rate), under its hash tag.
  key = redis.key('payout-batches', 'pacing'),
  // The merchant's index of expiring keys (same hash tag): the purge finds the pacer's set there.
  index?: string,
): Pacer {
  const keys: [number, ...string[]] = index ? [2, key, index] : [1, key];
  const ttl = String((WINDOW_MS + HOLD_MS) * 2);
  return {
    async tryTake() {
      const id = randomUUID();
      // Taken before the request: the grant (Redis's TIME in the script) is later, so grant + elapsed is past the end.
      const asked = performance.now();
      const args = [String(WINDOW_MS), String(callsPerSecond), id, String(marginMs), String(POLL_MS), String(HOLD_MS)];
      const wait = Number(await orUnavailable(() => redis.commands.eval(TAKE, ...keys, ...args)));
      if (wait >= 0) return { waitMs: wait };
      return {
        slot: {
          async finished() {
            // +1: Redis's TIME is cut to the millisecond, so the grant may be up to 1 ms before the real moment.
            const elapsed = Math.ceil(performance.now() - asked) + 1;
            await orUnavailable(() => redis.commands.eval(FINISHED, 1, key, id, String(HOLD_MS), String(elapsed + marginMs), ttl));
          },
        },
      };
    },
  };
}
