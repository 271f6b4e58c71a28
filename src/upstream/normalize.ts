// Turns the service's raw `data` into the clean domain types of ./types.ts.
//
// Every function here is pure (normalizeLongList also yields to the event loop)
// and either returns a normalized value or throws a BadBodyError naming the
// offending path (never the value: values can be phone numbers). The client
// turns a BadBodyError into UPSTREAM_UNAVAILABLE with fault `bad_body`, so a
// wrong type in `data` never crashes deeper code.
//
// Quirks of the payment service's published interface handled here:
// - fees: a float (2.5) in create/OTP-submit responses, a decimal string ("2.50") in fetch/list.
// - amounts: int, or a numeric string ("1000", also "1000.00"); anything non-integral is rejected.
// - timestamps: `Z`, `+00:00` or any other offset, with or without (micro)seconds;
//   a timestamp without any offset is read as UTC (the spec says timestamps are UTC).
//   Output is always `Date#toISOString()` (ms precision, `Z`); extra fractional digits are truncated.
// - phone/provider: the empty string means "not yet known" -> null.
// - balance: one wallet per `<op>_money_<cc>` key of `transfer_balances` (`opa_money_bf` -> `opa_bf`);
//   keys naming no known wallet are ignored.
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  ACCOUNT_TYPES,
  CHARGE_STATUSES,
  CHECKOUT_STATUSES,
  PROVIDERS,
  SETTLEMENT_STATUSES,
  TRANSFER_STATUSES,
  WALLETS,
  type Balance,
  type BulkTransferFailure,
  type BulkTransferResult,
  type Charge,
  type Checkout,
  type ConfirmationAttempt,
  type CreateTransferInput,
  type CreatedCharge,
  type InitializedCheckout,
  type Pagination,
  type Provider,
  type Settlement,
  type Transfer,
  type UtcTimestamp,
  type Wallet,
} from './types.js';
import type { FieldError } from './call-error.js';
import { InternalError } from '../errors/internal-error.js';

/** A value in the service's response that does not have the documented shape. */
export class BadBodyError extends InternalError {
  override readonly name = 'BadBodyError';
  readonly code = 'UPSTREAM_BAD_BODY';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

type Obj = Record<string, unknown>;

/** Whether a value is a plain JSON object. */
export function isPlainObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: unknown, path: string): Obj {
  if (!isPlainObject(value)) throw new BadBodyError(path, 'expected an object');
  return value;
}

function asArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new BadBodyError(path, 'expected an array');
  return value;
}

// ---------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------

/** An integer amount: a JSON integer or an integral numeric string ("1000", "1000.00"). */
export function parseAmount(value: unknown, path = 'amount'): number {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return value === 0 ? 0 : value;
    throw new BadBodyError(path, 'expected an integer amount');
  }
  if (typeof value === 'string') {
    const m = /^\s*(-?\d+)(?:\.0*)?\s*$/.exec(value);
    if (m) {
      const n = Number(m[1]);
      if (Number.isSafeInteger(n)) return n === 0 ? 0 : n;
    }
  }
  throw new BadBodyError(path, 'expected an integer amount');
}

/** A finite decimal: a JSON number or a decimal string ("2.50"). Used for fee percents and balances. */
export function parseDecimal(value: unknown, path = 'value'): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw new BadBodyError(path, 'expected a finite number');
  }
  if (typeof value === 'string' && /^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)\s*$/.test(value)) {
    const n = Number(value);
    if (Number.isFinite(n)) return n;
  }
  throw new BadBodyError(path, 'expected a number or a decimal string');
}

/** Fee rate in percent (2 means 2%), from a float (2.5) or a decimal string ("2.50"). */
export function parseFeePercent(value: unknown, path = 'fees'): number {
  return parseDecimal(value, path);
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/**
 * An ISO 8601 timestamp with `Z`, `+00:00` or any other offset (or none: UTC is assumed),
 * with or without fractional seconds of any length, to the UTC `...sssZ` form.
 */
export function parseTimestamp(value: unknown, path = 'timestamp'): UtcTimestamp {
  if (typeof value !== 'string') throw new BadBodyError(path, 'expected a timestamp string');
  const m = TIMESTAMP.exec(value.trim());
  if (!m) throw new BadBodyError(path, 'expected an ISO 8601 timestamp');
  const [, y, mo, d, h, mi, s, frac, , sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
  const offH = oh === undefined ? 0 : Number(oh);
  const offM = om === undefined ? 0 : Number(om);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59 || offH > 23 || offM > 59) {
    throw new BadBodyError(path, 'timestamp out of range');
  }
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(local);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) {
    throw new BadBodyError(path, 'timestamp out of range');
  }
  // Years 0..99 are mapped to 1900.. by Date.UTC; nothing real lands there, reject.
  if (check.getUTCFullYear() !== year) throw new BadBodyError(path, 'timestamp out of range');
  const offsetMs = (sign === '-' ? -1 : 1) * (offH * 60 + offM) * 60_000;
  return new Date(local - offsetMs).toISOString();
}

