// The stub's answers for the capacity bench: what bench/lib/stack.ts records (a charge, lists, balances) plus
// the sandbox's answers to a new charge and a new transfer, so money mutations run against the fast stub too.
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { startSandbox } from '../../src/sandbox/index.js';
import type { StubFixtures } from '../stub-service.js';
import { recordFixtures } from '../lib/stack.js';

export async function recordCapacityFixtures(): Promise<StubFixtures> {
  const base = await recordFixtures();
  const sandbox = await startSandbox({ port: 0 });
  const key = `sk_test_bench_${randomBytes(6).toString('hex')}`;
  const post = async (path: string, body: unknown) => {
    const res = await request(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.body.json()) as Record<string, unknown>;
    if (res.statusCode !== 201) throw new Error(`sandbox answered ${res.statusCode} to ${path}: ${JSON.stringify(answer)}`);
    return answer;
  };
  try {
    const charge = await post('/v1/payment/charges/', { amount: 1500, payment_method_details: { phone: '70000000', provider: 'opb_bf' } });
    const transfer = await post('/v1/payment/transfers/', { amount: 100, recipient_phone: '70000001', recipient_wallet: 'opb_bf' });
    return { ...base, created: { charge, transfer } };
  } finally {
    await sandbox.close();
  }
}
