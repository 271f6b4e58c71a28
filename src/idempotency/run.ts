// Runs one money-moving mutation under its idempotency key, so that no retry,
// fault or restart makes a payment twice:
//
// 1. Once the call may have reached the service, the key is never released.
//    A success is saved with retries; if that fails the key is marked unknown
//    (with its meta, e.g. the ext_id sent), and failing even that the pending
//    claim stays (it reads as unknown once expired). The client still gets the
//    success it earned.
// 2. An ambiguous failure (see mayHaveReachedService) keeps the key as unknown
//    and is rethrown marked `outcomeUnknown`, so the client retries with the
//    same key. Only an explicit refusal by the service, or a connection refused
//    before anything was sent, releases the key.
// 3. Whenever the key is not clean (unknown outcome, an expired pending claim,
//    or a store that may have lost it) `reconcile` looks for the request at
//    the service before anything is sent again; what it finds is the result.
//    An operation without `reconcile` whose store is known to have lost keys
//    (Redis restarted empty, evictions) is refused as outcome_unknown.
// 4. An unknown key that reconcile cannot find is refused (in progress) for
//    `settleWindowMs` after the outcome became unknown, since the request may
//    not be visible in the service's list yet. After that, not found means
//    never arrived, and the request is sent again with the same meta (so the
//    same ext_id: the service's uniqueness of ext_id still stops a very late
//    duplicate of a transfer).
// 5. A claim names its holder and the deadline of its call (see store.ts): a
//    retry on any replica that finds it held by a replica that is gone, past
//    that deadline, looks the request up at once, by rule 4 (the settle window
//    counts from the deadline). A live holder keeps its claim (in progress).
// 6. The store failing (Redis down) is a ServiceUnavailableError before
//    anything is sent: a mutation never runs without its guard.
import { createHash } from 'node:crypto';
import { IdempotencyConflictError, ValidationError } from '../errors/payment-errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { UpstreamCallError } from '../upstream/call-error.js';
import { isRefusal } from '../upstream/operations.js';
import { CALL_START_SLACK_MS, type ClaimResult, type IdempotencyStore, type Meta } from './store.js';

/** The longest idempotency key accepted; a longer (or empty) one is refused with a ValidationError. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/**
 * How long, by default, an unknown key that reconcile cannot find is refused as in progress (the request may not be listed yet), before it
 * is taken as not arrived and is sent again.
 */
export const DEFAULT_SETTLE_WINDOW_MS = 60_000;
/** Attempts at saving a result (the first included), and the pause before each retry. */
const SAVE_BACKOFF_MS = [0, 20, 100];

interface IdempotentRun<T> {
  store: IdempotencyStore;
  /** Who asks (e.g. the token's subject): two callers with the same key neither collide nor see each other's results. */
  principal: string;
  /** Mutation name: one key cannot collide across operations. */
  operation: string;
  key: string;
  /** The input that defines "the same request" (without the key itself). */
  input: unknown;
  /** What reconcile needs to find this request at the service (e.g. the ext_id it sends). Kept with the key. */
  meta?: Meta;
  /**
   * The call to the service. Throw its UpstreamCallError as is: the classification depends on it. `startBy`: the
   * claim's deadline counts on the call starting by then (Date.now() ms); one that cannot must not be made.
   */
  execute: (call: { startBy: number }) => Promise<T>;
  /** How long after the claim the call may still start (e.g. waiting for a pacing slot). Default 0 (at once). */
  startWithinMs?: number;
  /**
   * Looks the request up at the service by `meta`: its result if it was carried
   * out, null if it cannot be found. Without it, an unknown outcome can only be
   * refused, and a possibly lost key is not checked. `settled`: the settle
   * window of an unknown outcome is over, so what is not found now never
   * arrived (a request made of parts, a bulk, may then answer with what it
   * found and report the rest as not sent).
   */
  reconcile?: (meta: Meta, settled: boolean) => Promise<T | null>;
  /** See rule 4 above (IDEMPOTENCY_SETTLE_MS). Default 60 s. */
  settleWindowMs?: number;
  log?: Logger;
}