function parseNullableTimestamp(value: unknown, path = 'timestamp'): UtcTimestamp | null {
  if (value === null || value === undefined || value === '') return null;
  return parseTimestamp(value, path);
}

/** A string where absent, null and "" (or blanks) all mean "no value". */
export function emptyToNull(value: unknown, path = 'value'): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new BadBodyError(path, 'expected a string');
  return value.trim() === '' ? null : value;
}

function requiredString(value: unknown, path: string, allowEmpty = false): string {
  if (typeof value !== 'string') throw new BadBodyError(path, 'expected a string');
  if (!allowEmpty && value.trim() === '') throw new BadBodyError(path, 'expected a non-empty string');
  return value;
}

function stringOr(value: unknown, path: string, fallback: string): string {
  if (value === null || value === undefined) return fallback;
  return requiredString(value, path);
}

function parseBool(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') throw new BadBodyError(path, 'expected a boolean');
  return value;
}

function parseEnum<T extends string>(value: unknown, allowed: readonly T[], path: string, aliases: Record<string, T> = {}): T {
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if ((allowed as readonly string[]).includes(v)) return v as T;
    const alias = aliases[v];
    if (alias !== undefined) return alias;
  }
  throw new BadBodyError(path, `expected one of ${allowed.join(', ')}`);
}

/** An operator token; "" / null / absent -> null; an unknown token is a bad body. */
export function parseProvider(value: unknown, path = 'provider'): Provider | null {
  if (emptyToNull(value, path) === null) return null;
  return parseEnum(value, PROVIDERS, path);
}

function requiredProvider(value: unknown, path: string): Provider {
  const p = parseProvider(value, path);
  if (p === null) throw new BadBodyError(path, 'expected a provider');
  return p;
}

/** A wallet token; "" / null / absent -> null; an unknown token is a bad body. */
export function parseWallet(value: unknown, path = 'wallet'): Wallet | null {
  if (emptyToNull(value, path) === null) return null;
  return parseEnum(value, WALLETS, path);
}

/** `opa_money_bf` -> `opa_bf`; null for keys that are not `<x>_money_<y>` or name no known wallet. */
export function walletFromBalanceKey(key: string): Wallet | null {
  const m = /^([a-z0-9]+)_money_([a-z0-9]+)$/i.exec(key);
  if (!m) return null;
  const token = `${m[1]}_${m[2]}`.toLowerCase();
  return (WALLETS as readonly string[]).includes(token) ? (token as Wallet) : null;
}

// ---------------------------------------------------------------------------
// Field errors
// ---------------------------------------------------------------------------

/**
 * Flattens the service's `errors` object into paths:
 * `{payment_method_details: {phone: ["..."]}}` -> `[{path: ["payment_method_details", "phone"], message: "..."}]`;
 * `non_field_errors` belongs to its parent (at the top: path `[]`); lists of objects
 * (one per item, as in bulk bodies) get the item index as a path segment.
 */
export function flattenFieldErrors(errors: unknown, path: string[] = []): FieldError[] {
  if (errors === null || errors === undefined) return [];
  if (typeof errors === 'string') return [{ path, message: errors }];
  if (typeof errors === 'number' || typeof errors === 'boolean') return [{ path, message: String(errors) }];
  if (Array.isArray(errors)) {
    const out: FieldError[] = [];
    errors.forEach((item, i) => {
      if (isPlainObject(item) || Array.isArray(item)) out.push(...flattenFieldErrors(item, [...path, String(i)]));
      else out.push(...flattenFieldErrors(item, path));
    });
    return out;
  }
  if (isPlainObject(errors)) {
    const out: FieldError[] = [];
    for (const [key, value] of Object.entries(errors)) {
      const sub = key === 'non_field_errors' || key === '__all__' ? path : [...path, key];
      out.push(...flattenFieldErrors(value, sub));
    }
    return out;
  }
  return [];
}

