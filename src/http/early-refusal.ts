// A flood's refusals written before yoga. Once this replica knows from memory that a caller or its merchant is
// over its budget (src/limits/early-refusals.ts), its next query still cost about 600 µs of the gateway's CPU when
// refused in yoga's onParams: a Fetch Request made of the Node one, yoga's plugin chain, a GraphQLError, a Fetch
// Response written back to Node. A merchant flooding at 50 times its budget then took a whole core from the
// merchants beside it. Here, between the body's admission and yoga, the same answer costs little more than
// Node's own HTTP parsing and write.
//
// Only what this answer can match exactly is refused here: a JSON POST that accepts JSON (yoga's answer is then
// `application/json`, 429, Retry-After and the error without its internal `http` extension), with no Origin (a
// browser's answer carries yoga's CORS headers), whose body holds a query text that cannot be a mutation (a
// mutation over its limit answers its typed RateLimitedError, in its payload). Everything else goes on to yoga,
// where useEarlyRefusals makes the same decision. The caller established here is the one yoga's context reuses
// (src/http/http-callers.ts): a request that is not refused has its token verified once, as before.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { earlyRefusalWait, rateLimitedAnswer, refusableEarly, type RateLimits } from '../limits/index.js';
import { nodeHeaders, type HttpCallerOf } from './http-callers.js';

/** Accept values whose answer yoga writes as `application/json` (no Accept at all counts as any type). */
const JSON_ACCEPTS = new Set(['', '*/*', 'application/json', 'application/json;charset=utf-8']);

/** The body's query text when it is a single operation's JSON with a text that cannot be a mutation; else null. */
function refusableQuery(body: Buffer | undefined): string | null {
  if (!body || body.length === 0) return null;
  const text = body.toString('utf8');
  // The cheap test first: most of a flood's bodies are refused or let through without being parsed twice.
  if (text.includes('mutation')) return null;
  let params: unknown;
  try {
    params = JSON.parse(text);
  } catch {
    return null; // yoga answers its own 400
  }
  const query = (params as { query?: unknown } | null)?.query;
  return params !== null && typeof params === 'object' && !Array.isArray(params) && refusableEarly(query) ? query : null;
}

/** Whether the request is one whose early answer is written here (see the head of this file). */
function answerableHere(req: IncomingMessage): boolean {
  if (req.method !== 'POST' || req.headers.origin !== undefined) return false;
  if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) return false;
  return JSON_ACCEPTS.has((req.headers.accept ?? '').replace(/\s/g, '').toLowerCase());
}

/**
 * The refusal before yoga: resolves true when it answered the request (429 RATE_LIMITED, counted as an early
 * refusal), false when yoga must serve it. Never rejects: a caller that cannot be told (a token that does not
 * verify, a merchant that is not the caller's) goes on to yoga, which gives its own answer.
 */
export function refuseEarlyBeforeYoga(
  rateLimits: RateLimits,
  callerOf: HttpCallerOf,
): (req: IncomingMessage & { body?: Buffer }, res: ServerResponse) => Promise<boolean> {
  return async (req, res) => {
    if (!rateLimits.refusing() || !answerableHere(req) || refusableQuery(req.body) === null) return false;
    const caller = await callerOf(nodeHeaders(req), req).catch(() => null);
    const waitMs = caller ? earlyRefusalWait(rateLimits, { ...caller, merchantId: caller.merchant?.id ?? null }) : 0;
    if (waitMs <= 0) return false;
    rateLimits.refusedEarly();
    const answer = rateLimitedAnswer(waitMs);
    res.writeHead(answer.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(answer.body),
      'retry-after': answer.retryAfter,
    });
    res.end(answer.body);
    return true;
  };
}
