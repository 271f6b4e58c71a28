// What the abuse tests share: a stack whose only upstream traffic is what the
// test itself causes (the readiness probe's first call is waited for and
// cleared), and raw GraphQL requests (the abuses are documents no typed client
// would write).
import { GRAPHQL_ACCEPT, post as httpPost } from '../helpers/http.js';
import { startStack, type StackOptions, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';

export type RawResult = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: {
    data?: Record<string, unknown> | null;
    errors?: Array<{ message: string; path?: unknown[]; extensions?: Record<string, unknown> }>;
  };
  raw: string;
};

/** Every call the gateway made to the sandbox's payment API since the last clear. */
export const upstreamCalls = (stack: TestStack, path?: string | RegExp, method?: string): number =>
  stack.sandbox.requests.count({ path: path ?? /^\/v1\//, method });

export const transfersPosted = (stack: TestStack): number => upstreamCalls(stack, /^\/v1\/payment\/transfers/, 'POST');

export async function quietStack(options: StackOptions = {}): Promise<TestStack> {
  const stack = await startStack({ ...options, env: { HEALTH_PROBE_MS: '3600000', ...options.env } });
  await waitFor(() => upstreamCalls(stack, '/v1/payment/balances') >= 1, "the readiness probe's first call");
  stack.sandbox.requests.clear();
  return stack;
}

export async function postDocument(
  stack: TestStack,
  body: string | Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<RawResult> {
  const res = await httpPost(stack.gateway.graphqlUrl, body, {
    accept: GRAPHQL_ACCEPT,
    authorization: `Bearer ${stack.staffToken}`,
    ...headers,
  });
  let parsed: RawResult['body'] = {};
  try {
    parsed = JSON.parse(res.raw) as RawResult['body'];
  } catch {
    parsed = {};
  }
  return { ...res, body: parsed };
}

export const codes = (r: RawResult): unknown[] => (r.body.errors ?? []).map((e) => e.extensions?.code);

export const TRANSFER_INPUT = (key: string, phone = '70000000') => `{ amount: 500, recipientPhone: "${phone}", idempotencyKey: "${key}" }`;

export const TRANSFER_SELECTION = '{ __typename ... on CreateTransferPayload { transfer { reference } } ... on PaymentError { code } }';