// ---------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------

export function normalizeInitializedCheckout(data: unknown, message: string, path = 'data'): InitializedCheckout {
  const o = asObject(data, path);
  return {
    reference: requiredString(o.reference, `${path}.reference`),
    authorizationUrl: requiredString(o.authorization_url, `${path}.authorization_url`),
    liveMode: parseBool(o.live_mode, `${path}.live_mode`),
    message,
  };
}

/** A checkout as the service sends it, in one clean shape; throws BadBodyError on a shape it cannot read. */
export function normalizeCheckout(data: unknown, path = 'data'): Checkout {
  const o = asObject(data, path);
  return {
    reference: requiredString(o.reference, `${path}.reference`),
    amount: parseAmount(o.amount, `${path}.amount`),
    email: emptyToNull(o.email, `${path}.email`),
    chargeReference: emptyToNull(o.charge_reference, `${path}.charge_reference`),
    successUrl: requiredString(o.success_url, `${path}.success_url`, true),
    cancelUrl: requiredString(o.cancel_url, `${path}.cancel_url`, true),
    phone: emptyToNull(o.phone, `${path}.phone`),
    provider: parseProvider(o.provider, `${path}.provider`),
    status: parseEnum(o.status, CHECKOUT_STATUSES, `${path}.status`),
    liveMode: parseBool(o.live_mode, `${path}.live_mode`),
    createdAt: parseTimestamp(o.created_at, `${path}.created_at`),
    updatedAt: parseTimestamp(o.updated_at, `${path}.updated_at`),
  };
}

export function normalizeCreatedCharge(data: unknown, path = 'data'): CreatedCharge {
  const o = asObject(data, path);
  return {
    reference: requiredString(o.reference, `${path}.reference`),
    status: parseEnum(o.status, CHARGE_STATUSES, `${path}.status`, { cancelled: 'canceled' }),
    displayText:
      o.display_text === null || o.display_text === undefined ? '' : requiredString(o.display_text, `${path}.display_text`, true),
    liveMode: parseBool(o.live_mode, `${path}.live_mode`),
  };
}

function normalizeConfirmationAttempt(data: unknown, path: string): ConfirmationAttempt {
  const o = asObject(data, path);
  return {
    ipAddress: emptyToNull(o.ip_address, `${path}.ip_address`),
    attemptDate: parseTimestamp(o.attempt_date, `${path}.attempt_date`),
    status: parseEnum(o.confirmation_status, ['success', 'failed'] as const, `${path}.confirmation_status`),
  };
}

/** A charge in any of its full forms (OTP submit, fetch, list). */
export function normalizeCharge(data: unknown, path = 'data'): Charge {
  const o = asObject(data, path);
  const attempts =
    o.confirmation_attempts === null || o.confirmation_attempts === undefined
      ? []
      : asArray(o.confirmation_attempts, `${path}.confirmation_attempts`);
  return {
    reference: requiredString(o.reference, `${path}.reference`),
    amount: parseAmount(o.amount, `${path}.amount`),
    feePercent: parseFeePercent(o.fees, `${path}.fees`),
    currency: stringOr(o.currency, `${path}.currency`, 'XOF'),
    status: parseEnum(o.status, CHARGE_STATUSES, `${path}.status`, { cancelled: 'canceled' }),
    provider: requiredProvider(o.provider, `${path}.provider`),
    phone: emptyToNull(o.phone, `${path}.phone`),
    extId: emptyToNull(o.ext_id, `${path}.ext_id`),
    operatorId: emptyToNull(o.operator_id, `${path}.operator_id`),
    ipAddress: emptyToNull(o.ip_address, `${path}.ip_address`),
    paymentMethod: stringOr(o.payment_method, `${path}.payment_method`, 'mobile_money'),
    transactionDate: parseNullableTimestamp(o.transaction_date, `${path}.transaction_date`),
    createdAt: parseNullableTimestamp(o.created_at, `${path}.created_at`),
    updatedAt: parseNullableTimestamp(o.updated_at, `${path}.updated_at`),
    cancelledAt: parseNullableTimestamp(o.cancelled_at, `${path}.cancelled_at`),
    cancellationReason: emptyToNull(o.cancellation_reason, `${path}.cancellation_reason`),
    confirmationAttempts: attempts.map((a, i) => normalizeConfirmationAttempt(a, `${path}.confirmation_attempts[${i}]`)),
    liveMode: parseBool(o.live_mode, `${path}.live_mode`),
  };
}

