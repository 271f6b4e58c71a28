// R replicas of the built gateway (as `npm start` runs it in production, through bench/lib/stack.ts), each in
// its own process, all on the bench's Redis and one upstream (the fast stub, or the sandbox for payout batches).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCOPES, mintStaffToken } from '../../src/auth/index.js';
import { startChild, type Child } from '../lib/processes.js';
import { ROOT, TSX_LOADER, startGatewayProcess } from '../lib/stack.js';
import type { StubFixtures } from '../stub-service.js';

export const WEBHOOK_PATH = '/webhooks/payment';

export interface Fleet {
  /** Each replica's /graphql URL. */
  readonly urls: string[];
  readonly replicas: Child[];
  readonly token: string;
  readonly webhookSecret: string;
  stop(): Promise<void>;
}

export async function startStub(fixtures: StubFixtures): Promise<Child> {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-capacity-')), 'fixtures.json');
  writeFileSync(file, JSON.stringify(fixtures));
  return startChild(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'bench/stub-service.ts'), file], {
    label: 'stub',
    ready: /STUB READY (\S+)/,
  });
}

/** Starts `count` replicas one after the other (a burst of starts on two cores measures the start, not the fleet). */
export async function startFleet(
  count: number,
  upstreamUrl: string,
  redisEnv: Record<string, string>,
  env: Record<string, string> = {},
): Promise<Fleet> {
  const jwtSecret = randomBytes(32).toString('hex');
  const webhookSecret = env.WEBHOOK_SECRET ?? randomBytes(24).toString('hex');
  const replicas: Child[] = [];
  const stop = async () => void (await Promise.all(replicas.map((r) => r.stop())));
  try {
    for (let i = 0; i < count; i++) {
      replicas.push(
        await startGatewayProcess(upstreamUrl, jwtSecret, {
          ...redisEnv,
          WEBHOOK_SECRET: webhookSecret,
          WEBHOOK_PATH,
          // Subscribers of the fan-out row share one address and one token.
          WS_MAX_CONNECTIONS_PER_IP: '10000',
          ...env,
        }),
      );
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const { token } = await mintStaffToken({ secret: jwtSecret, scopes: SCOPES, subject: 'bench', ttlSeconds: 6 * 3600 });
  return { urls: replicas.map((r) => r.ready[1]!), replicas, token, webhookSecret, stop };
}
