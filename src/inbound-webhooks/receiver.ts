// The webhook endpoint, at node:http level so it can be mounted in front of
// (or beside) the GraphQL server without a framework.
//
// Order of checks, cheapest and least trusting first:
//   method (405) -> content type (415) -> signature header present (400)
//   -> declared size (413) -> bounded read (413) -> signature (400)
//   -> JSON object (400) -> de-duplicate and append to the event log, in one atomic step -> 200.
// Nothing from an unverified body is logged beyond its length. The payment
// service is never called here: the record is published and the request ends.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SignatureScheme } from '../config.js';
import type { Logger } from '../logger.js';
import type { EventBus } from '../events/bus.js';
import type { LoggedPaymentEvent, PaymentEventRecord } from '../events/payment-event.js';
import { encodeEventId } from '../events/stream-id.js';
import { isObject, toPaymentEventRecord } from './event.js';
import { verifySignature } from './signature.js';
import { InvalidArgumentError } from '../errors/internal-error.js';

const DEFAULT_MAX_WEBHOOK_BYTES = 1024 * 1024;
/** How long a delivery id is remembered as seen (a re-send within it is answered as a duplicate). */
export const DEFAULT_DEDUPE_TTL_MS = 24 * 60 * 60 * 1000;

/** What `accept` answers: whether the delivery was seen before, and the event's log id when known. */
export type Acceptance = { duplicate: boolean; seq: string | null; generation?: string | null };

/** What the webhook receiver needs: the signing secret and scheme, and how to accept an event into the log. */
export interface WebhookHandlerDeps {
  secret: string;
  scheme: SignatureScheme;
  /**
   * De-duplicates and appends to the log in one atomic step (`seq`: the event's log id, when known); rejects
   * when it cannot (the answer is then 503). Production's is acceptIntoLog.
   */
  accept: (event: PaymentEventRecord) => Promise<Acceptance>;
  log: Logger;
  maxBytes?: number;
  now?: () => Date;
  /** Told what happens to each delivery (metrics): received, then verified (and maybe duplicate), or rejected (a 4xx). */
  observe?: (event: WebhookEvent) => void;
}

type WebhookEvent = 'received' | 'verified' | 'duplicate' | 'rejected';

type WebhookHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The handler of `POST /webhooks/payment`: verifies the signature on the raw bytes, appends the event to the log
 * once, and answers 200 only then (503 when it cannot be logged).
 */