/** A transfer as the service sends it, in one clean shape; throws BadBodyError on a shape it cannot read. */
export function normalizeTransfer(data: unknown, path = 'data'): Transfer {
  const o = asObject(data, path);
  return {
    reference: requiredString(o.reference, `${path}.reference`),
    amount: parseAmount(o.amount, `${path}.amount`),
    feePercent: parseFeePercent(o.fees, `${path}.fees`),
    currency: stringOr(o.currency, `${path}.currency`, 'XOF'),
    recipientPhone: requiredString(o.recipient_phone, `${path}.recipient_phone`),
    recipientWallet: parseWallet(o.recipient_wallet, `${path}.recipient_wallet`),
    status: parseEnum(o.status, TRANSFER_STATUSES, `${path}.status`),
    extId: emptyToNull(o.ext_id, `${path}.ext_id`),
    ipAddress: emptyToNull(o.ip_address, `${path}.ip_address`),
    liveMode: parseBool(o.live_mode, `${path}.live_mode`),
    createdAt: parseTimestamp(o.created_at, `${path}.created_at`),
  };
}

/** A settlement as the service sends it, in one clean shape; throws BadBodyError on a shape it cannot read. */
export function normalizeSettlement(data: unknown, path = 'data'): Settlement {
  const o = asObject(data, path);
  const s = (key: string) => emptyToNull(o[key], `${path}.${key}`);
  return {
    reference: requiredString(o.reference, `${path}.reference`),
    amount: parseAmount(o.amount, `${path}.amount`),
    settlementFees: parseAmount(o.settlement_fees, `${path}.settlement_fees`),
    currency: stringOr(o.currency, `${path}.currency`, 'XOF'),
    status: parseEnum(o.status, SETTLEMENT_STATUSES, `${path}.status`, { canceled: 'cancelled' }),
    accountType: parseEnum(o.account_type, ACCOUNT_TYPES, `${path}.account_type`),
    account: {
      iban: s('iban'),
      rib: s('rib'),
      bankName: s('bank_name'),
      bankAddress: s('bank_address'),
      accountHolderName: s('account_holder_name'),
      accountHolderAddress: s('account_holder_address'),
      swiftBicCode: s('swift_bic_code'),
      provider: s('provider'),
      phone: s('phone'),
      usdtWalletAddress: s('usdt_wallet_address'),
    },
    liveMode: parseBool(o.live_mode, `${path}.live_mode`),
    createdAt: parseTimestamp(o.created_at, `${path}.created_at`),
    updatedAt: parseTimestamp(o.updated_at, `${path}.updated_at`),
  };
}

export function normalizeBalance(data: unknown, path = 'data'): Balance {
  const o = asObject(data, path);
  const c = asObject(o.collection_balances, `${path}.collection_balances`);
  const t = asObject(o.transfer_balances, `${path}.transfer_balances`);
  const wallets: Balance['wallets'] = [];
  for (const [key, value] of Object.entries(t)) {
    const wallet = walletFromBalanceKey(key);
    if (wallet === null) continue;
    const b = asObject(value, `${path}.transfer_balances.${key}`);
    wallets.push({
      wallet,
      available: parseDecimal(b.available, `${path}.transfer_balances.${key}.available`),
      pending: parseDecimal(b.pending, `${path}.transfer_balances.${key}.pending`),
    });
  }
  wallets.sort((a, b) => WALLETS.indexOf(a.wallet) - WALLETS.indexOf(b.wallet));
  return {
    currency: stringOr(c.currency, `${path}.collection_balances.currency`, 'XOF'),
    collection: {
      available: parseDecimal(c.available, `${path}.collection_balances.available`),
      pending: parseDecimal(c.pending, `${path}.collection_balances.pending`),
    },
    transferTotal: {
      available: parseDecimal(t.total_available, `${path}.transfer_balances.total_available`),
      pending: parseDecimal(t.total_pending, `${path}.transfer_balances.total_pending`),
    },
    wallets,
  };
}

