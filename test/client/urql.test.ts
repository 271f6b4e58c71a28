// The client kit's documents through a real urql client (fetchExchange over
// HTTP, subscriptionExchange over graphql-ws), against the gateway in front of
// the sandbox: a query, the charge-and-OTP flow followed live, typed errors,
// and Relay-style paging as the README shows it.
import { randomUUID } from 'node:crypto';
import type { OperationResult } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BalanceDocument,
  ChargeUpdatedDocument,
  ChargesDocument,
  CreateChargeDocument,
  CreateTransferDocument,
  SubmitChargeOtpDocument,
  type ChargeUpdatedSubscription,
  type ChargesQuery,
} from '../../client/generated/graphql.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { urqlClient } from './clients.js';

describe('the client kit through urql', () => {
  let stack: TestStack;
  let urql: ReturnType<typeof urqlClient>;

  beforeAll(async () => {
    stack = await startStack({ sandboxWebhooks: true });
    urql = urqlClient({ graphqlUrl: stack.gateway.graphqlUrl, token: stack.staffToken });
  });
  afterAll(async () => {
    await urql?.dispose();
    await stack?.close();
  });

  const createCharge = async (amount: number) => {
    const result = await urql.client
      .mutation(CreateChargeDocument, { input: { amount, phone: '76000000', provider: 'OPA_BF', idempotencyKey: randomUUID() } })
      .toPromise();
    expect(result.error).toBeUndefined();
    const created = result.data!.createCharge;
    if (created.__typename !== 'CreateChargePayload') throw new Error(`createCharge answered ${created.__typename}`);
    return created;
  };

  it('runs a query', async () => {
    const result = await urql.client.query(BalanceDocument, {}).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.balance.currency).toBe('XOF');
    expect(result.data?.balance.wallets.find((w) => w.wallet === 'OPA_BF')?.available).toBe(100_000);
  });

  it('takes a charge by OTP and follows it live over graphql-ws', async () => {
    const created = await createCharge(2500);
    expect(created).toMatchObject({ status: 'SEND_OTP', nextAction: 'DIAL_USSD_THEN_ENTER_OTP' });

    const seen: ChargeUpdatedSubscription['chargeUpdated'][] = [];
    const errors: unknown[] = [];
    let completed = false;
    const { unsubscribe } = urql.client.subscription(ChargeUpdatedDocument, { reference: created.reference }).subscribe((result) => {
      if (result.error) errors.push(result.error);
      // urql marks the end of a stream by repeating its last result with hasNext false.
      if (result.hasNext === false) completed = true;
      else if (result.data) seen.push(result.data.chargeUpdated);
    });
    try {
      // The subscription starts with the charge's current state: it is live from here on.
      await waitFor(() => seen.length > 0 || errors.length > 0, 'the charge’s current state', 10_000);
      expect(errors).toEqual([]);
      expect(seen[0]).toMatchObject({ reference: created.reference, status: 'SEND_OTP' });

      const submitted = await urql.client.mutation(SubmitChargeOtpDocument, { reference: created.reference, otp: '123456' }).toPromise();
      expect(submitted.data?.submitChargeOtp).toMatchObject({ __typename: 'SubmitChargeOtpPayload', charge: { status: 'SUCCESS' } });

      // A final status ends the stream.
      await waitFor(() => completed, 'chargeUpdated to complete after SUCCESS', 10_000);
      expect(seen.map((c) => c.status)).toEqual(['SEND_OTP', 'SUCCESS']);
    } finally {
      unsubscribe();
    }
  });

  it('delivers typed errors with their fields', async () => {
    const wrongOtp = await createCharge(1200);
    const result = await urql.client.mutation(SubmitChargeOtpDocument, { reference: wrongOtp.reference, otp: '000000' }).toPromise();
    const error = result.data!.submitChargeOtp;
    expect(error.__typename).toBe('OtpInvalidError');
    if (error.__typename !== 'OtpInvalidError') return;
    expect(error).toMatchObject({ code: 'OTP_INVALID', retryable: expect.any(Boolean) });
    expect(error.message).not.toBe('');
    expect(error.messageFr).not.toBe('');
    expect(error.messageFr).not.toBe(error.message);

    const tooMuch = await urql.client
      .mutation(CreateTransferDocument, { input: { amount: 500_000, recipientPhone: '70000000', idempotencyKey: randomUUID() } })
      .toPromise();
    expect(tooMuch.data?.createTransfer).toMatchObject({
      __typename: 'InsufficientFundsError',
      code: 'INSUFFICIENT_FUNDS',
      wallet: 'OPB_BF',
    });
  });

  it('pages through charges Relay-style, each charge once', async () => {
    const created = new Set<string>();
    for (const amount of [1001, 1002, 1003]) created.add((await createCharge(amount)).reference);

    const filter = { provider: 'OPA_BF' as const, amountMin: 1001, amountMax: 1003 };
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const page: OperationResult<ChargesQuery> = await urql.client.query(ChargesDocument, { filter, first: 2, after }).toPromise();
      expect(page.error).toBeUndefined();
      const charges = page.data!.charges;
      expect(charges.totalCount).toBe(3);
      seen.push(...charges.edges.map((edge) => edge.node.reference));
      pages++;
      if (!charges.pageInfo.hasNextPage) break;
      after = charges.pageInfo.endCursor;
    }
    expect(pages).toBe(2);
    expect(seen).toHaveLength(3);
    expect(new Set(seen)).toEqual(created);
  });
});
