// What went wrong on the way to the payment service, as one UpstreamCallError UPSTREAM_UNAVAILABLE: the kind
// of fault, whether the request may have reached the service (so whether its outcome is unknown), and a detail
// with the API key and the base URL redacted.
import { UpstreamCallError, type TransportFault } from './call-error.js';

export interface FaultDetails {
  idempotent: boolean;
  httpStatus?: number | null;
  detail?: string;
  /** Whether the request may have reached the service (default true). */
  sent?: boolean;
}

interface Classified {
  fault: TransportFault;
  /** The request may have reached the service. */
  sent: boolean;
  /** Safe to repeat for an idempotent call. */
  retryable: boolean;
  detail: string;
}

/** Replaces the API key and the base URL (in each of its spellings) in text that will end up in an error. */
export function redactor(apiKey: string, baseUrl: string, url: URL): (text: string) => string {
  const secrets = [apiKey, baseUrl, baseUrl.replace(/\/+$/, ''), url.origin, url.host]
    .filter((s) => s.length >= 4)
    .sort((a, b) => b.length - a.length);
  return (text) => secrets.reduce((t, s) => t.split(s).join('[redacted]'), text);
}

export function transportFault(
  kind: TransportFault,
  details: FaultDetails,
  settings: { timeoutMs: number; redact: (text: string) => string },
): UpstreamCallError {
  const neverSent = details.sent === false;
  const outcomeUnknown = !details.idempotent && !neverSent;
  const base = FAULT_MESSAGES[kind](settings.timeoutMs, details.httpStatus ?? null);
  const detail = details.detail ? ` (${settings.redact(details.detail)})` : '';
  const suffix = outcomeUnknown ? '; the request may have been carried out' : neverSent ? '; the request was not sent' : '';
  return new UpstreamCallError({
    code: 'UPSTREAM_UNAVAILABLE',
    message: `${base}${detail}${suffix}`,
    httpStatus: details.httpStatus ?? null,
    fault: kind,
    outcomeUnknown,
    neverSent,
  });
}

const FAULT_MESSAGES: Record<TransportFault, (timeoutMs: number, status: number | null) => string> = {
  refused: () => 'Payment service unreachable',
  timeout: (ms) => `Payment service did not answer within ${ms} ms`,
  reset: () => 'Connection to the payment service was lost',
  bad_body: () => 'Payment service sent an unreadable response',
  http_status: (_ms, status) => `Payment service answered HTTP ${status ?? '?'} without a response body`,
};

/** Every `code` found on an error, its cause chain and AggregateError members. */
function errorCodes(err: unknown, depth = 0): string[] {
  if (depth > 4 || typeof err !== 'object' || err === null) return [];
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof e.code === 'string' ? [e.code] : [];
  const members = Array.isArray(e.errors) ? e.errors.flatMap((x) => errorCodes(x, depth + 1)) : [];
  return [...own, ...members, ...errorCodes(e.cause, depth + 1)];
}

const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
const CLOSED = new Set(['UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'UND_ERR_ABORTED']);

export function classify(err: unknown): Classified {
  const codes = errorCodes(err);
  const has = (set: ReadonlySet<string>) => codes.find((c) => set.has(c));
  let code: string | undefined;
  if ((code = has(NOT_SENT))) return { fault: 'refused', sent: false, retryable: true, detail: code };
  if ((code = has(CLOSED))) return { fault: 'refused', sent: false, retryable: false, detail: 'client closed' };
  if (codes.includes('UND_ERR_CONNECT_TIMEOUT')) return { fault: 'timeout', sent: false, retryable: true, detail: 'connect' };
  if (codes.includes('UND_ERR_HEADERS_TIMEOUT') || codes.includes('UND_ERR_BODY_TIMEOUT') || codes.includes('ETIMEDOUT')) {
    return { fault: 'timeout', sent: true, retryable: false, detail: '' };
  }
  if ((code = has(RESET))) return { fault: 'reset', sent: true, retryable: true, detail: code };
  if (codes.includes('UND_ERR_RES_EXCEEDED_MAX_SIZE'))
    return { fault: 'bad_body', sent: true, retryable: false, detail: 'response too large' };
  if ((code = codes.find((c) => c.startsWith('HPE_'))))
    return { fault: 'bad_body', sent: true, retryable: false, detail: 'malformed HTTP response' };
  // Unknown: assume the worst (it may have been sent) and do not repeat it.
  return { fault: 'reset', sent: true, retryable: false, detail: codes[0] ?? 'unexpected transport error' };
}
