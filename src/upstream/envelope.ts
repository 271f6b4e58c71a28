// The service's response envelope: `status`, `message`, `data`, `error_code`,
// `errors`, `failed_transfers`, `pagination`. Success or failure is decided by
// `status` alone, never by the HTTP status (the spec does not show statuses).

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
