// Phone numbers as customers type them: international prefixes (+226, 00226,
// +229, 00229), spaces, dots and dashes are read into the national number the
// service expects before the operator's prefix rules; what cannot be read, or
// belongs to no operator, is refused quoting the number as typed. Unit checks of
// the reading, then the same forms through the gateway to the sandbox.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nationalPhone, normalizedPhone } from '../../src/schema/phone-input.js';
import { graphql } from '../gql/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';

describe('reading a typed phone number', () => {
  it.each([
    ['+226 58 00 00 00', 'opc_bf', '58000000'],
    ['0022658000000', 'opc_bf', '58000000'],
    ['00 226 58 00 00 00', 'opc_bf', '58000000'],
    ['58-00-00-00', 'opc_bf', '58000000'],
    ['58.00.00.00', 'opc_bf', '58000000'],
    ['58 00 00 00', 'opc_bf', '58000000'],
    ['58000000', 'opc_bf', '58000000'],
    ['+229 01 96 00 00 00', 'ope_bj', '0196000000'],
    ['00229 0196000000', 'ope_bj', '0196000000'],
    ['01-96-00-00-00', 'ope_bj', '0196000000'],
    ['0196000000', 'ope_bj', '0196000000'],
    // A Benin number with its prefix, for a transfer that names no wallet (read in Burkina Faso by default).
    ['+229 01 95 00 00 00', null, '0195000000'],
  ] as const)('%s (%s) is %s', (typed, operator, national) => {
    expect(normalizedPhone(typed, operator)).toBe(national);
  });

  it.each(['+33 6 12 34 56 78', 'fifty-eight', '58 00 00 00 x', '', '+226'])('%j is no Burkina Faso or Benin number', (typed) => {
    expect(nationalPhone(typed, 'BF')).toBeNull();
    // Left as typed: the operator's rule refuses it and the message quotes it.
    expect(normalizedPhone(typed, 'opc_bf')).toBe(typed);
  });
});

const CreateCharge = graphql(`
  mutation PhoneInputCharge($input: CreateChargeInput!) {
    createCharge(input: $input) {
      __typename
      ... on CreateChargePayload { charge { phone provider } }
      ... on ValidationError { fieldErrors { path message messageFr } }
    }
  }
`);
const CreateTransfer = graphql(`
  mutation PhoneInputTransfer($input: CreateTransferInput!) {
    createTransfer(input: $input) {
      __typename
      ... on CreateTransferPayload { transfer { recipientPhone recipientWallet } }
      ... on ValidationError { fieldErrors { path message messageFr } }
    }
  }
`);

const ChargesByPhone = graphql(`
  query PhoneInputCharges($phone: String) {
    charges(first: 50, filter: { phone: $phone, provider: OPC_BF }) { totalCount edges { node { phone } } }
  }
`);
const TransfersByPhone = graphql(`
  query PhoneInputTransfers($phone: String) {
    transfers(first: 50, filter: { phone: $phone }) { edges { node { recipientPhone } } }
  }
`);

describe('typed numbers through the gateway', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ inProcess: true });
  });
  afterAll(() => stack?.close());

  const charge = async (phone: string, provider: 'OPC_BF' | 'OPE_BJ' | 'OPB_BF') =>
    (await stack.gql(CreateCharge, { input: { amount: 1000, phone, provider, idempotencyKey: randomUUID() } })).data!.createCharge;

  it.each([
    ['+226 58 00 00 00', 'OPC_BF', '58000000'],
    ['0022658000000', 'OPC_BF', '58000000'],
    ['58-00-00-00', 'OPC_BF', '58000000'],
    ['+229 01 96 00 00 00', 'OPE_BJ', '0196000000'],
  ] as const)('a charge to %s (%s) reaches the service as %s', async (typed, provider, national) => {
    expect(await charge(typed, provider)).toEqual({ __typename: 'CreateChargePayload', charge: { phone: national, provider } });
  });

  it.each([
    ['+226 58 00 00', 'OPC_BF'],
    ['+33 6 12 34 56 78', 'OPC_BF'],
    ['+226 58 00 00 00', 'OPB_BF'],
    ['+226 58 00 00 00', 'OPE_BJ'],
    ['58 00 00 0O', 'OPC_BF'],
  ] as const)('refuses %s for %s, quoting it as typed', async (typed, provider) => {
    const result = await charge(typed, provider);
    if (result.__typename !== 'ValidationError') throw new Error(`expected a ValidationError, got ${result.__typename}`);
    expect(result.fieldErrors).toHaveLength(1);
    expect(result.fieldErrors[0]!.path).toEqual(['input', 'phone']);
    expect(result.fieldErrors[0]!.message).toContain(`: ${JSON.stringify(typed)}; expected `);
    expect(result.fieldErrors[0]!.messageFr).toContain(`invalide : ${JSON.stringify(typed)} ; format attendu : `);
  });

  it('reads a transfer recipient the same way, and quotes an unknown one as typed', async () => {
    const sent = await stack.gql(CreateTransfer, {
      input: { amount: 500, recipientPhone: '+226 76.00.00.00', idempotencyKey: randomUUID() },
    });
    expect(sent.data!.createTransfer).toEqual({
      __typename: 'CreateTransferPayload',
      transfer: { recipientPhone: '76000000', recipientWallet: 'OPA_BF' },
    });
    const refused = await stack.gql(CreateTransfer, {
      input: { amount: 500, recipientPhone: '+33 6 12 34 56 78', idempotencyKey: randomUUID() },
    });
    expect(refused.data!.createTransfer).toMatchObject({
      __typename: 'ValidationError',
      fieldErrors: [
        {
          path: ['input', 'recipientPhone'],
          message: 'Not a Burkina Faso or Benin mobile number: "+33 6 12 34 56 78".',
          messageFr: 'Ce n’est pas un numéro mobile du Burkina Faso ou du Bénin : "+33 6 12 34 56 78".',
        },
      ],
    });
  });

  it('reads the phone of a list filter the same way', async () => {
    const charges = await stack.gql(ChargesByPhone, { phone: '+226 58-00-00-00' });
    expect(charges.data!.charges.totalCount).toBeGreaterThan(0);
    expect(new Set(charges.data!.charges.edges.map((e) => e.node.phone))).toEqual(new Set(['58000000']));
    const transfers = await stack.gql(TransfersByPhone, { phone: '00226 76 00 00 00' });
    expect(transfers.data!.transfers.edges.map((e) => e.node.recipientPhone)).toContain('76000000');
  });
});