/** Normalizes every item of a list `data`; one malformed item makes the whole body bad. */
export function normalizeList<T>(data: unknown, item: (value: unknown, path: string) => T, path = 'data'): T[] {
  return asArray(data, path).map((value, i) => item(value, `${path}[${i}]`));
}

/** Items normalized between two turns of the event loop by `normalizeLongList` (about a millisecond's work). */
export const ITEMS_PER_TURN = 500;

/**
 * `normalizeList` for a list the service sends whole, however long (every transfer of an account: tens of thousands
 * after a few payrolls): it lets the event loop turn every ITEMS_PER_TURN items, so that one merchant's long list
 * does not hold every other request of the replica for tens of milliseconds.
 */
export async function normalizeLongList<T>(data: unknown, item: (value: unknown, path: string) => T, path = 'data'): Promise<T[]> {
  const values = asArray(data, path);
  const items: T[] = [];
  for (let i = 0; i < values.length; i++) {
    if (i > 0 && i % ITEMS_PER_TURN === 0) await nextTurn();
    items.push(item(values[i], `${path}[${i}]`));
  }
  return items;
}

// ---------------------------------------------------------------------------
// Pagination
// ---------------------------------------------------------------------------

function parseCount(value: unknown, path: string): number {
  const n = parseAmount(value, path);
  if (n < 0) throw new BadBodyError(path, 'expected a non-negative integer');
  return n;
}

/**
 * The charge list's `pagination`. Paging is "not shown" in the spec, so when the
 * service omits it (or some of its fields) we synthesize a conservative one from
 * what we asked and got:
 * - currentPage = the page we asked for; hasPrevious = page > 1;
 * - hasNext = the page came back full (items >= pageSize): a client may then ask
 *   for one empty page, but never misses data;
 * - totalRecords = (page-1)*pageSize + items: an estimate that assumes earlier pages were full;
 * - totalPages = page (+1 when hasNext).
 */
export function normalizePagination(
  raw: unknown,
  asked: { page: number; pageSize: number; itemCount: number },
  path = 'pagination',
): Pagination {
  const hasNext = asked.itemCount >= asked.pageSize && asked.pageSize > 0;
  const synthesized: Pagination = {
    totalRecords: Math.max(0, asked.page - 1) * asked.pageSize + asked.itemCount,
    currentPage: asked.page,
    totalPages: hasNext ? asked.page + 1 : Math.max(1, asked.page),
    hasNext,
    hasPrevious: asked.page > 1,
  };
  if (raw === null || raw === undefined) return synthesized;
  const o = asObject(raw, path);
  const pick = <T>(key: string, parse: (v: unknown, p: string) => T, fallback: T): T =>
    o[key] === undefined || o[key] === null ? fallback : parse(o[key], `${path}.${key}`);
  return {
    totalRecords: pick('total_records', parseCount, synthesized.totalRecords),
    currentPage: pick('current_page', parseCount, synthesized.currentPage),
    totalPages: pick('total_pages', parseCount, synthesized.totalPages),
    hasNext: pick('has_next', parseBool, synthesized.hasNext),
    hasPrevious: pick('has_previous', parseBool, synthesized.hasPrevious),
  };
}

// ---------------------------------------------------------------------------
// Bulk transfers
// ---------------------------------------------------------------------------

/**
 * The number of queued transfers the bulk message states, or null when it states none.
 * Only numbers tied to the word "queued" count ("3 transfers queued for processing",
 * "3 transfer(s) have been queued", "queued: 3"): a bare "batch of 5" is not a queued count.
 */
export function parseQueuedCount(message: string): number | null {
  const before = /(\d+)\s+(?:[a-z()]+\s+){0,4}?queued\b/i.exec(message);
  if (before) return Number(before[1]);
  const after = /\bqueued(?:\s+for\s+processing)?\s*[:=]\s*(\d+)/i.exec(message);
  if (after) return Number(after[1]);
  return null;
}

interface EchoedItem {
  amount: number | null;
  recipientPhone: string | null;
  recipientWallet: Wallet | null;
  extId: string | null;
}

function lenient<T>(f: () => T): T | null {
  try {
    return f();
  } catch {
    return null;
  }
}

