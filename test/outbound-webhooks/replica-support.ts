// Webhooks from the payment service, signed as the service signs them, posted to a gateway (or a replica of one,
// test/helpers/child-replica.ts): the real way events reach the log.
import { createHmac, randomUUID } from 'node:crypto';
import { request } from 'undici';
import { mintStaffToken, SCOPES } from '../../src/auth/index.js';
import { CREATE_ENDPOINT } from './helpers.js';

/** How often the service's webhook is sent again after a 5xx, as a sender does (the gateway answers 503 when it cannot record it yet). */
const SENDS_AFTER_5XX = 5;

/**
 * Posts the service's webhook for event `i` (a charge.success unless `event` says otherwise) to a replica; resolves
 * with the HTTP status of the last send. A 5xx (the gateway could not record the event, say Redis answered too late
 * on a loaded machine) is sent again after a pause, as the service resends what was not acknowledged; the gateway
 * deduplicates by event id, so a send that was recorded after all makes no second delivery. A 4xx is final.
 */
export async function postServiceWebhook(
  webhookUrl: string,
  secret: string,
  i: number,
  tag: string,
  event = 'charge.success',
): Promise<number> {
  const body = JSON.stringify({
    id: `${tag}-${i}`,
    event,
    data: { reference: `${tag}-ref-${i}`, status: 'success', amount: 100 + i },
  });
  let status = 0;
  for (let send = 1; send <= SENDS_AFTER_5XX; send++) {
    const res = await request(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-hash': createHmac('sha256', secret).update(body).digest('hex') },
      body,
    });
    await res.body.dump();
    status = res.statusCode;
    if (status < 500) return status;
    await new Promise((resolve) => setTimeout(resolve, 250 * send));
  }
  return status;
}

/**
 * Creates the merchant's endpoint for `receiverUrl` through a replica, as a staff caller; resolves with the payload's
 * type. A retryable refusal (a replica just started on a loaded machine: its Redis call timed out) is sent again
 * with the same idempotency key, as a client is told to; any other error fails with its answer.
 */
export async function createEndpointOnReplica(graphqlUrl: string, jwtSecret: string, receiverUrl: string): Promise<string> {
  const token = (await mintStaffToken({ secret: jwtSecret, scopes: SCOPES, subject: 'test', ttlSeconds: 600 })).token;
  const body = JSON.stringify({ query: CREATE_ENDPOINT, variables: { input: { url: receiverUrl, idempotencyKey: randomUUID() } } });
  for (let send = 1; ; send++) {
    const res = await request(graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    const answer = (await res.body.json()) as {
      data?: { createWebhookEndpoint: { __typename: string } } | null;
      errors?: Array<{ extensions?: { retryable?: boolean } }>;
    };
    if (answer.data?.createWebhookEndpoint) return answer.data.createWebhookEndpoint.__typename;
    if (send === 4 || !answer.errors?.every((error) => error.extensions?.retryable)) throw new Error(JSON.stringify(answer));
    await new Promise((resolve) => setTimeout(resolve, 500 * send));
  }
}
