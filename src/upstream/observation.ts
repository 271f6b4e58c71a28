// What the client reports about each call to the payment service, for metrics,
// traces and per-operation logs kept by higher layers (src/observability/),
// which hand in a callback: this layer imports none of them.
//
// Calls are named by route TEMPLATE (`GET /v1/payment/charges/{reference}`, see
// endpointOf in ./operations.ts), never by the path actually called: a reference
// in a label would give every payment its own time series.
import { UpstreamCallError } from './call-error.js';
import type { Operation } from './types.js';

/** One call to the service as metrics and traces see it: route template, outcome, duration. */
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

/** A bounded label for how a call ended. */
export function callOutcome(err: unknown): string {
  if (!(err instanceof UpstreamCallError)) return 'error';
  return err.fault ?? err.code;
}
