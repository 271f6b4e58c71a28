// `kinds` of paymentEvents and of the events history: a kind in the gateway's
// namespaces that it does not know, or one a typo away from a known kind, would
// silently match nothing forever; it is refused with BAD_USER_INPUT listing the
// known kinds (in English and French). A deployment's own kinds (another
// namespace) still filter. A bad `after` is refused with its own French text.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_EVENT_KINDS } from '../../src/events/payment-event.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { EventHistory, ResumableEvents } from './event-documents.js';
import { disposeAllClients, postWebhook, staffClient, subscribe } from './helpers.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ env: { SUBSCRIPTION_POLL_MS: '0' } });
});
afterAll(async () => {
  await disposeAllClients();
  await stack?.close();
});

/** The one error a refused subscription answers (an execution result with errors, then complete). */
async function refusal(variables: { kinds?: string[]; after?: string }) {
  const sub = subscribe(staffClient(stack), ResumableEvents, variables);
  const result = await sub.nextResult(10_000, 'the refusal');
  expect(await sub.ended).toEqual({ kind: 'complete' });
  expect(result.data ?? null).toBeNull();
  expect(result.errors).toHaveLength(1);
  return result.errors![0]! as { message: string; extensions: Record<string, unknown> };
}

describe('paymentEvents(kinds)', () => {
  for (const typo of ['charge.sucess', 'chrage.success', 'transfer.succeeded']) {
    it(`refuses ${typo}, listing the known kinds in both languages`, async () => {
      const error = await refusal({ kinds: ['charge.success', typo] });
      expect(error.extensions.code).toBe('BAD_USER_INPUT');
      expect(error.message).toBe(`Unknown event kind "${typo}": kinds are ${KNOWN_EVENT_KINDS.join(', ')}.`);
      expect(error.extensions.messageFr).toBe(`Type d’événement inconnu "${typo}" : les types sont ${KNOWN_EVENT_KINDS.join(', ')}.`);
      expect(KNOWN_EVENT_KINDS).toEqual(
        expect.arrayContaining(['charge.success', 'checkout.pending', 'settlement.in_transit', 'reconciliation.stuck']),
      );
    });
  }

  it('delivers known kinds and a deployment’s own kinds', async () => {
    const own = `shop.refund_${randomBytes(3).toString('hex')}`;
    const sub = subscribe(staffClient(stack), ResumableEvents, { kinds: ['charge.success', own] });
    // The subscription is accepted once the server answers anything else on a fresh connection; post and wait.
    for (const kind of ['charge.failed', own, 'charge.success']) {
      const body = JSON.stringify({ id: `k_${randomBytes(4).toString('hex')}`, event: kind, data: { reference: `ref_${kind}` } });
      expect((await postWebhook(stack.gateway.webhookUrl!, stack.webhookSecret, body)).status).toBe(200);
    }
    expect((await sub.next(10_000, 'the own kind')).paymentEvents.kind).toBe(own);
    expect((await sub.next(10_000, 'charge.success')).paymentEvents.kind).toBe('charge.success');
    sub.unsubscribe();
  });

  it('refuses an `after` that is not an event id, with a specific French text', async () => {
    const error = await refusal({ after: 'not-an-id' });
    expect(error.extensions.code).toBe('BAD_USER_INPUT');
    expect(error.message).toBe('`after` is not an event id this API issued: pass a PaymentEvent.id you received.');
    expect(error.extensions.messageFr).toBe(
      '`after` n’est pas un identifiant d’événement émis par cette API : passez un PaymentEvent.id reçu.',
    );
  });
});

describe('events(filter: { kinds })', () => {
  it('refuses a mistyped kind the same way', async () => {
    const res = await stack.gql(EventHistory, { first: 5, filter: { kinds: ['checkout.sucess'] } });
    expect(res.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      messageFr: expect.stringMatching(/^Type d’événement inconnu "checkout.sucess" : les types sont checkout.pending, /),
    });
  });
});
