// What the client reports about each call to the payment service, for metrics,
// traces and per-operation logs kept by higher layers (src/observability/),
// which hand in a callback: this layer imports none of them.
//
// Calls are named by route TEMPLATE (`GET /v1/payment/charges/{reference}`),
// never by the path actually called: a reference in a label would give every
// payment its own time series.
import { UpstreamCallError } from './errors.js';
import type { Operation } from './failure.js';

export interface UpstreamCallObservation {
  operation: Operation;
  /** Method and route template, e.g. `POST /v1/payment/charges/`. */
  endpoint: string;
  /** `success`, the call's error code (e.g. `INSUFFICIENT_FUNDS`), or the transport fault (`timeout`, `refused`, ...). */
  outcome: string;
  /** Epoch milliseconds when the call started (retries of a GET included in the one call). */
  startedAt: number;
  durationMs: number;
}

export type UpstreamObserver = (call: UpstreamCallObservation) => void;

export const ENDPOINTS: Readonly<Record<Operation, string>> = {
  initializeCheckout: 'POST /v1/payment/checkouts/initialize/',
  fetchCheckout: 'GET /v1/payment/checkouts/{reference}',
  listCheckouts: 'GET /v1/payment/checkouts',
  createCharge: 'POST /v1/payment/charges/',
  submitChargeOtp: 'POST /v1/payment/charges/submit',
  fetchCharge: 'GET /v1/payment/charges/{reference}',
  listCharges: 'GET /v1/payment/charges',
  fetchBalance: 'GET /v1/payment/balances',
  createTransfer: 'POST /v1/payment/transfers/',
  createBulkTransfer: 'POST /v1/payment/transfers/bulk/',
  listTransfers: 'GET /v1/payment/transfers',
  fetchTransfer: 'GET /v1/payment/transfers/{reference}',
  createSettlement: 'POST /v1/payment/settlements/',
  fetchSettlement: 'GET /v1/payment/settlements/{reference}',
  listSettlements: 'GET /v1/payment/settlements',
  cancelSettlement: 'GET /v1/payment/settlements/{reference}/cancel/',
};

/** A bounded label for how a call ended. */
export function callOutcome(err: unknown): string {
  if (!(err instanceof UpstreamCallError)) return 'error';
  return err.fault ?? err.code;
}
