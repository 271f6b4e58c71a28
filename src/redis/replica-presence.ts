// Who this process is to the other replicas, and whether it is still alive. A money claim records its holder
// (src/idempotency/store.ts): a retry on another replica may look up a claim whose holder is gone once the holder's
// call has surely ended, instead of waiting out IDEMPOTENCY_PENDING_TTL_MS.
//
// One hash, `<namespace>:replicas`: field = a replica id, value = until when (Redis's clock, ms) it counts as alive.
// Each replica renews its field every PRESENCE_RENEW_MS; one that dies (SIGKILL, a lost host) stops renewing and is
// gone PRESENCE_LEASE_MS later at most. One hash rather than a key per replica: the claim script reads any holder's
// presence from a key it declares up front (on a Cluster, in the same hash slot as every key of the gateway).
// Renewals are not waited for by replicas (REDIS_MIN_REPLICAS): a presence lost in a failover only makes a live
// holder look gone until its next renewal, and a claim is taken from it only after its call's deadline anyway.
import { randomUUID } from 'node:crypto';
import type { GatewayRedis } from './connections.js';

export const PRESENCE_LEASE_MS = 10_000;
const PRESENCE_RENEW_MS = 2_000;
/** Fields of replicas gone this long are removed by the next renewal. */
const PRUNE_AFTER_MS = 3_600_000;

/** This replica's presence in Redis, renewed while it lives: idempotency claims name it as their holder. */
export interface ReplicaPresence {
  /** This process's replica id (a new one per start). */
  readonly id: string;
  /** The hash every replica's presence is kept in. */
  readonly key: string;
  /** Stops renewing and removes this replica (a clean stop: its calls are over). */
  close(): Promise<void>;
}

// KEYS[1] the hash. ARGV[1] the id, ARGV[2] lease ms, ARGV[3] prune after ms.
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if tonumber(all[i + 1]) < now - tonumber(ARGV[3]) then redis.call('HDEL', KEYS[1], all[i]) end
end
redis.call('HSET', KEYS[1], ARGV[1], now + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]) * 2)
return 1`;

/** Registers this process as alive and keeps it so until close(); the first renewal is done when it resolves. */
export async function startReplicaPresence(
  redis: Pick<GatewayRedis, 'commands' | 'key'>,
  onError: (err: unknown) => void = () => {},
  timing: { leaseMs: number; renewMs: number } = { leaseMs: PRESENCE_LEASE_MS, renewMs: PRESENCE_RENEW_MS },
): Promise<ReplicaPresence> {
  const id = randomUUID();
  const key = redis.key('replicas');
  const renew = () =>
    redis.commands.eval(RENEW, 1, key, id, String(timing.leaseMs), String(PRUNE_AFTER_MS)).then(
      () => {},
      (err: unknown) => onError(err),
    );
  await renew();
  const timer = setInterval(() => void renew(), timing.renewMs);
  timer.unref();
  return {
    id,
    key,
    async close() {
      clearInterval(timer);
      await redis.commands.hdel(key, id).catch(() => {});
    },
  };
}
