// One declaration per operation of the payment service: its endpoint, what it
// sends and how its answer is read, whether it moves money, which of its error
// codes are refusals and what a lost answer means. The client, the failure
// classifier, the upstream budget, the idempotency runner and the mutation
// recipe read this table; none keeps a list of its own. An operation added to
// UpstreamClient without a complete declaration here fails the type check.
import type { Envelope } from './envelope.js';
import type { UpstreamErrorCode } from './call-error.js';
import {
  isPlainObject,
  normalizeBalance,
  normalizeBulkResult,
  normalizeCharge,
  normalizeCheckout,
  normalizeCreatedCharge,
  normalizeInitializedCheckout,
  normalizeList,
  normalizeLongList,
  normalizePagination,
  normalizeSettlement,
  normalizeTransfer,
} from './normalize.js';
import { amount, chargeQuery, compact, positive, transferBody } from './request-fields.js';
import type { Operation, UpstreamClient } from './types.js';

export type { Operation } from './types.js';

export const PAYMENT_PATH = '/v1/payment';

type Args<K extends Operation> = Parameters<UpstreamClient[K]>;
type Result<K extends Operation> = Awaited<ReturnType<UpstreamClient[K]>>;

/** The service's names of the list paging parameters (configurable: the spec does not name them). */
export interface PagingParams {
  pageParam: string;
  pageSizeParam: string;
}

/** What one call sends besides its endpoint; `reference` fills the path's `{reference}`, URL-encoded. */
export interface OperationRequest {
  reference?: string;
  query?: URLSearchParams;
  body?: unknown;
}

interface Endpoint<K extends Operation> {
  method: 'GET' | 'POST';
  /** Below `/v1/payment`; a template (`{reference}`), which is also the metrics label. */
  path: string;
  /** Builds what is sent; throws VALIDATION_FAILED (nothing sent) on a value the service must not see. */
  request?: (args: Args<K>, paging: PagingParams) => OperationRequest;
  /** The normalizer of a successful answer (a BadBodyError makes it a `bad_body` fault); a long one may yield. */
  read: (envelope: Envelope, args: Args<K>) => Result<K> | Promise<Result<K>>;
  /** A `status: false` answer that still carries a result (bulk transfers' per-item failures). */
  readsFailure?: (envelope: Envelope) => boolean;
  /** Failures the spec tells by their message only (no `error_code`), in the order of failure.ts. */
  failureMessages?: {
    /** "... not found" means NOT_FOUND. */
    notFound?: true;
    /** A message or field error about a payment account means PAYMENT_ACCOUNT_MISSING. */
    paymentAccount?: true;
    /** Any other failure without a code. */
    otherwise?: UpstreamErrorCode;
  };
}

/** A read: safe to send twice, so a GET is retried on faults and needs no idempotency key. */
interface Reading<K extends Operation> extends Endpoint<K> {
  movesMoney: false;
}

/**
 * Creates or moves money: never retried by the transport, always counted by the upstream budget (never
 * refused halfway), run under an idempotency key or with a reason why a repeat cannot pay twice.
 */
interface MoneyMove<K extends Operation> extends Endpoint<K> {
  movesMoney: true;
  /** Codes by which it says it examined the call and did nothing (the key is released), besides REFUSED_BY_ANY. */
  refusals: readonly UpstreamErrorCode[];
  /**
   * What a retry after a lost answer does: `find_by_ext_id`, the request is looked up at the service by the
   * ext_id it carried; `refuse_until_checked`, the outcome stays unknown (a person checks the lists);
   * `repeat_refused_by_service`, no key needed: the service itself refuses a second one.
   */
  lostAnswer: 'find_by_ext_id' | 'refuse_until_checked' | 'repeat_refused_by_service';
}

export type OperationDeclaration<K extends Operation> = Reading<K> | MoneyMove<K>;

/** Refusals any operation may answer: the request was examined (or never sent) and nothing was done. */
const REFUSED_BY_ANY: readonly UpstreamErrorCode[] = [
  'VALIDATION_FAILED',
  'INVALID_DATA',
  'RATE_LIMIT_EXCEEDED',
  'UNAUTHENTICATED',
  'NOT_FOUND',
  'CHARGE_NOT_FOUND',
  'TRANSACTION_NOT_FOUND',
];

