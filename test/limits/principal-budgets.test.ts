// Rate-limit budgets by kind of caller, with the defaults: a staff or server token's
// subject is a merchant's back office or checkout server acting for every customer (a
// busy shop's hour is hundreds of charges through one subject), a client address is one
// customer. One staff subject makes 300 charges within a minute; one client address is
// still held to 30 money moves a minute, as before.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { TestStack } from '../helpers/gateway.js';
import { postDocument, quietStack } from '../security/support.js';

const DEFAULTS = {
  RATE_LIMIT_PER_MINUTE: '',
  RATE_LIMIT_MONEY_PER_MINUTE: '',
  RATE_LIMIT_STAFF_PER_MINUTE: '',
  RATE_LIMIT_STAFF_MONEY_PER_MINUTE: '',
};
const CHARGES = 300;
const CREATE_CHARGE = `mutation ($input: CreateChargeInput!) {
  createCharge(input: $input) { __typename ... on CreateChargePayload { reference clientToken } }
}`;
const SUBMIT_OTP = `mutation ($input: SubmitChargeOtpInput!) { submitChargeOtp(input: $input) { __typename } }`;

let stack: TestStack;
beforeAll(async () => {
  // Blank values are unset: the defaults, not the test helper's generous numbers.
  stack = await quietStack({ env: DEFAULTS });
});
afterAll(async () => stack?.close());

const charge = async (phone = '76000000', provider = 'OPA_BF') => {
  const input = { amount: 1_000, phone, provider, idempotencyKey: randomUUID() };
  const res = await postDocument(stack, { query: CREATE_CHARGE, variables: { input } });
  return res.body.data?.createCharge as { __typename: string; reference: string; clientToken: string };
};

it('has per-kind defaults: generous per staff subject, as tight as before per client address', () => {
  const { limits } = loadConfig({ ...DEFAULTS });
  expect(limits).toMatchObject({ rateLimitPerMinute: 600, rateLimitMoneyPerMinute: 30 });
  expect(limits.rateLimitStaffMoneyPerMinute).toBeGreaterThanOrEqual(CHARGES);
});

it(`lets one staff subject make ${CHARGES} charges within a minute`, async () => {
  const outcomes: string[] = [];
  // Ten at a time, as a checkout server's workers would.
  for (let i = 0; i < CHARGES; i += 10)
    outcomes.push(...(await Promise.all(Array.from({ length: 10 }, () => charge()))).map((c) => c.__typename));
  expect(outcomes.filter((t) => t !== 'CreateChargePayload')).toEqual([]);
  expect(stack.sandbox.requests.count({ method: 'POST', path: '/v1/payment/charges/' })).toBe(CHARGES);
}, 60_000);

it('still holds one client address to 30 money moves a minute', async () => {
  // OPC_BF asks the customer for an OTP: the customer's page submits it with the charge's client token.
  const own = await charge('58000000', 'OPC_BF');
  const outcomes: string[] = [];
  for (let i = 0; i < 31; i++) {
    const res = await postDocument(
      stack,
      { query: SUBMIT_OTP, variables: { input: { chargeReference: own.reference, otp: '000000' } } },
      { authorization: `Bearer ${own.clientToken}` },
    );
    outcomes.push((res.body.data?.submitChargeOtp as { __typename: string }).__typename);
  }
  expect(outcomes.slice(0, 30)).not.toContain('RateLimitedError');
  expect(outcomes[30]).toBe('RateLimitedError');
}, 60_000);
