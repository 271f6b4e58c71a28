// The generation of the gateway's Redis data set, so that the stores built on it
// (idempotency keys, the event log) know when Redis forgot.
//
// One hash, `<namespace>:epoch`, written once when the data set is created:
// - id      a random generation id. A Redis restarted empty (or whose keys were
//           evicted) has no hash, or one with another id: every process that
//           had seen the old id then knows that Redis lost its memory;
// - since   since when the memory has been continuous (reset by a restart, even
//           one that reloaded a snapshot that may lack recent writes: run_id);
// - lostAt  when a loss was detected (a process that knew another id, or the
//           eviction watch). An operator who has checked the service's lists may
//           clear it: `HDEL <namespace>:epoch lostAt`.
//
// The hash is read and, when needed, written in the same script as the command
// it guards (EPOCH_LUA is a prefix of those scripts), so no command runs
// against a generation it has not checked.
import { randomUUID } from 'node:crypto';
import type { GatewayRedis } from './connections.js';

export interface EpochState {
  /** The generation id. */
  id: string;
  /** Epoch ms since when the memory has been continuous. */
  since: number;
  /** Epoch ms of the last detected loss, or null. */
  lostAt: number | null;
}

/**
 * Lua defining `epoch(key, now, known, fresh, forget)`: returns {id, since, lostAt or ''}. `known` is the
 * id this process saw last ('' none); `fresh` a new id in case one is needed; `forget` '1' to record a
 * loss (evictions) and start a new generation.
 */
export const EPOCH_LUA = `
local function epoch(key, now, known, fresh, forget)
  local runId = string.match(redis.call('INFO', 'server'), 'run_id:(%w+)') or ''
  local e = redis.call('HMGET', key, 'id', 'since', 'lostAt', 'runId')
  local id, since, lost, run = e[1], e[2], e[3], e[4]
  if not id then
    id, since, run = fresh, now, runId
    if known ~= '' then lost = now end
    redis.call('HSET', key, 'id', id, 'since', since, 'runId', run)
    if lost then redis.call('HSET', key, 'lostAt', lost) end
  elseif forget == '1' then
    id, since, lost = fresh, now, now
    redis.call('HSET', key, 'id', id, 'since', since, 'lostAt', lost, 'runId', runId)
  else
    if run ~= runId then
      since = now
      redis.call('HSET', key, 'since', since, 'runId', runId)
    end
    if known ~= '' and known ~= id and not lost then
      lost = now
      redis.call('HSET', key, 'lostAt', lost)
    end
  end
  return {id, since, lost or ''}
end
`;

/**
 * Lua defining `newEpoch(key, fresh)`: the generation of a data set that cannot hold anything from before this
 * moment (a merchant's keys, written with the merchant), continuous from the start (`since` 0), so that its first
 * claims are clean and need no lookup at the service. Does nothing if the generation exists. Redis's run_id is
 * recorded as `epoch` records it: a restart still resets `since`, and a data set lost later is still detected.
 */
export const NEW_EPOCH_LUA = `
local function newEpoch(key, fresh)
  if redis.call('EXISTS', key) == 1 then return end
  local runId = string.match(redis.call('INFO', 'server'), 'run_id:(%w+)') or ''
  redis.call('HSET', key, 'id', fresh, 'since', 0, 'runId', runId)
end
`;

/**
 * This process's view of the Redis data set's generation: since when its memory is continuous, and when it lost
 * keys.
 */
export interface RedisEpoch {
  /** The epoch hash's key (KEYS[n] of the scripts that embed EPOCH_LUA). */
  readonly key: string;
  /** ARGV for `epoch(...)`: known id, a fresh id, forget flag (after `now`). */
  args(forget?: boolean): [known: string, fresh: string, forget: string];
  /** Records what a script returned; the state it means. */
  observe(reply: [string, string | number, string | number]): EpochState;
  /** The last state seen (null before the first check). */
  readonly current: EpochState | null;
  /** Reads (and creates, or marks lost) the epoch on its own. `forget`: record a loss now (keys were evicted). */
  check(now: number, forget?: boolean): Promise<EpochState>;
}

const CHECK_SCRIPT = `${EPOCH_LUA}
return epoch(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])`;

/** One per process and Redis: shared by the idempotency store and the event log, so both agree on the generation. */
export function redisEpoch(
  redis: Pick<GatewayRedis, 'commands' | 'key'>,
  // Platform mode on a Cluster: one merchant's own, in its keys' slot (src/idempotency/store.ts).
  key = redis.key('epoch'),
): RedisEpoch {
  let current: EpochState | null = null;
  const epoch: RedisEpoch = {
    key,
    get current() {
      return current;
    },
    args: (forget = false) => [current?.id ?? '', randomUUID().replaceAll('-', '').slice(0, 16), forget ? '1' : '0'],
    observe([id, since, lost]) {
      current = { id, since: Number(since), lostAt: lost === '' ? null : Number(lost) };
      return current;
    },
    async check(now, forget = false) {
      const reply = (await redis.commands.eval(CHECK_SCRIPT, 1, key, String(now), ...epoch.args(forget))) as [string, string, string];
      return epoch.observe(reply);
    },
  };
  return epoch;
}