const reference = ([ref]: [string]): OperationRequest => ({ reference: ref });

export const OPERATIONS = {
  initializeCheckout: {
    method: 'POST',
    path: '/checkouts/initialize/',
    request: ([input]) => ({
      body: compact({
        email: input.email,
        amount: amount(input.amount, 'amount'),
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      }),
    }),
    read: (env) => normalizeInitializedCheckout(env.data, env.message),
    movesMoney: true,
    refusals: [],
    lostAnswer: 'refuse_until_checked',
  },
  fetchCheckout: {
    method: 'GET',
    path: '/checkouts/{reference}',
    request: reference,
    read: (env) => normalizeCheckout(env.data),
    failureMessages: { notFound: true },
    movesMoney: false,
  },
  listCheckouts: {
    method: 'GET',
    path: '/checkouts',
    read: (env) => normalizeList(env.data, normalizeCheckout),
    movesMoney: false,
  },
  createCharge: {
    method: 'POST',
    path: '/charges/',
    request: ([input]) => ({
      body: compact({
        amount: amount(input.amount, 'amount'),
        currency: input.currency,
        ext_id: input.extId,
        payment_method_details: compact({ phone: input.phone, provider: input.provider, confirmation_method: input.confirmationMethod }),
      }),
    }),
    read: (env) => normalizeCreatedCharge(env.data),
    movesMoney: true,
    refusals: ['UNSUPPORTED_PROVIDER', 'UNAUTHORIZED_CHARGE_PROVIDER', 'INVALID_ACCOUNT', 'INSUFFICIENT_FUNDS', 'OTP_STILL_VALID'],
    lostAnswer: 'find_by_ext_id',
  },
  submitChargeOtp: {
    method: 'POST',
    path: '/charges/submit',
    request: ([input]) => ({ body: { otp: input.otp, charge_reference: input.chargeReference } }),
    read: (env) => normalizeCharge(env.data),
    movesMoney: true,
    refusals: ['OTP_INVALID', 'OTP_EXPIRED', 'OTP_STILL_VALID', 'INSUFFICIENT_FUNDS', 'INVALID_ACCOUNT', 'UNAUTHORIZED_CHARGE_PROVIDER'],
    lostAnswer: 'repeat_refused_by_service',
  },
  fetchCharge: {
    method: 'GET',
    path: '/charges/{reference}',
    request: reference,
    read: (env) => normalizeCharge(env.data),
    movesMoney: false,
  },
  listCharges: {
    method: 'GET',
    path: '/charges',
    request: ([filter, paging], params) => {
      const page = positive(paging.page, 'page');
      const pageSize = positive(paging.pageSize, 'pageSize');
      const query = chargeQuery(filter);
      query.set(params.pageParam, String(page));
      query.set(params.pageSizeParam, String(pageSize));
      return { query };
    },
    read: (env, [, paging]) => {
      const items = normalizeList(env.data, normalizeCharge);
      return {
        items,
        pagination: normalizePagination(env.pagination, { page: paging.page, pageSize: paging.pageSize, itemCount: items.length }),
      };
    },
    movesMoney: false,
  },
  fetchBalance: {
    method: 'GET',
    path: '/balances',
    read: (env) => normalizeBalance(env.data),
    movesMoney: false,
  },
  createTransfer: {
    method: 'POST',
    path: '/transfers/',
    request: ([input]) => ({ body: transferBody(input) }),
    read: (env) => normalizeTransfer(env.data),
    movesMoney: true,
    refusals: ['INSUFFICIENT_FUNDS', 'INVALID_ACCOUNT', 'UNSUPPORTED_PROVIDER'],
    lostAnswer: 'find_by_ext_id',
  },
  createBulkTransfer: {
    method: 'POST',
    path: '/transfers/bulk/',
    request: ([items]) => ({ body: { transfers: items.map((item, i) => transferBody(item, `transfers.${i}.`)) } }),
    read: (env, [items]) => normalizeBulkResult(failedTransfers(env), env.message, items),
    // `status: false` with a non-empty `failed_transfers` and no error code is read as a per-item outcome too
    // (e.g. every item failed), not as a failure of the whole call: the caller must learn which items failed.
    // Whole-call failures carry an error code.
    readsFailure: (env) => {
      const failed = failedTransfers(env);
      return env.errorCode === null && Array.isArray(failed) && failed.length > 0;
    },
    movesMoney: true,
    refusals: ['BATCH_SIZE_LIMIT_EXCEEDED', 'INSUFFICIENT_FUNDS', 'INVALID_ACCOUNT', 'UNSUPPORTED_PROVIDER'],
    lostAnswer: 'find_by_ext_id',
  },
  listTransfers: {
    method: 'GET',
    path: '/transfers',
    // Every transfer of the account, in one answer: normalized a slice per turn of the event loop.
    read: (env) => normalizeLongList(env.data, normalizeTransfer),
    movesMoney: false,
  },
  fetchTransfer: {
    method: 'GET',
    path: '/transfers/{reference}',
    request: reference,
    read: (env) => normalizeTransfer(env.data),
    failureMessages: { notFound: true },
    movesMoney: false,
  },
  createSettlement: {
    method: 'POST',
    path: '/settlements/',
    request: ([input]) => ({ body: { amount: amount(input.amount, 'amount') } }),
    read: (env) => normalizeSettlement(env.data),
    failureMessages: { paymentAccount: true },
    movesMoney: true,
    refusals: ['INSUFFICIENT_FUNDS', 'PAYMENT_ACCOUNT_MISSING'],
    lostAnswer: 'refuse_until_checked',
  },
  fetchSettlement: {
    method: 'GET',
    path: '/settlements/{reference}',
    request: reference,
    read: (env) => normalizeSettlement(env.data),
    failureMessages: { notFound: true },
    movesMoney: false,
  },
  listSettlements: {
    method: 'GET',
    path: '/settlements',
    read: (env) => normalizeList(env.data, normalizeSettlement),
    movesMoney: false,
  },
  // A GET that changes state: never retried, outcome unknown on faults after sending.
  cancelSettlement: {
    method: 'GET',
    path: '/settlements/{reference}/cancel/',
    request: reference,
    read: (env) => normalizeSettlement(env.data),
    failureMessages: { notFound: true, otherwise: 'SETTLEMENT_NOT_CANCELLABLE' },
    movesMoney: true,
    refusals: ['SETTLEMENT_NOT_CANCELLABLE'],
    lostAnswer: 'repeat_refused_by_service',
  },
} as const satisfies { [K in Operation]: OperationDeclaration<K> };

