// What every benchmark starts: recorded answers of the sandbox, a stub of the payment
// service serving them, and the gateway built and started as in production (live mode,
// authentication, limits, rate limits, logs, metrics, Redis), each in its own process.
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { SCOPES, mintStaffToken } from '../../src/auth/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { StubFixtures } from '../stub-service.js';
import { startChild, type Child } from './processes.js';

export const ROOT = new URL('../..', import.meta.url).pathname;
export const TSX_LOADER = join(ROOT, 'node_modules/tsx/dist/loader.mjs');

/** A full charge, a page of 50 checkouts each with a charge, and the balances, as the sandbox answers them. */
export async function recordFixtures(): Promise<StubFixtures> {
  const sandbox = await startSandbox({ port: 0 });
  const key = `sk_test_bench_${randomBytes(6).toString('hex')}`;
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await request(`${sandbox.url}${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.body.json()) as Record<string, unknown> & { data: Record<string, unknown> };
  };
  try {
    const created = await call('POST', '/v1/payment/charges/', {
      amount: 1500,
      payment_method_details: { phone: '70000000', provider: 'opb_bf' },
    });
    const charge = await call('GET', `/v1/payment/charges/${created.data.reference as string}`);
    for (let i = 0; i < 50; i++) {
      const checkout = await call('POST', '/v1/payment/checkouts/initialize/', {
        amount: 500 + i,
        success_url: 'https://shop.example/ok',
        cancel_url: 'https://shop.example/no',
      });
      const page = await request(`${checkout.data.authorization_url as string}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ provider: 'opb_bf', phone: '70000000' }).toString(),
      });
      await page.body.text();
    }
    const checkouts = await call('GET', '/v1/payment/checkouts?page=1&page_size=50');
    const charges = await call('GET', '/v1/payment/charges?page=1&page_size=100');
    const balances = await call('GET', '/v1/payment/balances');
    return { charge, charges, checkouts, balances };
  } finally {
    await sandbox.close();
  }
}

export async function startGatewayProcess(
  stubUrl: string,
  jwtSecret: string,
  env: Record<string, string> = {},
  /** The Node binary the gateway runs on (bench/lib/runtimes.ts). */
  node = process.execPath,
): Promise<Child> {
  // BENCH_PROFILE=<dir>: the gateway writes a CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  // BENCH_GATEWAY_FLAGS='--trace-gc': more node flags for the gateway; BENCH_GATEWAY_LOG=<file>: its output, kept.
  const flags = (process.env.BENCH_GATEWAY_FLAGS ?? '').split(' ').filter(Boolean);
  const child = await startChild(node, [...profile, ...flags, join(ROOT, 'dist/bundle/main.mjs')], {
    label: 'gateway',
    ready: /GraphQL gateway ready: (\S+)/,
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      PAYMENT_BASE_URL: stubUrl,
      PAYMENT_API_KEY: `sk_live_bench_${randomBytes(8).toString('hex')}`,
      WEBHOOK_SECRET: randomBytes(24).toString('hex'),
      AUTH_JWT_SECRET: jwtSecret,
      REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      METRICS_TOKEN: randomBytes(16).toString('hex'),
      LOG_LEVEL: 'info',
      // On, as in production, with ceilings one benchmark client does not reach: their cost is measured, not their refusals.
      RATE_LIMIT_PER_MINUTE: '100000000',
      RATE_LIMIT_MONEY_PER_MINUTE: '100000000',
      RATE_LIMIT_STAFF_PER_MINUTE: '100000000',
      RATE_LIMIT_STAFF_MONEY_PER_MINUTE: '100000000',
      ...env,
      // For experiments: BENCH_GATEWAY_ENV='{"LOG_LEVEL":"warn"}' changes the gateway's configuration.
      ...(JSON.parse(process.env.BENCH_GATEWAY_ENV ?? '{}') as Record<string, string>),
    },
  });
  if (process.env.BENCH_GATEWAY_LOG) child.process.stdout!.pipe(createWriteStream(process.env.BENCH_GATEWAY_LOG));
  return child;
}

export const stubStats = async (stubUrl: string) =>
  (await (await request(`${stubUrl}/_stub/stats`)).body.json()) as {
    total: number;
    byRoute: Record<string, number>;
    spans: Array<[number, number]>;
  };
export const resetStub = async (stubUrl: string, delayMs = 0) =>
  void (await (await request(`${stubUrl}/_stub/reset?delay_ms=${delayMs}`)).body.text());

export interface BenchStack {
  stubUrl: string;
  graphqlUrl: string;
  gateway: Child;
  jwtSecret: string;
  /** A staff token with every scope. */
  token: string;
  stop(): Promise<void>;
}

export async function startBenchStack(gatewayEnv: Record<string, string> = {}): Promise<BenchStack> {
  if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const fixturesFile = join(mkdtempSync(join(tmpdir(), 'bench-')), 'fixtures.json');
  writeFileSync(fixturesFile, JSON.stringify(await recordFixtures()));
  const stub = await startChild(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'bench/stub-service.ts'), fixturesFile], {
    label: 'stub',
    ready: /STUB READY (\S+)/,
  });
  const jwtSecret = randomBytes(32).toString('hex');
  const gateway = await startGatewayProcess(stub.ready[1]!, jwtSecret, gatewayEnv).catch(async (err: unknown) => {
    await stub.stop();
    throw err;
  });
  const { token } = await mintStaffToken({ secret: jwtSecret, scopes: SCOPES, subject: 'bench', ttlSeconds: 6 * 3600 });
  return {
    stubUrl: stub.ready[1]!,
    graphqlUrl: gateway.ready[1]!,
    gateway,
    jwtSecret,
    token,
    stop: async () => {
      await gateway.stop();
      await stub.stop();
    },
  };
}
