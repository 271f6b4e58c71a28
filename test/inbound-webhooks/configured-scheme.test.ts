// WEBHOOK_SIGNATURE_SCHEME as configuration, end to end: a gateway started with one
// scheme refuses a webhook signed with the other (with the right secret), so a
// deployment that pins its scheme cannot be fed the other kind of signature.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../../src/inbound-webhooks/signature.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { post } from '../helpers/http.js';

const stacks: TestStack[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.close();
});

/** The status of a webhook delivery with this signature. */
const deliver = async (stack: TestStack, body: string, signature: string) =>
  (await post(stack.gateway.webhookUrl!, body, { 'x-webhook-hash': signature })).status;

describe.each(['hmac-sha256-hex', 'sha256-base64'] as const)('WEBHOOK_SIGNATURE_SCHEME=%s', (scheme) => {
  const other = scheme === 'hmac-sha256-hex' ? 'sha256-base64' : 'hmac-sha256-hex';
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { WEBHOOK_SIGNATURE_SCHEME: scheme } });
    stacks.push(stack);
  });

  it(`accepts ${scheme} and refuses ${other}, both signed with the right secret`, async () => {
    const body = (id: string) => JSON.stringify({ event: 'charge.success', data: { reference: `ch_${id}`, id } });
    expect(await deliver(stack, body('a'), signBody(body('a'), stack.webhookSecret, other))).toBe(400);
    expect(await deliver(stack, body('b'), signBody(body('b'), stack.webhookSecret, scheme))).toBe(200);
  });
});
