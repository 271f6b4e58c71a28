// Object refs shared across domain modules, so a module can point at another
// domain's type (Checkout.charge, PaymentEvent.transfer...) without importing
// that module and creating a cycle. Each domain module implements its ref.
import type { Charge, Checkout, Settlement, Transfer } from '../upstream/types.js';
import { builder } from './builder.js';

export const CheckoutRef = builder.objectRef<Checkout>('Checkout');
export const ChargeRef = builder.objectRef<Charge>('Charge');
export const TransferRef = builder.objectRef<Transfer>('Transfer');
export const SettlementRef = builder.objectRef<Settlement>('Settlement');
