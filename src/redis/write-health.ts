// Whether Redis can be trusted with the gateway's writes right now, checked by
// the readiness probe (src/health/readiness.ts) at every interval:
// - it takes a write (a key with a short expiry): a Redis out of memory under
//   `noeviction`, or a read-only replica, refuses every payment and webhook;
// - it does not evict: a `maxmemory-policy` switched at run time to an evicting
//   one, or `evicted_keys` growing, means idempotency keys may be (or were)
//   dropped. Evictions are recorded as a loss in the epoch (src/redis/epoch.ts),
//   so every replica treats keys claimed before as possibly forgotten; while the
//   policy evicts, money-moving mutations are refused (`problem`).
// INFO rather than CONFIG GET: managed Redis services often disable CONFIG.
import type { Logger } from '../logger.js';
import type { GatewayRedis } from './connections.js';
import type { RedisEpoch } from './epoch.js';

export type RedisWriteState = 'ok' | 'refuses_writes' | 'evicting';

/** Whether Redis takes writes without evicting keys, as the readiness probe last saw it. */
export interface RedisWriteHealth {
  /** One check: a write, the policy and the eviction counter. Rejects when Redis cannot be reached. */
  check(): Promise<RedisWriteState>;
  /** Why keys cannot be trusted to stay (an evicting policy, evictions seen at the last check), or null. */
  readonly problem: string | null;
}

interface RedisWriteHealthOptions {
  redis: Pick<GatewayRedis, 'commands' | 'key'>;
  epoch: RedisEpoch;
  log: Logger;
  now?: () => number;
}

/** The probe of Redis's writes and evictions behind readiness; a loss of keys it sees is recorded in the epoch. */
export function redisWriteHealth({ redis, epoch, log, now = Date.now }: RedisWriteHealthOptions): RedisWriteHealth {
  const client = redis.commands;
  const probeKey = redis.key('ready-probe');
  let lastEvicted: number | null = null;
  let problem: string | null = null;

  /** What the counters say about evictions (and records them as a loss), or null. */
  const evictionProblem = async (memory: string, stats: string): Promise<string | null> => {
    const policy = infoField(memory, 'maxmemory_policy') ?? 'unknown';
    const evicted = Number(infoField(stats, 'evicted_keys') ?? 0);
    // Only growth since the last look counts. The counter restarts from 0 with the server (or CONFIG RESETSTAT):
    // one below the last look has restarted, and everything it counts since is new.
    const grew = lastEvicted !== null && evicted > (evicted < lastEvicted ? 0 : lastEvicted);
    if (grew) {
      // Recorded before the counter is taken as seen: a record Redis refused (full, down) is written at the next check.
      await epoch.check(now(), true);
      lastEvicted = evicted;
      return `Redis evicted keys (maxmemory-policy ${policy})`;
    }
    lastEvicted = evicted;
    if (policy !== 'noeviction') return `Redis maxmemory-policy is ${policy}: keys may be evicted`;
    return null;
  };

  return {
    get problem() {
      return problem;
    },
    async check() {
      // One round trip: the readiness probe bounds the whole check by its interval.
      type Reply = [Error | null, string];
      const replies = await client.pipeline().info('memory').info('stats').set(probeKey, String(now()), 'PX', 60_000).exec();
      const [[memoryError, memory], [statsError, stats], [writeError]] = replies as unknown as [Reply, Reply, Reply];
      if (memoryError || statsError) throw memoryError ?? statsError;
      const next = await evictionProblem(memory, stats);
      if (next !== problem) {
        if (next) log.error('Redis cannot be trusted with idempotency keys: money-moving mutations are refused', { reason: next });
        else log.info('Redis keeps its keys again (maxmemory-policy noeviction, no new evictions)');
      }
      problem = next;
      if (problem) return 'evicting';
      if (writeError) {
        // OOM (full under noeviction), READONLY (a replica), MISCONF (snapshots failing): writes are refused.
        if (/^(OOM|READONLY|MISCONF|NOREPLICAS)/.test(writeError.message)) return 'refuses_writes';
        throw writeError;
      }
      return 'ok';
    },
  };
}

function infoField(text: string, name: string): string | null {
  const match = new RegExp(`^${name}:(.*)$`, 'm').exec(text);
  return match ? match[1]!.trim() : null;
}
