// Object refs shared across domain modules, so a module can point at another
// domain's type (Checkout.charge, PaymentEvent.transfer...) without importing
// that module and creating a cycle. Each domain module implements its ref.
import type { Charge, Checkout, Settlement, Transfer } from '../upstream/types.js';
import { builder } from './builder.js';

/** The GraphQL `Checkout` type's reference, implemented in checkout.ts. */
export const CheckoutRef = builder.objectRef<Checkout>('Checkout');
/** The GraphQL `Charge` type's reference, implemented in charge.ts. */
export const ChargeRef = builder.objectRef<Charge>('Charge');
/** The GraphQL `Transfer` type's reference, implemented in transfer.ts. */
export const TransferRef = builder.objectRef<Transfer>('Transfer');
/** The GraphQL `Settlement` type's reference, implemented in settlement.ts. */
export const SettlementRef = builder.objectRef<Settlement>('Settlement');
