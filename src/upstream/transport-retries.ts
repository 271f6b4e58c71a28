// A call's deadline and retries: one deadline for all attempts together; an idempotent call is retried on a
// fault safe to repeat and on HTTP 502/503/504, with jittered exponential backoff, while the deadline leaves room.
import type { HttpCall, HttpResponse } from './transport-types.js';
import { classify, transportFault } from './transport-faults.js';

const RETRY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

interface RetrySettings {
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
}

function backoff(settings: RetrySettings, n: number, deadline: number, signal: AbortSignal): Promise<boolean> {
  const ms = settings.retryBaseMs * 2 ** n * (0.5 + Math.random() * 0.5);
  if (Date.now() + ms >= deadline || signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(t);
      resolve(false);
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Attempts `call` until it answers, a fault may not be repeated, or the deadline passes; faults thrown as UpstreamCallError. */
export async function sendWithRetries(
  call: HttpCall,
  settings: RetrySettings,
  attempt: (signal: AbortSignal, onWritten: () => void) => Promise<HttpResponse>,
  redact: (text: string) => string,
): Promise<HttpResponse> {
  const deadline = Date.now() + settings.timeoutMs;
  const controller = new AbortController();
  let timedOut = false;
  let written = false;
  // undici also calls onConnect for a request aborted while queued (then does not write it): not written.
  const onWritten = () => {
    if (!controller.signal.aborted) written = true;
  };
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('deadline exceeded'));
  }, settings.timeoutMs);
  try {
    for (let n = 0; ; n++) {
      const mayRetry = call.idempotent && n < settings.maxRetries;
      let res: HttpResponse;
      try {
        res = await attempt(controller.signal, onWritten);
      } catch (err) {
        const c = timedOut
          ? written
            ? { fault: 'timeout' as const, sent: true, retryable: false, detail: '' }
            : { fault: 'timeout' as const, sent: false, retryable: false, detail: 'no connection was free' }
          : classify(err);
        if (mayRetry && c.retryable && (await backoff(settings, n, deadline, controller.signal))) continue;
        throw transportFault(
          c.fault,
          { idempotent: call.idempotent, sent: c.sent, detail: c.detail },
          { timeoutMs: settings.timeoutMs, redact },
        );
      }
      if (mayRetry && RETRY_STATUSES.has(res.statusCode) && (await backoff(settings, n, deadline, controller.signal))) continue;
      return res;
    }
  } finally {
    clearTimeout(timer);
  }
}
