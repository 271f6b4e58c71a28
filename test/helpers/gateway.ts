// Starts what the GraphQL tests talk to: the sandbox (a real payment service
// over HTTP) and a gateway configured against it exactly as in production
// (PAYMENT_BASE_URL + PAYMENT_API_KEY), both on free ports.
import { randomBytes } from 'node:crypto';
import { print } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { request } from 'undici';
import { loadConfig } from '../../src/config.js';
import { startGateway, type RunningGateway } from '../../src/gateway.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export interface TestStack {
  sandbox: Sandbox;
  gateway: RunningGateway;
  apiKey: string;
  webhookSecret: string;
  logLines: string[];
  gql<R, V>(doc: TypedDocumentNode<R, V>, variables?: V, headers?: Record<string, string>): Promise<GraphQLResponse<R>>;
  close(): Promise<void>;
}

export interface GraphQLResponse<R> {
  status: number;
  data: R | null | undefined;
  errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, unknown> }>;
  raw: string;
}

export interface StackOptions {
  sandbox?: SandboxOptions;
  env?: Record<string, string>;
  /** Start the gateway against an already running sandbox (several gateways, one service). */
  sharedSandbox?: Sandbox;
  apiKey?: string;
  redisNamespace?: string;
  /** WEBHOOK_SECRET of the gateway; several gateways playing replicas of one deployment share it. Default: random. */
  webhookSecret?: string;
}

export function testKey(label = 'gw'): string {
  return `sk_test_${label}_${randomBytes(8).toString('hex')}`;
}

export async function startStack(options: StackOptions = {}): Promise<TestStack> {
  const sandbox = options.sharedSandbox ?? (await startSandbox({ port: 0, ...options.sandbox }));
  const apiKey = options.apiKey ?? testKey();
  const webhookSecret = options.webhookSecret ?? randomBytes(16).toString('hex');
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PAYMENT_BASE_URL: sandbox.url,
    PAYMENT_API_KEY: apiKey,
    WEBHOOK_SECRET: webhookSecret,
    LOG_LEVEL: 'debug',
    ...options.env,
  });
  const logLines: string[] = [];
  const log: Logger = createLogger('debug', { write: (line) => logLines.push(line) });
  const gateway = await startGateway(config, log, { redisNamespace: options.redisNamespace });
  return {
    sandbox,
    gateway,
    apiKey,
    webhookSecret,
    logLines,
    gql: (doc, variables, headers) => postGraphQL(gateway.graphqlUrl, doc, variables, headers),
    close: async () => {
      await gateway.close();
      if (!options.sharedSandbox) await sandbox.close();
    },
  };
}

export async function postGraphQL<R, V>(
  url: string,
  doc: TypedDocumentNode<R, V>,
  variables?: V,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse<R>> {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headers },
    body: JSON.stringify({ query: print(doc), variables }),
  });
  const raw = await res.body.text();
  const parsed = JSON.parse(raw) as { data?: R | null; errors?: GraphQLResponse<R>['errors'] };
  return { status: res.statusCode, data: parsed.data, errors: parsed.errors, raw };
}
