// What the copy into the merchants' event logs costs (src/outbound-webhooks/merchant-log-router.ts) with 1 and with 3
// routers (one per replica), per 1,000 events: the routers' CPU (this process, less the same run without a router),
// Redis's commands and Redis's CPU. On a Redis of its own (a redis-server this bench starts on a free port), so that
// Redis's counts are the routers' and the appender's only. Events are appended in small batches, as a live log grows.
// Goal: 3 routers cost about what 1 costs (the copy's work does not grow with the replicas). Prints figures; asserts
// nothing.
//
//   npx tsx bench/merchant-log-router.ts        (needs redis-server on PATH)
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { silentLogger } from '../src/logger.js';
import { startMerchantLogRouter } from '../src/outbound-webhooks/merchant-log-router.js';
import { merchantLogKey } from '../src/outbound-webhooks/redis-keys.js';
import { connectRedis, merchantTag, type GatewayRedis } from '../src/redis/index.js';

const EVENTS = Number(process.env.BENCH_ROUTER_EVENTS ?? 1_000);
const MERCHANTS = 10;
const BATCH = 10;
const ROUNDS = Number(process.env.BENCH_ROUTER_ROUNDS ?? 3);

const port = await freePort();
const server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
await new Promise((resolve) => setTimeout(resolve, 300));
const redis = await connectRedis({ url: `redis://127.0.0.1:${port}`, namespace: 'bench-router' });
const logKey = redis.key('events', 'log');
const merchants = Array.from({ length: MERCHANTS }, (_, i) => `mer_${String(i).padStart(20, '0')}`);

/** Redis's counters: commands processed, and its CPU (ms). */
async function redisCounters(): Promise<{ commands: number; cpuMs: number }> {
  const info = String(await redis.commands.info());
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return { commands: field('total_commands_processed'), cpuMs: (field('used_cpu_user') + field('used_cpu_sys')) * 1000 };
}

/** One run: `routers` routers running while EVENTS events are appended, until the fleet's cursor reached the last (0: the appending alone). */
async function run(routers: number): Promise<{ cpuMs: number; commands: number; redisCpuMs: number }> {
  await redis.commands.flushall();
  for (const m of merchants) await redis.commands.xgroup('CREATE', merchantLogKey(redis, merchantTag(m)), 'g', '$', 'MKSTREAM');
  await redis.commands.xadd(logKey, '*', 'e', JSON.stringify({ id: 'start', kind: 'x' }), 'g', 'gen');
  const running = Array.from({ length: routers }, () => startRouter(redis));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const cpu = process.cpuUsage();
  const before = await redisCounters();
  for (let n = 0; n < EVENTS; n += BATCH) {
    const pipeline = redis.commands.pipeline();
    for (let i = n; i < n + BATCH; i++) {
      const record = { id: `evt_${i}`, kind: 'charge.success', receivedAt: new Date().toISOString(), merchantId: merchants[i % MERCHANTS] };
      pipeline.xadd(logKey, '*', 'e', JSON.stringify(record), 'g', 'gen');
    }
    await pipeline.exec();
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const [last] = (await redis.commands.xrevrange(logKey, '+', '-', 'COUNT', 1)) as Array<[string, string[]]>;
  while (routers > 0 && (await redis.commands.get(redis.key('webhooks', 'merchant-log-router'))) !== last![0]) await sleep(5);
  // The other routers finish their own reading of the same events (without a lease, each one reads them all).
  await sleep(1_000);
  const used = process.cpuUsage(cpu);
  const after = await redisCounters();
  await Promise.all(running.map((r) => r.stop()));
  let copied = 0;
  for (const m of merchants) copied += await redis.commands.xlen(merchantLogKey(redis, merchantTag(m)));
  if (routers > 0 && copied !== EVENTS) throw new Error(`copied ${copied} of ${EVENTS}`);
  return { cpuMs: (used.user + used.system) / 1000, commands: after.commands - before.commands, redisCpuMs: after.cpuMs - before.cpuMs };
}

function startRouter(gateway: GatewayRedis) {
  return startMerchantLogRouter({
    redis: gateway,
    logKey,
    merchantLog: (id) => merchantLogKey(gateway, merchantTag(id)),
    retentionMs: 3_600_000,
    routed: () => {},
    log: silentLogger,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  const results = new Map<number, Array<{ cpuMs: number; commands: number; redisCpuMs: number }>>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const routers of [0, 1, 3]) results.set(routers, [...(results.get(routers) ?? []), await run(routers)]);
  }
  const figure = (routers: number) => {
    const rs = results.get(routers)!;
    return {
      cpuMs: median(rs.map((r) => r.cpuMs)),
      commands: median(rs.map((r) => r.commands)),
      redisCpuMs: median(rs.map((r) => r.redisCpuMs)),
    };
  };
  const base = figure(0);
  const per = (x: number) => ((x * 1_000) / EVENTS).toFixed(0);
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${EVENTS} events over ${MERCHANTS} merchants, median of ${ROUNDS} rounds`,
  );
  console.log('| routers | routers’ CPU per 1,000 events | Redis commands per 1,000 events | Redis CPU per 1,000 events |');
  console.log('|---|---|---|---|');
  for (const routers of [1, 3]) {
    const f = figure(routers);
    console.log(
      `| ${routers} | ${per(f.cpuMs - base.cpuMs)} ms | ${per(f.commands - base.commands)} | ${per(f.redisCpuMs - base.redisCpuMs)} ms |`,
    );
  }
  const one = figure(1);
  const three = figure(3);
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  console.log(
    `3 routers against 1 (goal: about 1.0): CPU ×${ratio(three.cpuMs - base.cpuMs, one.cpuMs - base.cpuMs)}, ` +
      `Redis commands ×${ratio(three.commands - base.commands, one.commands - base.commands)}, ` +
      `Redis CPU ×${ratio(three.redisCpuMs - base.redisCpuMs, one.redisCpuMs - base.redisCpuMs)}`,
  );
} finally {
  await redis.close();
  server.kill();
}
