// The client kit's documents through a real Apollo Client (HttpLink, and
// GraphQLWsLink for subscriptions) against the gateway in front of the sandbox.
// Apollo's cache only matches `... on PaymentError { ... }` inside a union when
// it knows the interface's members: with the generated possibleTypes the typed
// error's fields arrive; without them Apollo silently drops them.
import { randomUUID } from 'node:crypto';
import { setLogVerbosity } from '@apollo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BalanceDocument,
  ChargeUpdatedDocument,
  CreateChargeDocument,
  CreateTransferDocument,
  SubmitChargeOtpDocument,
  type ChargeUpdatedSubscription,
} from '../../client/generated/graphql.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import { apolloClient } from './clients.js';

describe('the client kit through Apollo Client', () => {
  let stack: TestStack;
  let apollo: ReturnType<typeof apolloClient>;

  beforeAll(async () => {
    stack = await startStack({ sandboxWebhooks: true });
    apollo = apolloClient({ graphqlUrl: stack.gateway.graphqlUrl, token: stack.staffToken });
  });
  afterAll(async () => {
    await apollo?.dispose();
    await stack?.close();
  });

  const tooLargeTransfer = () => ({
    mutation: CreateTransferDocument,
    // More than the 100,000 XOF the sandbox's wallets hold.
    variables: { input: { amount: 500_000, recipientPhone: '70000000', idempotencyKey: randomUUID() } },
  });

  it('runs a query', async () => {
    const { data } = await apollo.client.query({ query: BalanceDocument });
    expect(data?.balance.currency).toBe('XOF');
    expect(data?.balance.wallets).toHaveLength(5);
  });

  it('delivers the typed error’s PaymentError fields with the generated possibleTypes', async () => {
    const { data } = await apollo.client.mutate(tooLargeTransfer());
    expect(data?.createTransfer).toMatchObject({
      __typename: 'InsufficientFundsError',
      wallet: 'OPB_BF',
      code: 'INSUFFICIENT_FUNDS',
      retryable: expect.any(Boolean),
    });
    const error = data!.createTransfer as { message: string; messageFr: string };
    expect(error.message).toMatch(/\S/);
    expect(error.messageFr).toMatch(/\S/);
    expect(error.messageFr).not.toBe(error.message);
  });

  it('drops them without possibleTypes (why the kit ships the file)', async () => {
    const bare = apolloClient({ graphqlUrl: stack.gateway.graphqlUrl, token: stack.staffToken, possibleTypes: false });
    // Apollo warns about each fragment it cannot match: expected here.
    const verbosity = setLogVerbosity('error');
    try {
      const { data } = await bare.client.mutate(tooLargeTransfer());
      expect(data?.createTransfer).toMatchObject({ __typename: 'InsufficientFundsError', wallet: 'OPB_BF' });
      expect(data?.createTransfer).not.toHaveProperty('code');
    } finally {
      setLogVerbosity(verbosity);
      await bare.dispose();
    }
  });

  it('follows a charge through GraphQLWsLink until it completes', async () => {
    const { data } = await apollo.client.mutate({
      mutation: CreateChargeDocument,
      variables: { input: { amount: 3000, phone: '76000000', provider: 'OPA_BF', idempotencyKey: randomUUID() } },
    });
    const created = data!.createCharge;
    if (created.__typename !== 'CreateChargePayload') throw new Error(`createCharge answered ${created.__typename}`);

    const seen: ChargeUpdatedSubscription['chargeUpdated'][] = [];
    const errors: unknown[] = [];
    let completed = false;
    const subscription = apollo.client.subscribe({ query: ChargeUpdatedDocument, variables: { reference: created.reference } }).subscribe({
      next: (result) => {
        if (result.error) errors.push(result.error);
        if (result.data) seen.push(result.data.chargeUpdated);
      },
      error: (err) => errors.push(err),
      complete: () => (completed = true),
    });
    try {
      await waitFor(() => seen.length > 0 || errors.length > 0, 'the charge’s current state', 10_000);
      expect(errors).toEqual([]);
      expect(seen[0]).toMatchObject({ reference: created.reference, status: 'SEND_OTP' });

      const submitted = await apollo.client.mutate({
        mutation: SubmitChargeOtpDocument,
        variables: { reference: created.reference, otp: '123456' },
      });
      expect(submitted.data?.submitChargeOtp).toMatchObject({ __typename: 'SubmitChargeOtpPayload', charge: { status: 'SUCCESS' } });

      await waitFor(() => completed || errors.length > 0, 'chargeUpdated to complete after SUCCESS', 10_000);
      expect(errors).toEqual([]);
      expect(seen.map((c) => c.status)).toEqual(['SEND_OTP', 'SUCCESS']);
    } finally {
      subscription.unsubscribe();
    }
  });
});
