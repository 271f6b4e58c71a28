// One replica of a deployment: a gateway started against the deployment's sandbox, with its API key,
// webhook secret and Redis namespace, as several replicas behind one load balancer share them. The suites
// that run several replicas in this process start each one here (test/live/replicas.test.ts, resume.test.ts).
import type { Sandbox } from '../../src/sandbox/index.js';
import { REDIS_URL } from '../events/redis-helpers.js';
import { startStack, type TestStack } from './gateway.js';

export interface Deployment {
  sandbox: Sandbox;
  apiKey: string;
  webhookSecret: string;
  redisNamespace: string;
}

/** A gateway of `deployment` on the shared Redis, with the extra settings `env` (on top of REDIS_URL). */
export function startReplica(deployment: Deployment, env: Record<string, string> = {}): Promise<TestStack> {
  return startStack({
    sharedSandbox: deployment.sandbox,
    apiKey: deployment.apiKey,
    webhookSecret: deployment.webhookSecret,
    redisNamespace: deployment.redisNamespace,
    env: { REDIS_URL, ...env },
  });
}
