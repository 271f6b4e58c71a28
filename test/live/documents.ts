// Operations of the live-update and server tests. Typed by graphql-codegen
// (test/gql), printed for graphql-ws and SSE.
import { randomUUID } from 'node:crypto';
import { graphql } from '../gql/index.js';
import { createOtpCharge as createOtpChargeWithToken } from '../helpers/charges.js';
import type { TestStack } from '../helpers/gateway.js';

export const ChargeUpdated = graphql(`
  subscription LiveChargeUpdated($reference: String!) {
    chargeUpdated(reference: $reference) { __typename reference status amount provider }
  }
`);

export const CheckoutUpdated = graphql(`
  subscription LiveCheckoutUpdated($reference: String!) {
    checkoutUpdated(reference: $reference) { __typename reference status amount chargeReference }
  }
`);

export const TransferUpdated = graphql(`
  subscription LiveTransferUpdated($reference: String!) {
    transferUpdated(reference: $reference) { __typename reference status amount recipientPhone }
  }
`);

export const SettlementUpdated = graphql(`
  subscription LiveSettlementUpdated($reference: String!) {
    settlementUpdated(reference: $reference) { __typename reference status amount }
  }
`);

export const PaymentEvents = graphql(`
  subscription LivePaymentEvents($kinds: [String!]) {
    paymentEvents(kinds: $kinds) {
      id
      kind
      receivedAt
      reference
      payload
      charge { reference status }
      checkout { reference status }
      transfer { reference status }
      settlement { reference status }
    }
  }
`);

/** Fields of the event only: resolving `charge` etc. would fetch the resource (GET counts stay exact). */
export const PaymentEventIds = graphql(`
  subscription LivePaymentEventIds($kinds: [String!]) {
    paymentEvents(kinds: $kinds) { id kind reference }
  }
`);

export const CreateCharge = graphql(`
  mutation LiveCreateCharge($input: CreateChargeInput!) {
    createCharge(input: $input) {
      __typename
      ... on CreateChargePayload { reference status nextAction }
      ... on PaymentError { code message }
    }
  }
`);

// Selects no field of the charge: `SubmitChargeOtpPayload.charge` completes the submit answer with a
// GET of the charge, which would blur the GET counts these tests make.
export const SubmitOtp = graphql(`
  mutation LiveSubmitOtp($input: SubmitChargeOtpInput!) {
    submitChargeOtp(input: $input) {
      __typename
      ... on PaymentError { code message }
    }
  }
`);

export const CreateTransfer = graphql(`
  mutation LiveCreateTransfer($input: CreateTransferInput!) {
    createTransfer(input: $input) {
      __typename
      ... on CreateTransferPayload { transfer { reference status } }
      ... on PaymentError { code message }
    }
  }
`);

export const CreateSettlement = graphql(`
  mutation LiveCreateSettlement($input: CreateSettlementInput!) {
    createSettlement(input: $input) {
      __typename
      ... on SettlementPayload { settlement { reference status } }
      ... on PaymentError { code message }
    }
  }
`);

export const InitializeCheckout = graphql(`
  mutation LiveInitializeCheckout($input: InitializeCheckoutInput!) {
    initializeCheckout(input: $input) {
      __typename
      ... on InitializeCheckoutPayload { reference authorizationUrl checkout { reference status } }
      ... on PaymentError { code message }
    }
  }
`);

// ---------------------------------------------------------------- actions through the gateway

function fail(what: string, result: { __typename: string; message?: string }): never {
  throw new Error(`${what} returned ${result.__typename}${result.message ? `: ${result.message}` : ''}`);
}

/** An opa_bf charge waiting for its OTP (send_otp), its reference (test/helpers/charges.ts). 76000002 ends failed on the OTP. */
export async function createOtpCharge(stack: TestStack, phone = '76000000', amount = 1500): Promise<string> {
  return (await createOtpChargeWithToken(stack, { phone, amount })).reference;
}

/** An opb_bf charge confirmed by USSD: pay_offline, completes by itself after payOfflineMs. */
export async function createPayOfflineCharge(stack: TestStack, phone = '70000000', amount = 2000): Promise<string> {
  const res = await stack.gql(CreateCharge, {
    input: { amount, phone, provider: 'OPB_BF', confirmationMethod: 'USSD', idempotencyKey: randomUUID() },
  });
  const result = res.data?.createCharge;
  if (result?.__typename !== 'CreateChargePayload') fail('createCharge', (result ?? { __typename: `errors ${res.raw}` }) as never);
  if (result.status !== 'PAY_OFFLINE') throw new Error(`expected PAY_OFFLINE, got ${result.status}`);
  return result.reference;
}

/** Submits the OTP through the gateway; throws unless the charge was confirmed. */
export async function submitOtp(stack: TestStack, chargeReference: string, otp = '123456'): Promise<void> {
  const res = await stack.gql(SubmitOtp, { input: { chargeReference, otp } });
  const result = res.data?.submitChargeOtp;
  if (result?.__typename !== 'SubmitChargeOtpPayload') fail('submitChargeOtp', (result ?? { __typename: `errors ${res.raw}` }) as never);
}

export async function createTransfer(stack: TestStack, recipientPhone = '76000000', amount = 1000): Promise<string> {
  const res = await stack.gql(CreateTransfer, { input: { amount, recipientPhone, idempotencyKey: randomUUID() } });
  const result = res.data?.createTransfer;
  if (result?.__typename !== 'CreateTransferPayload') fail('createTransfer', (result ?? { __typename: `errors ${res.raw}` }) as never);
  return result.transfer.reference;
}

export async function createSettlement(stack: TestStack, amount = 5000): Promise<string> {
  stack.sandbox.setBalance(stack.apiKey, { collection: { available: 1_000_000 } });
  const res = await stack.gql(CreateSettlement, { input: { amount, idempotencyKey: randomUUID() } });
  const result = res.data?.createSettlement;
  if (result?.__typename !== 'SettlementPayload') fail('createSettlement', (result ?? { __typename: `errors ${res.raw}` }) as never);
  return result.settlement.reference;
}

/** A pending checkout: its chk_ reference, its UUID reference and its payment page. */
export async function initializeCheckout(stack: TestStack, amount = 3000): Promise<{ chk: string; uuid: string; page: string }> {
  const res = await stack.gql(InitializeCheckout, {
    input: { amount, successUrl: 'https://shop.example/ok', cancelUrl: 'https://shop.example/cancel', idempotencyKey: randomUUID() },
  });
  const result = res.data?.initializeCheckout;
  if (result?.__typename !== 'InitializeCheckoutPayload')
    fail('initializeCheckout', (result ?? { __typename: `errors ${res.raw}` }) as never);
  if (!result.checkout) throw new Error('initializeCheckout returned no checkout');
  return { chk: result.reference, uuid: result.checkout.reference, page: result.authorizationUrl };
}