/**
 * Runs one money-moving call under its idempotency key: replays a saved success, refuses other input
 * (IdempotencyConflictError), looks up an unknown outcome before sending again, and never releases a key once the
 * call may have reached the service. Throws ServiceUnavailableError when the store is down, before anything is
 * sent.
 */
export async function runIdempotent<T>(run: IdempotentRun<T>): Promise<T> {
  checkKey(run.key);
  const key = scopedKey(run.principal, run.operation, run.key);
  const fingerprint = createHash('sha256').update(stableJson(run.input)).digest('hex');
  const meta = run.meta ?? {};
  const claimedAt = Date.now();
  const claim = await run.store.claim(key, fingerprint, meta, claimOptions(run));
  switch (claim.kind) {
    case 'replay':
      return claim.value as T;
    case 'conflict':
      throw new IdempotencyConflictError('different_input');
    case 'in_progress':
      throw new IdempotencyConflictError('in_progress', claim.retryAfterMs);
    case 'unknown':
      return settleUnknown(run, key, fingerprint, claim);
    case 'claimed':
      return sendClaimed(run, key, fingerprint, meta, claim, claimedAt);
  }
}

async function sendClaimed<T>(
  run: IdempotentRun<T>,
  key: string,
  fingerprint: string,
  meta: Meta,
  claim: Extract<ClaimResult, { kind: 'claimed' }>,
  claimedAt: number,
): Promise<T> {
  // The store lost keys within a key lifetime: this may be the retry of a request it forgot. Without a
  // way to look that request up, sending could make the payment twice: refused for good, like any
  // unknown outcome that cannot be checked.
  if (claim.lost && !run.reconcile) {
    await quietly(run, 'markUnknown', () => run.store.markUnknown(key, fingerprint, meta));
    throw new IdempotencyConflictError('outcome_unknown');
  }
  if (!claim.clean && run.reconcile) {
    let found: T | null;
    try {
      // No time is known for a key the store may have lost: nothing counts as settled.
      found = await run.reconcile(meta, false);
    } catch (err) {
      // Nothing was sent: the key may go back to free.
      await quietly(run, 'release', () => run.store.release(key));
      throw err;
    }
    if (found !== null) return save(run, key, fingerprint, meta, found);
  }
  return send(run, key, fingerprint, meta, claimedAt, claim.token);
}

async function settleUnknown<T>(
  run: IdempotentRun<T>,
  key: string,
  fingerprint: string,
  claim: Extract<ClaimResult, { kind: 'unknown' }>,
): Promise<T> {
  // Cannot be checked: only a person looking at the service's lists can tell.
  if (!run.reconcile) throw new IdempotencyConflictError('outcome_unknown');
  const settleLeftMs = (run.settleWindowMs ?? DEFAULT_SETTLE_WINDOW_MS) - claim.unknownForMs;
  const found = await run.reconcile(claim.meta, settleLeftMs <= 0);
  if (found !== null) return save(run, key, fingerprint, claim.meta, found);
  // Not visible yet is not the same as never arrived: the client is told to retry shortly, with the same key.
  if (settleLeftMs > 0) throw new IdempotencyConflictError('in_progress', settleLeftMs);
  // Another retry took the key at the same moment and is sending it: its answer comes within a call's time.
  const reclaimedAt = Date.now();
  if (!(await run.store.reclaim(key, claim.token, fingerprint, claim.meta, claimOptions(run))))
    throw new IdempotencyConflictError('in_progress', null);
  return send(run, key, fingerprint, claim.meta, reclaimedAt);
}

function claimOptions(run: IdempotentRun<unknown>) {
  return { startWithinMs: run.startWithinMs ?? 0 };
}

/**
 * Makes the call under the claim taken at `claimedAt` (measured before it was written: the store's deadline is later
 * on any clock). A claim whose look-up took longer than the call's start allowed for gets its deadline again from now
 * (`token`), or, taken meanwhile by a retry that found this replica gone, is left to it.
 */
