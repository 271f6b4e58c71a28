// Checkouts: initialization (returns the chk_ reference and the payment page
// address), the UUID form everywhere else, and the link to the charge that pays it.
import type { SandboxContext } from './context.js';
import { ApiError, invalidData } from './http.js';
import { newCheckoutPublicReference, newUuid } from './ids.js';
import type { Account, ChargeRecord, CheckoutRecord } from './store.js';
import { isoOffset, isoZ } from './timestamps.js';
import { ErrorCollector, dictExpected, isPlainObject, parseAmount, parseHttpUrl, parseString } from './validation.js';

export const CHECKOUT_NOT_FOUND_MESSAGE = 'Checkout not found';

/** Fetch and list form (also the webhook payload): always the UUID reference. */
export function checkoutView(c: CheckoutRecord) {
  return {
    reference: c.uuid,
    email: c.email,
    charge_reference: c.chargeReference,
    amount: c.amount,
    success_url: c.successUrl,
    cancel_url: c.cancelUrl,
    phone: c.phone,
    provider: c.provider,
    live_mode: false,
    created_at: isoZ(c.createdAt),
    updated_at: isoOffset(c.updatedAt),
    status: c.status,
  };
}

export function checkoutPagePath(c: CheckoutRecord): string {
  return `/checkout/${c.publicReference}`;
}

export function initializeCheckout(ctx: SandboxContext, account: Account, raw: unknown) {
  if (!isPlainObject(raw)) throw invalidData(dictExpected(raw));
  const errors = new ErrorCollector();
  const amount = errors.take('amount', parseAmount(raw.amount, 1));
  const successUrl = errors.take('success_url', parseHttpUrl(raw.success_url));
  const cancelUrl = errors.take('cancel_url', parseHttpUrl(raw.cancel_url));
  const email = errors.take('email', parseString(raw.email, { required: false }));
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.add('email', 'Enter a valid email address.');
  if (!errors.empty) throw invalidData(errors.errors);

  const now = ctx.clock.now();
  const checkout: CheckoutRecord = {
    seq: account.nextSeq(),
    uuid: newUuid(),
    publicReference: newCheckoutPublicReference(),
    amount: amount!,
    email: email ?? null,
    successUrl: successUrl!,
    cancelUrl: cancelUrl!,
    phone: '',
    provider: '',
    chargeReference: null,
    status: 'pending',
    createdAt: now,
    updatedAt: now,
  };
  account.checkouts.set(checkout.uuid, checkout);
  ctx.accounts.indexCheckout(account, checkout);
  ctx.emit('checkout.pending', checkoutView(checkout), account);
  return {
    reference: checkout.publicReference,
    authorization_url: `${ctx.baseUrl()}${checkoutPagePath(checkout)}`,
    live_mode: false,
  };
}

/** Either reference form, within the caller's own account. */
export function findCheckout(ctx: SandboxContext, account: Account, reference: string): CheckoutRecord {
  const found = ctx.accounts.findCheckout(reference);
  if (!found || found.account !== account) throw new ApiError(404, CHECKOUT_NOT_FOUND_MESSAGE);
  return found.checkout;
}

export function attachCharge(ctx: SandboxContext, checkout: CheckoutRecord, charge: ChargeRecord): void {
  checkout.chargeReference = charge.reference;
  checkout.phone = charge.phone;
  checkout.provider = charge.provider;
  checkout.updatedAt = ctx.clock.now();
}

/** A checkout follows its charge's final status. */
export function settleCheckoutOfCharge(ctx: SandboxContext, account: Account, charge: ChargeRecord): void {
  if (!charge.checkoutUuid) return;
  const checkout = account.checkouts.get(charge.checkoutUuid);
  if (!checkout || checkout.status !== 'pending') return;
  if (charge.status !== 'success' && charge.status !== 'failed') return;
  checkout.status = charge.status;
  checkout.updatedAt = ctx.clock.now();
  ctx.emit(checkout.status === 'success' ? 'checkout.success' : 'checkout.failed', checkoutView(checkout), account);
}
