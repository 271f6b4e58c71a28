// Key material of the two token kinds. The client-token key is never the staff
// key itself: a leaked client-token key must not let anyone mint staff tokens.
import { hkdfSync, randomBytes } from 'node:crypto';
import { MIN_SECRET_BYTES, type AuthConfig } from '../config.js';
import { InvalidArgumentError } from '../errors/internal-error.js';

const CLIENT_TOKEN_KEY_INFO = 'momo-gateway/client-token-key/v1';

/** The bytes of an HS256 secret. Throws InvalidArgumentError when it is shorter than MIN_SECRET_BYTES: a short secret can be guessed. */
export function secretBytes(secret: string): Uint8Array {
  const bytes = new TextEncoder().encode(secret);
  if (bytes.byteLength < MIN_SECRET_BYTES) throw new InvalidArgumentError(`an HS256 secret must be at least ${MIN_SECRET_BYTES} bytes`);
  return bytes;
}

/** The client-token key when only AUTH_JWT_SECRET is configured (HKDF-SHA256, a distinct info string). */
export function deriveClientTokenSecret(jwtSecret: string): string {
  const key = hkdfSync('sha256', jwtSecret, new Uint8Array(0), CLIENT_TOKEN_KEY_INFO, 32);
  return Buffer.from(key).toString('base64url');
}

function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The auth configuration with every key present, and whether the staff key was generated at start (sandbox mode). */
export interface CompletedAuth {
  auth: AuthConfig & { clientTokenSecret: string };
  /** True when no staff key was configured and one was generated (sandbox mode: print a development token). */
  generatedJwtSecret: boolean;
}

/**
 * Fills in the keys the configuration leaves unset: with no staff key at all (sandbox mode), a fresh
 * HS256 secret; with no CLIENT_TOKEN_SECRET, one derived from the staff secret (the one place that
 * derives it: every replica with the same AUTH_JWT_SECRET gets the same key), or a fresh one in sandbox
 * mode (loadConfig refuses a live configuration that could get neither).
 */
export function withGeneratedSecrets(auth: AuthConfig): CompletedAuth {
  const generatedJwtSecret = auth.jwtSecret === null && auth.jwksUrl === null;
  const jwtSecret = generatedJwtSecret ? generateSecret() : auth.jwtSecret;
  const clientTokenSecret = auth.clientTokenSecret ?? (jwtSecret ? deriveClientTokenSecret(jwtSecret) : generateSecret());
  return { auth: { ...auth, jwtSecret, clientTokenSecret }, generatedJwtSecret };
}