function readEcho(data: unknown): EchoedItem {
  // The echo is the caller's own item, possibly the very value that was rejected:
  // read it leniently, field by field, and fall back to the submitted item.
  const o = isPlainObject(data) ? data : {};
  return {
    amount: lenient(() => parseAmount(o.amount)),
    recipientPhone: lenient(() => emptyToNull(o.recipient_phone)),
    recipientWallet: lenient(() => parseWallet(o.recipient_wallet)),
    extId: lenient(() => emptyToNull(o.ext_id)),
  };
}

/**
 * Finds, for each echoed item, its position in the submitted list. Fit, from
 * strict to loose: ext_id, amount, phone and wallet all equal; then a wallet
 * missing on one side (the service may fill in the wallet it chose); then the
 * ext_id alone (an echo missing other fields). The service checks balances
 * cumulatively, so among identical candidates the later one is the one that
 * failed: echoes are taken from the last, each to the highest unused fitting
 * index, which also keeps identical echoes in their relative order. The spec
 * does not say failures are echoed in submission order, so none is assumed.
 * Each submitted item is used once; null when none fits.
 */
export function matchBulkFailures(echoes: EchoedItem[], submitted: CreateTransferInput[]): Array<number | null> {
  const used = new Set<number>();
  const result: Array<number | null> = echoes.map(() => null);
  const sameMoney = (e: EchoedItem, s: CreateTransferInput) =>
    e.amount !== null && e.amount === s.amount && e.recipientPhone !== null && e.recipientPhone === s.recipientPhone;
  const sameExt = (e: EchoedItem, s: CreateTransferInput) => e.extId === (s.extId ?? null);
  const wallet = (s: CreateTransferInput) => s.recipientWallet ?? null;
  const fits: Array<(e: EchoedItem, s: CreateTransferInput) => boolean> = [
    (e, s) => sameMoney(e, s) && sameExt(e, s) && wallet(s) === e.recipientWallet,
    (e, s) => sameMoney(e, s) && sameExt(e, s) && (wallet(s) === null || e.recipientWallet === null),
    (e, s) => e.extId !== null && sameExt(e, s),
  ];
  for (const fit of fits) {
    for (let k = echoes.length - 1; k >= 0; k--) {
      if (result[k] !== null) continue;
      for (let i = submitted.length - 1; i >= 0; i--) {
        if (!used.has(i) && fit(echoes[k]!, submitted[i]!)) {
          used.add(i);
          result[k] = i;
          break;
        }
      }
    }
  }
  return result;
}

/** A bulk-transfer body (`message` + `failed_transfers`) to a BulkTransferResult. */
export function normalizeBulkResult(
  failedTransfers: unknown,
  message: string,
  submitted: CreateTransferInput[],
  path = 'failed_transfers',
): BulkTransferResult {
  const raw = failedTransfers === null || failedTransfers === undefined ? [] : asArray(failedTransfers, path);
  const entries = raw.map((entry, i) => asObject(entry, `${path}[${i}]`));
  const echoes = entries.map((e) => readEcho(e.data));
  const indexes = matchBulkFailures(echoes, submitted);
  const failures: BulkTransferFailure[] = entries.map((entry, k) => {
    const echo = echoes[k]!;
    const index = indexes[k] ?? null;
    const sent = index === null ? undefined : submitted[index];
    const amount = echo.amount ?? sent?.amount ?? null;
    const recipientPhone = echo.recipientPhone ?? sent?.recipientPhone ?? null;
    if (amount === null) throw new BadBodyError(`${path}[${k}].data.amount`, 'expected an integer amount');
    if (recipientPhone === null) throw new BadBodyError(`${path}[${k}].data.recipient_phone`, 'expected a string');
    const flat = flattenFieldErrors(entry.errors);
    return {
      item: {
        amount,
        recipientPhone,
        recipientWallet: echo.recipientWallet ?? sent?.recipientWallet ?? null,
        extId: echo.extId ?? sent?.extId ?? null,
      },
      index,
      nonFieldErrors: flat.filter((f) => f.path.length === 0).map((f) => f.message),
      fieldErrors: flat.filter((f) => f.path.length > 0),
    };
  });
  const stated = parseQueuedCount(message);
  const queuedCount = stated !== null && stated <= submitted.length ? stated : Math.max(0, submitted.length - failures.length);
  return { message, queuedCount, failures };
}
