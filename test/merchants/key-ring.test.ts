import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createKeyRing, keyVersion, SealedSecretError } from '../../src/merchants/index.js';

const kek = () => randomBytes(32);

describe('the key ring (envelope encryption of merchants’ secrets)', () => {
  it('seals a secret that only its own merchant’s id opens, under the current key', () => {
    const current = kek();
    const ring = createKeyRing(current);
    const sealed = ring.seal('mer_a', 'sk_test_secret_of_a');
    expect(sealed.kek).toBe(keyVersion(current));
    expect(JSON.stringify(sealed)).not.toContain('sk_test_secret_of_a');
    expect(ring.open('mer_a', sealed)).toBe('sk_test_secret_of_a');
    // A's ciphertext copied into B's record: both layers are bound to the merchant id.
    expect(() => ring.open('mer_b', sealed)).toThrow(SealedSecretError);
    // A's data key with B's own ciphertext does not open either.
    const ofB = ring.seal('mer_b', 'sk_test_secret_of_b');
    expect(() => ring.open('mer_a', { ...sealed, iv: ofB.iv, tag: ofB.tag, ct: ofB.ct })).toThrow(SealedSecretError);
  });

  it('refuses an altered ciphertext and says nothing of the secret or the key', () => {
    const ring = createKeyRing(kek());
    const sealed = ring.seal('mer_a', 'whsec_value');
    const flipped = Buffer.from(sealed.ct, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    const error = (() => {
      try {
        ring.open('mer_a', { ...sealed, ct: flipped.toString('base64') });
      } catch (err) {
        return err as Error;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(SealedSecretError);
    expect(error!.message).not.toContain('whsec_value');
  });

  it('opens with the previous key during a rotation, re-wraps to the current one, and refuses a retired key', () => {
    const old = kek();
    const next = kek();
    const sealed = createKeyRing(old).seal('mer_a', 'sk_live_abcd');
    const rotating = createKeyRing(next, old);
    expect(rotating.open('mer_a', sealed)).toBe('sk_live_abcd');
    const rewrapped = rotating.rewrap('mer_a', sealed);
    expect(rewrapped.kek).toBe(keyVersion(next));
    // Only the data key is re-wrapped: the secret's own ciphertext stays.
    expect(rewrapped.ct).toBe(sealed.ct);
    expect(rotating.rewrap('mer_a', rewrapped)).toBe(rewrapped);
    const after = createKeyRing(next);
    expect(after.open('mer_a', rewrapped)).toBe('sk_live_abcd');
    expect(() => after.open('mer_a', sealed)).toThrow(SealedSecretError);
  });
});
