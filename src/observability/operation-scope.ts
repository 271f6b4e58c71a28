// The GraphQL operation a piece of work belongs to, carried along its async
// continuations (AsyncLocalStorage), so that a call to the payment service made
// deep inside a resolver, a DataLoader batch or an idempotent run is counted in
// its operation's log line and traced as a child of its span, without passing
// anything through the layers below.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Span } from '@opentelemetry/api';

/** What a call to the service made during an operation adds to it: the request id, the count of calls, the span, and typed errors. */
export interface OperationScope {
  requestId: string | null;
  /** Calls to the payment service made for this operation so far. */
  upstreamCalls: number;
  /** The operation's span, when tracing is on. */
  span: Span | null;
  /** Root fields (by response key) whose result was a typed error, with its code. */
  typedErrors: Map<string, string>;
  /** The operation has ended: work it started and that outlives it (a timer, a shared poller) is no longer its own. */
  done: boolean;
}

/** The span attribute that carries the request id (the `requestId` of log lines and masked errors). */
export const REQUEST_ID_ATTRIBUTE = 'gateway.request_id';

const storage = new AsyncLocalStorage<OperationScope>();
const untracedWork = new AsyncLocalStorage<true>();

/** The operation the current async context belongs to, while it runs. */
export function currentOperation(): OperationScope | undefined {
  const scope = storage.getStore();
  return scope?.done ? undefined : scope;
}

/** Runs `work` inside the operation's scope, so the calls it makes to the service are counted and traced as the operation's. */
export function runInOperation<T>(scope: OperationScope, work: () => T): T {
  return storage.run(scope, work);
}

/** Work whose calls to the payment service are counted but never traced (the readiness and health probes). */
export function runUntraced<T>(work: () => T): T {
  return untracedWork.run(true, work);
}

/** Whether the current work runs inside runUntraced (the readiness and health probes): its calls make no span. */
export function isUntraced(): boolean {
  return untracedWork.getStore() === true;
}
