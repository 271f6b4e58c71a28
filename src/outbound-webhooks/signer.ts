// Standard Webhooks signatures (standardwebhooks.com), made by the reference
// `standardwebhooks` package: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`
// with the endpoint's secret, and during a rotation's overlap a second entry
// with the previous secret, space-separated, as the spec allows.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { EndpointSecrets } from './model.js';

const SECRET_PREFIX = 'whsec_';
/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** A new signing secret: `whsec_` and the base64 of 32 random bytes, as the spec writes them. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of one attempt, signed with every secret still valid at `at`. */
export function signedHeaders(secrets: EndpointSecrets, webhookId: string, at: Date, body: string): SignedHeaders {
  const valid = [secrets.current];
  if (secrets.previous && secrets.previousExpiresAt !== null && secrets.previousExpiresAt > at.getTime()) valid.push(secrets.previous);
  const signature = valid.map((secret) => new Webhook(secret).sign(webhookId, at, body)).join(' ');
  return { 'webhook-id': webhookId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}
