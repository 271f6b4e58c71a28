// Envelope encryption of a merchant's secrets (its API key, its webhook secret, its endpoints' signing secrets).
// Each secret gets its own data key (AES-256-GCM, node:crypto); the data key is wrapped by the key-encryption key
// (MERCHANT_KEYS_KEK), and both layers carry the merchant's id as authenticated data, so a ciphertext copied into
// another merchant's record fails to open. A rotation re-wraps data keys only (`rewrap`): the secret's own
// ciphertext never changes, and MERCHANT_KEYS_KEK_PREVIOUS still opens what the rotation has not reached yet.
// node:crypto rather than a library: AES-GCM with AAD is two calls there, and the format below is ours to keep.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { InternalError } from '../errors/internal-error.js';

/** A secret as stored: every field base64 but `kek`, the version (fingerprint) of the key that wrapped its data key. */
export interface SealedSecret {
  /** Which key-encryption key wrapped `dek`: the first 16 hex digits of its SHA-256 (never the key). */
  kek: string;
  /** The data key, wrapped: iv, tag and ciphertext of AES-256-GCM under the key-encryption key. */
  dek: { iv: string; tag: string; ct: string };
  /** The secret under the data key. */
  iv: string;
  tag: string;
  ct: string;
}

/** A secret that does not open: another merchant's, altered, or under a key-encryption key no longer configured. */
export class SealedSecretError extends InternalError {
  override readonly name = 'SealedSecretError';
  readonly code = 'MERCHANT_SECRET_UNREADABLE';
}

/** Seals and opens merchants' secrets under the current key-encryption key, opening with the previous one too. */
export interface KeyRing {
  /** The version of the current key-encryption key (what `seal` and `rewrap` write). */
  readonly currentVersion: string;
  seal(merchantId: string, secret: string): SealedSecret;
  /** The secret; SealedSecretError when it was sealed for another merchant, altered, or under an unknown key. */
  open(merchantId: string, sealed: SealedSecret): string;
  /** The same secret with its data key wrapped by the current key (itself when it already is). */
  rewrap(merchantId: string, sealed: SealedSecret): SealedSecret;
}

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;

/** The version of a key-encryption key: a fingerprint that names it in records without revealing it. */
export function keyVersion(kek: Buffer): string {
  return createHash('sha256').update('momo-gateway merchant kek').update(kek).digest('hex').slice(0, 16);
}

function encrypt(key: Buffer, plain: Buffer, aad: Buffer): { iv: string; tag: string; ct: string } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv).setAAD(aad);
  const ct = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), ct: ct.toString('base64') };
}

function decrypt(key: Buffer, box: { iv: string; tag: string; ct: string }, aad: Buffer): Buffer {
  try {
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(box.iv, 'base64')).setAAD(aad);
    decipher.setAuthTag(Buffer.from(box.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(box.ct, 'base64')), decipher.final()]);
  } catch (err) {
    // Node's message says only that authentication failed; nothing of the key or the secret.
    throw new SealedSecretError('a merchant secret did not open (another merchant’s, altered, or under an unknown key)', { cause: err });
  }
}

/** The authenticated data of both layers: the merchant's id, under a label of its own. */
const aadOf = (merchantId: string, layer: 'dek' | 'secret') => Buffer.from(`momo-gateway/${layer}/${merchantId}`, 'utf8');

/** A key ring of the current key-encryption key and, during a rotation, the previous one. */
export function createKeyRing(current: Buffer, previous: Buffer | null = null): KeyRing {
  const currentVersion = keyVersion(current);
  const keys = new Map<string, Buffer>([[currentVersion, current]]);
  if (previous) keys.set(keyVersion(previous), previous);
  const kekOf = (sealed: SealedSecret): Buffer => {
    const kek = keys.get(sealed.kek);
    if (!kek) throw new SealedSecretError('a merchant secret is under a key-encryption key that is not configured');
    return kek;
  };
  const wrap = (merchantId: string, dek: Buffer) => encrypt(current, dek, aadOf(merchantId, 'dek'));
  return {
    currentVersion,
    seal(merchantId, secret) {
      const dek = randomBytes(32);
      try {
        return {
          kek: currentVersion,
          dek: wrap(merchantId, dek),
          ...encrypt(dek, Buffer.from(secret, 'utf8'), aadOf(merchantId, 'secret')),
        };
      } finally {
        dek.fill(0);
      }
    },
    open(merchantId, sealed) {
      const dek = decrypt(kekOf(sealed), sealed.dek, aadOf(merchantId, 'dek'));
      try {
        return decrypt(dek, sealed, aadOf(merchantId, 'secret')).toString('utf8');
      } finally {
        dek.fill(0);
      }
    },
    rewrap(merchantId, sealed) {
      if (sealed.kek === currentVersion) return sealed;
      const dek = decrypt(kekOf(sealed), sealed.dek, aadOf(merchantId, 'dek'));
      try {
        return { ...sealed, kek: currentVersion, dek: wrap(merchantId, dek) };
      } finally {
        dek.fill(0);
      }
    },
  };
}
