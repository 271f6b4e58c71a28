// Platform mode's metric by merchant, scraped from GET /metrics: gateway_merchant_operations_total counts each
// merchant's operations by outcome, and its merchant label has at most MERCHANT_LABELS_MAX values (the first
// merchants seen; the others are counted as `other`), however many merchants the platform has.
import { randomUUID } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintStaffToken } from '../../src/auth/index.js';
import { MERCHANT_LABELS_MAX } from '../../src/observability/metrics.js';
import { uniqueNamespace } from '../events/redis-helpers.js';
import { testKey, type TestStack } from '../helpers/gateway.js';
import { closePlatformStack, startPlatformStack } from '../helpers/platform.js';

const METRICS_TOKEN = `metrics-${randomUUID()}`;
const namespace = uniqueNamespace('merchant-metrics');
let stack: TestStack;

beforeAll(async () => {
  stack = await startPlatformStack(namespace, { env: { METRICS_TOKEN } });
}, 30_000);
afterAll(() => closePlatformStack(stack, namespace));

it('counts operations per merchant, with a bounded number of merchant labels', async () => {
  const registry = stack.gateway.merchants!;
  const merchants = [];
  for (let i = 0; i <= MERCHANT_LABELS_MAX; i += 1) {
    merchants.push(await registry.create({ name: `M${i}`, apiKey: testKey(`metrics${i}`), webhookSecret: `whsec-metrics-${i}` }));
  }
  const balance = parse('{ balance { currency } }') as TypedDocumentNode<unknown, Record<string, never>>;
  for (const merchant of merchants) {
    const token = (
      await mintStaffToken({ secret: stack.jwtSecret, scopes: ['payments:read'], subject: 's', ttlSeconds: 600, merchantId: merchant.id })
    ).token;
    expect((await stack.gql(balance, {}, { authorization: `Bearer ${token}` })).errors).toBeUndefined();
  }
  const res = await fetch(`${stack.gateway.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const lines = (await res.text()).split('\n').filter((line) => line.startsWith('gateway_merchant_operations_total{'));
  const labels = lines.map((line) => /merchant="([^"]+)"/.exec(line)![1]!);
  expect(new Set(labels).size).toBe(MERCHANT_LABELS_MAX + 1);
  expect(labels).toContain('other');
  expect(lines).toContain(`gateway_merchant_operations_total{merchant="${merchants[0]!.id}",outcome="success"} 1`);
  expect(lines).toContain('gateway_merchant_operations_total{merchant="other",outcome="success"} 1');
}, 60_000);