/** The same table, seen through its declared type (what generic code indexes with an operation it does not know). */
const DECLARATIONS: { readonly [K in Operation]: OperationDeclaration<K> } = OPERATIONS;

/** An operation's one declaration (endpoint, request, reader, money, refusals, lost answer). */
export function declarationOf<K extends Operation>(operation: K): OperationDeclaration<K> {
  return DECLARATIONS[operation];
}

export const OPERATION_NAMES = Object.keys(OPERATIONS) as Operation[];

/** Whether a name is one of the service's operations. */
export function isOperation(name: PropertyKey): name is Operation {
  return typeof name === 'string' && Object.hasOwn(OPERATIONS, name);
}

/** Whether an operation moves money (one per GraphQL operation, audited, never retried automatically). */
export function movesMoney(operation: Operation): boolean {
  return DECLARATIONS[operation].movesMoney;
}

/** Method and route template, e.g. `GET /v1/payment/charges/{reference}`: the metrics label, never the path called. */
export function endpointOf(operation: Operation): string {
  const { method, path } = DECLARATIONS[operation];
  return `${method} ${PAYMENT_PATH}${path}`;
}

/**
 * Codes by which the service says it examined a call and did nothing: the shared ones and every operation's
 * own. A documented code answered below HTTP 500 is a refusal whichever operation it answers (the service
 * does not pay and then refuse), so the runner reads the union.
 */
const REFUSALS: ReadonlySet<UpstreamErrorCode> = new Set([
  ...REFUSED_BY_ANY,
  ...OPERATION_NAMES.flatMap((op) => {
    const declaration = DECLARATIONS[op];
    return declaration.movesMoney ? declaration.refusals : [];
  }),
]);

/** Whether the service examined a call answered with `code` and did nothing (its idempotency key may be released). */
export function isRefusal(code: UpstreamErrorCode): boolean {
  return REFUSALS.has(code);
}

function failedTransfers(env: Envelope): unknown {
  return env.failedTransfers ?? (isPlainObject(env.data) ? env.data.failed_transfers : undefined);
}