export function createWebhookHandler(deps: WebhookHandlerDeps): WebhookHandler {
  if (deps.secret.length === 0) throw new InvalidArgumentError('webhook secret must not be empty');
  const maxBytes = deps.maxBytes ?? DEFAULT_MAX_WEBHOOK_BYTES;
  const now = deps.now ?? (() => new Date());
  const { log } = deps;
  const observe = (event: WebhookEvent) => {
    try {
      deps.observe?.(event);
    } catch {
      // Bookkeeping must never change the answer to the sender.
    }
  };

  return async function handleWebhook(req, res) {
    observe('received');
    res.once('finish', () => {
      if (res.statusCode >= 400 && res.statusCode < 500) observe('rejected');
    });
    try {
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST');
        return reply(req, res, 405, { ok: false, error: 'method_not_allowed' });
      }
      if (!isJsonContentType(req.headers['content-type'])) {
        return reply(req, res, 415, { ok: false, error: 'unsupported_media_type' });
      }
      const header = singleHeader(req.headers['x-webhook-hash']);
      if (header === undefined || header.trim() === '') {
        log.warn('webhook rejected', { reason: 'missing_signature' });
        return reply(req, res, 400, { ok: false, error: 'invalid_signature' });
      }
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        log.warn('webhook rejected', { reason: 'too_large', bytes: declared });
        return reply(req, res, 413, { ok: false, error: 'payload_too_large' });
      }

      const read = await readBody(req, maxBytes);
      if (read.kind === 'too_large') {
        log.warn('webhook rejected', { reason: 'too_large', bytes: read.bytes });
        return reply(req, res, 413, { ok: false, error: 'payload_too_large' });
      }
      if (read.kind === 'aborted') {
        // The client went away; there is no one to answer.
        log.debug('webhook request aborted', { bytes: read.bytes });
        return;
      }
      const raw = read.body;

      if (!verifySignature(raw, header, deps.secret, deps.scheme)) {
        log.warn('webhook rejected', { reason: 'bad_signature', bytes: raw.length });
        return reply(req, res, 400, { ok: false, error: 'invalid_signature' });
      }
      observe('verified');

      const body = parseJsonObject(raw);
      if (body === undefined) {
        log.warn('webhook rejected', { reason: 'not_a_json_object', bytes: raw.length });
        return reply(req, res, 400, { ok: false, error: 'invalid_payload' });
      }

      const record = toPaymentEventRecord(body, raw, now());
      const fields = { id: record.id, kind: record.kind, reference: record.reference };

      // De-duplicated and appended in one atomic step: nothing is ever marked seen without being logged.
      let accepted: Acceptance;
      try {
        accepted = await deps.accept(record);
      } catch (err) {
        log.error('webhook append failed', { ...fields, error: err });
        return reply(req, res, 503, { ok: false, error: 'temporarily_unavailable' });
      }
      // `eventId`: the event's id in the log (PaymentEvent.id); `id`: the delivery id, the same for every re-send.
      const eventId = accepted.seq ? { eventId: encodeEventId(accepted.seq, accepted.generation) } : {};
      if (accepted.duplicate) {
        observe('duplicate');
        log.info('webhook duplicate', fields);
        return reply(req, res, 200, { ok: true, duplicate: true, id: record.id, ...eventId });
      }
      log.info('webhook accepted', fields);
      return reply(req, res, 200, { ok: true, duplicate: false, id: record.id, ...eventId });
    } catch (err) {
      log.error('webhook handler failed', { error: err });
      if (!res.headersSent) reply(req, res, 500, { ok: false, error: 'internal_error' });
      else res.destroy();
    }
  };
}

/**
 * Production's `accept`: the event log's own "append once" (EventBus.publishPaymentEventOnce), the one notion
 * of "this delivery was seen" in the gateway; `onAccepted` is told of each new event (not of duplicates).
 */
export function acceptIntoLog(
  bus: Pick<EventBus, 'publishPaymentEventOnce'>,
  onAccepted: (event: LoggedPaymentEvent) => void = () => {},
  ttlMs: number = DEFAULT_DEDUPE_TTL_MS,
): WebhookHandlerDeps['accept'] {
  return async (event) => {
    const result = await bus.publishPaymentEventOnce(event, ttlMs);
    if (result.duplicate) return { duplicate: true, seq: result.seq, generation: result.generation };
    onAccepted(result.event);
    return { duplicate: false, seq: result.event.seq, generation: result.event.generation };
  };
}

/** application/json, any case, optional parameters (charset=utf-8 ...). */
function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const mediaType = value.split(';', 1)[0]!.trim().toLowerCase();
  return mediaType === 'application/json';
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

type ReadResult = { kind: 'ok'; body: Buffer } | { kind: 'too_large'; bytes: number } | { kind: 'aborted'; bytes: number };

/** Reads at most maxBytes; one byte more and it stops listening, keeping nothing. */
function readBody(req: IncomingMessage, maxBytes: number): Promise<ReadResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const finish = (result: ReadResult) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        chunks.length = 0;
        // Stop pulling from the socket; reply() sends Connection: close so it is not reused.
        req.pause();
        finish({ kind: 'too_large', bytes });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: 'ok', body: Buffer.concat(chunks, bytes) });
    const onAbort = () => finish({ kind: 'aborted', bytes });
    const onClose = () => {
      if (!req.complete) onAbort();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onClose);
  });
}

/** The verified body as a JSON object, or undefined (invalid UTF-8, not JSON, or not an object). */
function parseJsonObject(raw: Buffer): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function reply(req: IncomingMessage, res: ServerResponse, status: number, body: Record<string, unknown>): void {
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.setHeader('Cache-Control', 'no-store');
  // A body we did not read (early reject, or cut at the size limit) would
  // otherwise have to be drained before the connection could be reused.
  if (!req.complete) res.setHeader('Connection', 'close');
  res.end(json);
}
