// Subscriptions over Server-Sent Events (yoga's own transport, beside
// graphql-ws): POST and GET with `accept: text/event-stream`, a signed webhook
// posted to the gateway, the event read from the stream. Closing the stream
// ends the subscription on the server.
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { ChargeUpdated, PaymentEvents, createOtpCharge, submitOtp } from '../live/documents.js';
import { postWebhook, probeBus, waitFor, withTimeout, type BusProbe } from '../live/helpers.js';

interface SseEvent {
  event: string;
  data: string;
}

/** An open text/event-stream response, read event by event. */
async function openStream(url: string, init: RequestInit) {
  const controller = new AbortController();
  const res = await fetch(url, { ...init, signal: controller.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const queue: SseEvent[] = [];
  let done = false;

  const pump = async () => {
    while (queue.length === 0 && !done) {
      const chunk = await reader.read();
      if (chunk.done) {
        done = true;
        break;
      }
      buffer += chunk.value;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const lines = block.split('\n').filter((l) => !l.startsWith(':')); // ':' lines are keep-alives
        if (lines.length === 0) continue;
        const event =
          lines
            .find((l) => l.startsWith('event:'))
            ?.slice(6)
            .trim() ?? 'message';
        const data = lines
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trimStart())
          .join('\n');
        queue.push({ event, data });
      }
    }
  };

  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    async next(timeoutMs = 3_000): Promise<SseEvent | null> {
      await withTimeout(pump(), timeoutMs, 'an SSE event');
      return queue.shift() ?? null;
    },
    close() {
      controller.abort();
      reader.cancel().catch(() => {});
    },
  };
}

let stack: TestStack;
let probe: BusProbe;

beforeAll(async () => {
  // Webhooks from the sandbox go to the gateway too (for chargeUpdated below).
  stack = await startStack({ env: { SUBSCRIPTION_POLL_MS: '0' }, sandboxWebhooks: true });
  probe = probeBus(stack.gateway.bus);
});
afterAll(async () => {
  await stack?.close();
});

const sse = { accept: 'text/event-stream' };

describe('subscriptions over SSE', () => {
  it('POST: paymentEvents receives a signed webhook posted to the gateway; closing the stream ends the subscription', async () => {
    const reference = await createOtpCharge(stack);
    const attached = probe.paymentEventsAttached();
    const stream = await openStream(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: { ...sse, authorization: `Bearer ${stack.staffToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: print(PaymentEvents), variables: { kinds: ['charge.success'] } }),
    });
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    await waitFor(() => probe.paymentEventsAttached() > attached, 'the SSE subscription to be live');

    await stack.sandbox.webhooks.idle();
    const body = JSON.stringify({ event: 'charge.success', data: { reference, status: 'success' } });
    const reply = await postWebhook(stack.gateway.webhookUrl!, stack.webhookSecret, body);
    expect(reply).toMatchObject({ status: 200, json: { ok: true, duplicate: false } });

    const event = await stream.next();
    expect(event?.event).toBe('next');
    const payload = JSON.parse(event!.data) as { data: { paymentEvents: Record<string, unknown> } };
    expect(payload.data.paymentEvents).toMatchObject({
      id: reply.json['eventId'],
      kind: 'charge.success',
      reference,
      payload: { event: 'charge.success', data: { reference } },
      // Resolved from the service (the truth), not from the webhook body: the OTP was never submitted.
      charge: { reference, status: 'SEND_OTP' },
    });

    stream.close();
    await waitFor(() => probe.paymentEventsOpen() === 0, 'the server to end the subscription');
  });

  it('GET: chargeUpdated streams the current state, SUCCESS, then `complete`', async () => {
    const reference = await createOtpCharge(stack);
    const url = new URL(stack.gateway.graphqlUrl);
    url.searchParams.set('query', print(ChargeUpdated));
    url.searchParams.set('variables', JSON.stringify({ reference }));
    const stream = await openStream(url.toString(), { method: 'GET', headers: { ...sse, authorization: `Bearer ${stack.staffToken}` } });
    expect(stream.status).toBe(200);
    await waitFor(() => probe.resourceAttached('charge', reference) >= 1, 'the SSE subscription to be live');
    await waitFor(() => stack.sandbox.requests.count({ method: 'GET', path: `/v1/payment/charges/${reference}` }) >= 1, 'the baseline');

    const current = await stream.next();
    expect(current?.event).toBe('next');
    expect(JSON.parse(current!.data)).toMatchObject({ data: { chargeUpdated: { reference, status: 'SEND_OTP' } } });

    await submitOtp(stack, reference);
    const next = await stream.next();
    expect(next?.event).toBe('next');
    expect(JSON.parse(next!.data)).toEqual({
      data: { chargeUpdated: { __typename: 'Charge', reference, status: 'SUCCESS', amount: 1500, provider: 'OPA_BF' } },
    });
    expect((await stream.next())?.event).toBe('complete');
    stream.close();
    await waitFor(() => probe.resourceOpen('charge', reference) === 0, 'the bus subscription to end');
  });
});
