// The checkout-reference rule every layer asks: `chk_…` is the initialization form, resolved by one
// fetch; a UUID (or another kind's reference) is already the form events and lists use, and costs nothing.
import { describe, expect, it } from 'vitest';
import { canonicalReference, isInitializationReference } from '../../src/upstream/checkout-reference.js';

const UUID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

describe('checkout references', () => {
  it('tells the initialization form from the UUID form', () => {
    expect(isInitializationReference('chk_0a1b2c')).toBe(true);
    expect(isInitializationReference(UUID)).toBe(false);
    expect(isInitializationReference('ch_123')).toBe(false);
  });

  it('resolves a chk_ checkout reference with one fetch, and nothing else', async () => {
    const fetched: string[] = [];
    const fetchCheckout = async (reference: string) => (fetched.push(reference), { reference: UUID });
    expect(await canonicalReference('checkout', 'chk_0a1b2c', fetchCheckout)).toBe(UUID);
    expect(await canonicalReference('checkout', UUID, fetchCheckout)).toBe(UUID);
    expect(await canonicalReference('charge', 'chk_not_a_checkout', fetchCheckout)).toBe('chk_not_a_checkout');
    expect(fetched).toEqual(['chk_0a1b2c']);
  });
});
