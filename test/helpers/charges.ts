// A charge awaiting its OTP, created through the gateway by the merchant's server (a staff token): the
// starting point of the suites about client tokens, OTP submission and resource subscriptions.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { TestStack } from './gateway.js';

interface Created {
  createCharge: { __typename: string; reference?: string; clientToken?: string; status?: string; code?: string; message?: string };
}
const CREATE_CHARGE: TypedDocumentNode<Created, { input: Record<string, unknown> }> = parse(`
  mutation CreateOtpCharge($input: CreateChargeInput!) {
    createCharge(input: $input) {
      __typename
      ... on CreateChargePayload { reference clientToken status }
      ... on PaymentError { code message }
    }
  }
`);

export interface OtpCharge {
  reference: string;
  /** What the merchant's server hands the browser to submit the OTP and follow the charge. */
  clientToken: string;
}

export interface OtpChargeInput {
  /** OPA_BF (76000000: the OTP comes from the customer's app) or OPC_BF (58000000: by SMS); default OPA_BF. */
  provider?: 'OPA_BF' | 'OPC_BF';
  phone?: string;
  amount?: number;
  extId?: string;
}

/** A charge in SEND_OTP (76000002 with OPA_BF ends failed on the OTP). */
export async function createOtpCharge(stack: TestStack, charge: OtpChargeInput = {}): Promise<OtpCharge> {
  const provider = charge.provider ?? 'OPA_BF';
  const input = {
    amount: charge.amount ?? 1500,
    phone: charge.phone ?? (provider === 'OPA_BF' ? '76000000' : '58000000'),
    provider,
    ...(charge.extId ? { extId: charge.extId } : {}),
    idempotencyKey: randomUUID(),
  };
  const res = await stack.gql(CREATE_CHARGE, { input });
  const created = res.data?.createCharge;
  expect(created?.__typename, res.raw).toBe('CreateChargePayload');
  expect(created?.status, res.raw).toBe('SEND_OTP');
  return { reference: created!.reference!, clientToken: created!.clientToken! };
}
