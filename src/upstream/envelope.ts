// The service's response envelope: `status`, `message`, `data`, `error_code`,
// `errors`, `failed_transfers`, `pagination`. Success or failure is decided by
// `status` alone, never by the HTTP status (the spec does not show statuses).

import { setImmediate as nextTurn } from 'node:timers/promises';
import { parseChunked } from '@discoveryjs/json-ext';
import { isPlainObject } from './normalize.js';

export interface Envelope {
  status: boolean;
  message: string;
  data: unknown;
  errorCode: string | null;
  errors: unknown;
  failedTransfers: unknown;
  pagination: unknown;
}

type EnvelopeReading = { ok: true; envelope: Envelope } | { ok: false; reason: 'empty' | 'not_json' | 'not_envelope' };

/**
 * Reads a response body. Anything but a JSON object with a boolean `status`
 * (and, when present, a string `message` and a string `error_code`) is not an envelope.
 */
export function readEnvelope(text: string): EnvelopeReading {
  if (text.trim() === '') return { ok: false, reason: 'empty' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not_json' };
  }
  return envelopeOf(json);
}

/** Bodies longer than this (characters) are parsed a slice per turn of the event loop by `readEnvelopeInTurns`. */
export const LONG_BODY = 256 * 1024;
const SLICE = 64 * 1024;

/**
 * `readEnvelope` for any body: a long one (every transfer of an account: megabytes after a few payrolls) is parsed
 * in slices with a turn of the event loop between them (@discoveryjs/json-ext's parseChunked), so that one
 * merchant's long answer does not hold every other request of the replica for the ~10 ms a JSON.parse of it takes.
 * A body that holds `"__proto__"` is parsed by JSON.parse at once: parseChunked assigns a `__proto__` key (setting
 * the object's prototype) where JSON.parse makes it an own property, and the value must be JSON.parse's.
 */
export async function readEnvelopeInTurns(text: string): Promise<EnvelopeReading> {
  if (text.length <= LONG_BODY || text.includes('"__proto__"')) return readEnvelope(text);
  let json: unknown;
  try {
    json = await parseChunked(slicesOf(text));
  } catch {
    return { ok: false, reason: 'not_json' };
  }
  return envelopeOf(json);
}

async function* slicesOf(text: string): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += SLICE) {
    if (at > 0) await nextTurn();
    yield text.slice(at, at + SLICE);
  }
}

function envelopeOf(json: unknown): EnvelopeReading {
  if (!isPlainObject(json) || typeof json.status !== 'boolean') return { ok: false, reason: 'not_envelope' };
  const { message, error_code: errorCode } = json;
  if (message !== undefined && message !== null && typeof message !== 'string') return { ok: false, reason: 'not_envelope' };
  if (errorCode !== undefined && errorCode !== null && typeof errorCode !== 'string') {
    return { ok: false, reason: 'not_envelope' };
  }
  return {
    ok: true,
    envelope: {
      status: json.status,
      message: typeof message === 'string' ? message : '',
      data: json.data,
      errorCode: typeof errorCode === 'string' && errorCode.trim() !== '' ? errorCode.trim() : null,
      errors: json.errors,
      failedTransfers: json.failed_transfers,
      pagination: json.pagination,
    },
  };
}
