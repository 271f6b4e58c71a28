// `npm start` with MERCHANT_MODE=platform, as a newcomer runs it (src/main.ts in its own process, the embedded
// sandbox): two demo merchants, an operator token and one staff token per merchant, kept across a restart in
// SANDBOX_DATA_DIR with their secrets sealed.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { post, GRAPHQL_ACCEPT } from '../helpers/http.js';
import { startAsNpmStart } from '../helpers/npm-start.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'platform-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const gql = async (url: string, authorization: string, query: string, headers: Record<string, string> = {}) => {
  const { raw } = await post(url, { query }, { accept: GRAPHQL_ACCEPT, authorization, ...headers });
  return JSON.parse(raw) as { data?: Record<string, any>; errors?: Array<{ extensions?: Record<string, unknown> }> }; // eslint-disable-line @typescript-eslint/no-explicit-any
};

function printed(output: string) {
  const operator = /Operator token .*?: Authorization: (Bearer \S+)/.exec(output)![1]!;
  const merchants = [...output.matchAll(/Merchant (mer_[0-9a-f]{20}) "[^"]+": staff token .*?: Authorization: (Bearer \S+)/g)].map((m) => ({
    id: m[1]!,
    authorization: m[2]!,
  }));
  return { operator, merchants };
}

it('creates two demo merchants with their tokens, keeps them across a restart, and no secret in clear', async () => {
  const env = { MERCHANT_MODE: 'platform', SANDBOX_DATA_DIR: dataDir };
  const first = await startAsNpmStart(env);
  let ids: string[];
  try {
    const { operator, merchants } = printed(first.output());
    expect(merchants).toHaveLength(2);
    ids = merchants.map((m) => m.id);
    const listed = await gql(first.graphqlUrl, operator, '{ merchants(first: 10) { edges { node { merchantId status } } } }');
    expect(listed.data!.merchants.edges.map((e: { node: { merchantId: string } }) => e.node.merchantId)).toEqual(ids);
    // Each staff token works for its own merchant; the operator names one.
    for (const m of merchants)
      expect((await gql(first.graphqlUrl, m.authorization, '{ balance { currency } }')).data).toEqual({ balance: { currency: 'XOF' } });
    expect((await gql(first.graphqlUrl, operator, '{ balance { currency } }', { 'x-merchant-id': ids[1]! })).data).toEqual({
      balance: { currency: 'XOF' },
    });
  } finally {
    await first.stop();
  }
  const file = readFileSync(path.join(dataDir, 'merchants.json'), 'utf8');
  expect(file).toContain(ids[0]);
  expect(file).not.toMatch(/sk_test_demo_|whsec_/);
  expect(statSync(path.join(dataDir, 'merchant-kek')).mode & 0o777).toBe(0o600);
  expect(statSync(path.join(dataDir, 'merchants.json')).mode & 0o777).toBe(0o600);

  const second = await startAsNpmStart(env);
  try {
    const { merchants } = printed(second.output());
    expect(merchants.map((m) => m.id)).toEqual(ids);
    expect((await gql(second.graphqlUrl, merchants[0]!.authorization, '{ balance { currency } }')).data).toEqual({
      balance: { currency: 'XOF' },
    });
  } finally {
    await second.stop();
  }
}, 90_000);
