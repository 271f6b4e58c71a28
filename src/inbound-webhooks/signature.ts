// Webhook signature (X-Webhook-Hash) verification.
//
// The upstream documentation shows two incompatible examples and does not say
// which is authoritative (the service's interface description, Events), so both are
// implemented and `auto` accepts either:
//   hmac-sha256-hex : hex(HMAC-SHA-256(key = secret, message = raw body))
//   sha256-base64   : base64(SHA-256(raw body bytes || secret bytes))
// Always over the exact bytes received: re-serializing parsed JSON changes
// spacing, escapes (`\/`, `\u2028`) and key order, and the hash would differ.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { SignatureScheme } from '../config.js';

type ConcreteSignatureScheme = Exclude<SignatureScheme, 'auto'>;

const DIGEST_BYTES = 32;
// 32 bytes = 64 hex digits, either case.
const HEX_DIGEST = /^[0-9a-fA-F]{64}$/;
// 32 bytes = 43 base64 characters + one '=' of padding (optional here). 32 bytes
// leave 2 unused bits in the 43rd character; the canonical encoding has them at
// zero, so that character is one of these 16. Anything else (base64url, '==',
// non-canonical forms that a lenient decoder would still accept) is refused.
const BASE64_DIGEST = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=?$/;

/** Signs a webhook body as the service does under the given scheme: hex HMAC-SHA256, or base64 SHA-256 of the body then the secret. */
export function signBody(body: Buffer | string, secret: string, scheme: ConcreteSignatureScheme): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return scheme === 'hmac-sha256-hex' ? hmacDigest(bytes, secret).toString('hex') : sha256Digest(bytes, secret).toString('base64');
}

/**
 * True when `header` is a valid signature of `rawBody`. Never throws on a
 * malformed header: the header is attacker-controlled, so every defect is
 * simply "not valid".
 */
export function verifySignature(rawBody: Buffer, header: string | undefined, secret: string, scheme: SignatureScheme): boolean {
  if (typeof header !== 'string' || secret.length === 0) return false;
  const candidate = header.trim();

  // The two encodings have different lengths (64 vs 43/44), so the header's
  // own shape tells which scheme it claims; that shape is public information.
  if (scheme !== 'sha256-base64' && HEX_DIGEST.test(candidate)) {
    return safeEqual(Buffer.from(candidate, 'hex'), hmacDigest(rawBody, secret));
  }
  if (scheme !== 'hmac-sha256-hex' && BASE64_DIGEST.test(candidate)) {
    return safeEqual(Buffer.from(candidate, 'base64'), sha256Digest(rawBody, secret));
  }
  return false;
}

function hmacDigest(body: Buffer, secret: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

function sha256Digest(body: Buffer, secret: string): Buffer {
  return createHash('sha256').update(body).update(Buffer.from(secret, 'utf8')).digest();
}

/** Constant-time comparison of two raw digests; timingSafeEqual throws on unequal lengths, so check first. */
function safeEqual(received: Buffer, expected: Buffer): boolean {
  return received.length === DIGEST_BYTES && expected.length === DIGEST_BYTES && timingSafeEqual(received, expected);
}