async function send<T>(run: IdempotentRun<T>, key: string, fingerprint: string, meta: Meta, claimedAt: number, token?: string): Promise<T> {
  let startBy = claimedAt + (run.startWithinMs ?? 0) + CALL_START_SLACK_MS;
  if (token !== undefined && Date.now() > startBy) {
    const renewedAt = Date.now();
    if (!(await run.store.reclaim(key, token, fingerprint, meta, claimOptions(run))))
      throw new IdempotencyConflictError('in_progress', null);
    startBy = renewedAt + (run.startWithinMs ?? 0) + CALL_START_SLACK_MS;
  }
  let value: T;
  try {
    value = await run.execute({ startBy });
  } catch (err) {
    if (!mayHaveReachedService(err)) {
      await quietly(run, 'release', () => run.store.release(key));
      throw err;
    }
    // If even this fails, the pending claim stays and reads as unknown once expired.
    await quietly(run, 'markUnknown', () => run.store.markUnknown(key, fingerprint, meta));
    throw withOutcomeUnknown(err);
  }
  return save(run, key, fingerprint, meta, value);
}

/** Saves a result the client has earned; never throws (the money moved whatever the store says). */
async function save<T>(run: IdempotentRun<T>, key: string, fingerprint: string, meta: Meta, value: T): Promise<T> {
  let lastError: unknown;
  for (const pause of SAVE_BACKOFF_MS) {
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    try {
      await run.store.complete(key, fingerprint, value);
      return value;
    } catch (err) {
      lastError = err;
    }
  }
  (run.log ?? silentLogger).error('idempotency result not saved; key marked unknown', { operation: run.operation, error: lastError });
  await quietly(run, 'markUnknown', () => run.store.markUnknown(key, fingerprint, meta));
  return value;
}

async function quietly(run: IdempotentRun<unknown>, step: string, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (err) {
    (run.log ?? silentLogger).error('idempotency store step failed', { operation: run.operation, step, error: err });
  }
}

/**
 * Whether a failed money-moving call may have been carried out by the service.
 * True unless the service explicitly refused it (a code an operation declares a
 * refusal, src/upstream/operations.ts, answered below HTTP 500, with no
 * transport fault) or the request provably never left
 * (connection refused, still waiting for a pooled connection at its deadline). Anything else that is not an UpstreamCallError (a bug in
 * or around the call) counts as "may have": we cannot prove otherwise.
 */
export function mayHaveReachedService(err: unknown): boolean {
  if (!(err instanceof UpstreamCallError)) return true;
  if (err.outcomeUnknown) return true;
  if (err.fault === 'refused' || err.neverSent) return false;
  if (err.fault !== null) return true;
  if (err.httpStatus !== null && err.httpStatus >= 500) return true;
  return !isRefusal(err.code);
}

/** The same UpstreamCallError, marked outcomeUnknown: the client must retry with the same key. */
function withOutcomeUnknown(err: unknown): unknown {
  if (!(err instanceof UpstreamCallError) || err.outcomeUnknown) return err;
  return new UpstreamCallError({
    code: err.code,
    message: err.message,
    httpStatus: err.httpStatus,
    fieldErrors: err.fieldErrors,
    upstreamCode: err.upstreamCode,
    fault: err.fault,
    outcomeUnknown: true,
    cause: err,
  });
}

function checkKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ValidationError([{ path: ['idempotencyKey'], message: `Must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.` }]);
  }
}

/** `<principal>:<operation>:<key>`; the principal is escaped so its own colons cannot forge another's prefix. */
export function scopedKey(principal: string, operation: string, key: string): string {
  if (!principal) throw new TypeError('an idempotent run needs a principal');
  if (!/^\w+$/.test(operation)) throw new TypeError(`invalid operation name: ${operation}`);
  return `${encodeURIComponent(principal)}:${operation}:${key}`;
}

/** JSON with sorted keys, so {a,b} and {b,a} are the same request. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
