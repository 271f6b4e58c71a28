// Webhook delivery faults: what real services do to webhooks (at-least-once
// duplicates, late arrivals, no ordering, losses), on demand, so a receiver's
// de-duplication, ordering and fallback polling can be tested over real HTTP.
import { WEBHOOK_EVENT_KINDS } from './context.js';
import { FaultRegistry, type ActiveEntry, type FaultTimes } from './fault-registry.js';
import { isPlainObject } from './validation.js';

export const WEBHOOK_FAULT_KINDS = ['duplicate', 'delay', 'out_of_order', 'drop'] as const;
export type WebhookFaultKind = (typeof WEBHOOK_FAULT_KINDS)[number];

export interface WebhookFaultMatch {
  /** Event kind (`charge.success`); a RegExp is tested on the kind. Any event when omitted. */
  event?: string | RegExp;
  /** Only the event whose `data.reference` is this. */
  reference?: string;
  /** How many matching events it hits before it is removed. Default 1. */
  times?: FaultTimes;
}

export type WebhookFaultSpec = WebhookFaultMatch &
  (
    | /** Delivered twice: the same bytes and signature, the copy right after the first attempt of the original. */
      { kind: 'duplicate' } /** First attempt `ms` later, or once the clock reaches `until` (epoch ms), on the sandbox clock. */
    | { kind: 'delay'; ms: number; until?: undefined }
    | {
        kind: 'delay';
        until: number;
        ms?: undefined;
      } /** Held back, then sent right after the next delivery's first attempt (or on release()). */
    | { kind: 'out_of_order' } /** Never delivered, never retried. */
    | { kind: 'drop' }
  );

export type ActiveWebhookFault = ActiveEntry<WebhookFaultSpec>;

export interface WebhookFaultInjector {
  add(spec: WebhookFaultSpec): string;
  remove(id: string): boolean;
  clear(): void;
  list(): ActiveWebhookFault[];
  /** Sends every held (`out_of_order`) delivery now, in the order held; returns how many. */
  release(): number;
}

export class WebhookFaults {
  private readonly registry = new FaultRegistry<WebhookFaultSpec>('webhook_fault_', validateSpec);

  add(spec: WebhookFaultSpec): string {
    return this.registry.add(spec);
  }

  remove(id: string): boolean {
    return this.registry.remove(id);
  }

  clear(): void {
    this.registry.clear();
  }

  list(): ActiveWebhookFault[] {
    return this.registry.list();
  }

  /** The first fault matching the event, consuming one of its hits. */
  take(event: string, data: unknown): WebhookFaultSpec | null {
    const reference = isPlainObject(data) && typeof data.reference === 'string' ? data.reference : null;
    return this.registry.take(
      (spec) =>
        (spec.event === undefined || (typeof spec.event === 'string' ? spec.event === event : testRegExp(spec.event, event))) &&
        (spec.reference === undefined || spec.reference === reference),
    );
  }
}

function testRegExp(pattern: RegExp, value: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(value);
}

function validateSpec(spec: WebhookFaultSpec): void {
  if (!(WEBHOOK_FAULT_KINDS as readonly string[]).includes(spec.kind)) {
    throw new TypeError(`kind must be one of ${WEBHOOK_FAULT_KINDS.join(', ')}`);
  }
  if (typeof spec.event === 'string' && !(WEBHOOK_EVENT_KINDS as readonly string[]).includes(spec.event)) {
    // A typo would otherwise make a fault that silently never applies.
    throw new TypeError(`event must be one of ${WEBHOOK_EVENT_KINDS.join(', ')} (or a RegExp)`);
  }
  if (spec.event !== undefined && typeof spec.event !== 'string' && !(spec.event instanceof RegExp)) {
    throw new TypeError('event must be a string or RegExp');
  }
  if (spec.reference !== undefined && (typeof spec.reference !== 'string' || spec.reference === '')) {
    throw new TypeError('reference must be a non-empty string');
  }
  if (spec.kind === 'delay') {
    const hasMs = spec.ms !== undefined;
    const hasUntil = spec.until !== undefined;
    if (hasMs === hasUntil) throw new TypeError('delay needs exactly one of ms or until');
    if (hasMs && !(Number.isFinite(spec.ms) && spec.ms! >= 0)) throw new TypeError('delay ms must be a finite number >= 0');
    if (hasUntil && !Number.isFinite(spec.until)) throw new TypeError('delay until must be a clock time in ms');
  }
}

/** Reads the snake_case JSON body of POST /_sandbox/webhook-faults. Throws TypeError with a readable message. */
export function webhookFaultSpecFromJson(raw: unknown): WebhookFaultSpec {
  if (!isPlainObject(raw)) throw new TypeError('expected a JSON object');
  const match: WebhookFaultMatch = {};
  if (typeof raw.event_pattern === 'string') {
    try {
      match.event = new RegExp(raw.event_pattern);
    } catch {
      throw new TypeError('event_pattern is not a valid regular expression');
    }
  } else if (raw.event !== undefined && raw.event !== null) {
    if (typeof raw.event !== 'string') throw new TypeError('event must be a string');
    match.event = raw.event;
  }
  if (raw.reference !== undefined && raw.reference !== null) match.reference = raw.reference as string;
  if (raw.times !== undefined) match.times = raw.times as FaultTimes;
  switch (raw.kind) {
    case 'duplicate':
    case 'out_of_order':
    case 'drop':
      return { ...match, kind: raw.kind };
    case 'delay':
      return raw.until !== undefined && raw.until !== null
        ? { ...match, kind: 'delay', until: parseUntil(raw.until) }
        : { ...match, kind: 'delay', ms: raw.ms as number };
    default:
      throw new TypeError(`kind must be one of ${WEBHOOK_FAULT_KINDS.join(', ')}`);
  }
}

/** Epoch milliseconds, or an ISO 8601 timestamp. */
function parseUntil(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  throw new TypeError('until must be epoch milliseconds or an ISO 8601 timestamp');
}

/** The JSON view of GET /_sandbox/webhook-faults. */
export function webhookFaultView(fault: ActiveWebhookFault) {
  const { spec } = fault;
  return {
    id: fault.id,
    kind: spec.kind,
    event: spec.event === undefined ? null : String(spec.event),
    reference: spec.reference ?? null,
    ...(spec.kind === 'delay' ? (spec.ms !== undefined ? { ms: spec.ms } : { until: new Date(spec.until).toISOString() }) : {}),
    remaining: Number.isFinite(fault.remaining) ? fault.remaining : 'unlimited',
  };
}
