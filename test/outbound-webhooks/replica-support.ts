// Webhooks from the payment service, signed as the service signs them, posted to a gateway (or a replica of one,
// test/helpers/child-replica.ts): the real way events reach the log.
import { createHmac } from 'node:crypto';
import { request } from 'undici';

/** Posts the service's webhook for event `i` (a charge.success unless `event` says otherwise) to a replica; resolves with its HTTP status. */
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
  const res = await request(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-hash': createHmac('sha256', secret).update(body).digest('hex') },
    body,
  });
  await res.body.dump();
  return res.statusCode;
}
