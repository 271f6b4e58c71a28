// Shared plumbing for mutations: turn whatever a call throws into one of the
// typed errors the mutation lists (the errors plugin then returns it as a
// union member), and pass everything else on to be masked.
import { toPaymentError, type PaymentErrorClass } from './errors.js';

export async function withTypedErrors<T>(
  allowed: readonly PaymentErrorClass[],
  run: () => Promise<T>,
  context: { resource?: 'checkout' | 'charge' | 'transfer' | 'settlement'; reference?: string } = {},
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw toPaymentError(err, allowed, context);
  }
}

export const IDEMPOTENCY_KEY_DESCRIPTION =
  'Any unique string (a UUID) per intended operation. Sending the same request again with the same key returns the first result instead of moving money twice; reusing a key with different input is refused. Keys are kept 24 hours.';
