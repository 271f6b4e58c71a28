// Clean, normalized shapes of the payment service's resources.
// Everything above src/upstream/ sees only these: camelCase, no envelope,
// amounts as integers, fee rates as numbers, timestamps as UTC ISO strings
// ending in "Z", absent values as null (never the empty string).

/**
 * The mobile-money operators the service charges through, in its own spelling (`_bf` Burkina Faso, `_bj` Benin); a value outside this list
 * is refused at the boundary.
 */
export const PROVIDERS = ['opa_bf', 'opb_bf', 'opc_bf', 'opd_bf', 'ope_bj', 'opf_bj'] as const;
/** One of {@link PROVIDERS}: the operator a charge or checkout goes through. */
export type Provider = (typeof PROVIDERS)[number];

/** Wallets that hold a Transfer Balance (opc_bf has none). */
export const WALLETS = ['opa_bf', 'opb_bf', 'opd_bf', 'ope_bj', 'opf_bj'] as const;
/** One of {@link WALLETS}: a wallet a transfer can be paid from, with its own Transfer Balance. */
export type Wallet = (typeof WALLETS)[number];

/** Every status a checkout can have; a status the service sends outside this list is a contract error, never passed through. */
export const CHECKOUT_STATUSES = ['pending', 'success', 'failed'] as const;
/** One of {@link CHECKOUT_STATUSES}. */
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** Every status a charge can have: `send_otp` and `pay_offline` wait on the customer, `success`, `failed` and `canceled` are final. */
export const CHARGE_STATUSES = ['success', 'failed', 'send_otp', 'pay_offline', 'pending', 'canceled'] as const;
/** One of {@link CHARGE_STATUSES}. */
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** The statuses the charge-list `status` filter accepts upstream. */
export const CHARGE_FILTER_STATUSES = ['pending', 'success', 'failed'] as const;

/** Every status a transfer can have; only `pending` may still change. */
export const TRANSFER_STATUSES = ['pending', 'success', 'failed'] as const;
/** One of {@link TRANSFER_STATUSES}. */
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** Every status a settlement can have: `processing` may still be cancelled, `success` and `cancelled` are final. */
export const SETTLEMENT_STATUSES = ['processing', 'in_transit', 'success', 'cancelled'] as const;
/** One of {@link SETTLEMENT_STATUSES}. */
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

/** The four kinds of resource the service keeps, each fetched by reference. */
export const RESOURCE_KINDS = ['checkout', 'charge', 'transfer', 'settlement'] as const;
/** One of {@link RESOURCE_KINDS}: which kind of resource a reference names. */
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** The kinds of account a settlement pays out to. */
export const ACCOUNT_TYPES = ['bank', 'mobile', 'usdt'] as const;
/** One of {@link ACCOUNT_TYPES}. */
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** How a customer confirms a charge: a one-time code sent by SMS, or a USSD prompt on the phone. */
export const CONFIRMATION_METHODS = ['otp', 'ussd'] as const;
/** One of {@link CONFIRMATION_METHODS}. */
export type ConfirmationMethod = (typeof CONFIRMATION_METHODS)[number];

/** UTC ISO 8601 timestamp, always with a "Z" suffix and millisecond precision. */
export type UtcTimestamp = string;

/** A hosted checkout page, normalized: integer XOF amount, UTC timestamps, null for what is absent. */
export interface Checkout {
  /** The UUID form; the `chk_<hex>` form of initialization is mapped to it where known. */
  reference: string;
  amount: number;
  email: string | null;
  chargeReference: string | null;
  successUrl: string;
  cancelUrl: string;
  phone: string | null;
  provider: Provider | null;
  status: CheckoutStatus;
  liveMode: boolean;
  createdAt: UtcTimestamp;
  updatedAt: UtcTimestamp;
}

/** What initializing a checkout returns: the page to send the customer to, under its `chk_<hex>` reference. */
export interface InitializedCheckout {
  /** `chk_<hex>` as returned at initialization; fetch accepts it too. */
  reference: string;
  authorizationUrl: string;
  liveMode: boolean;
  message: string;
}

/** One try at confirming a charge (an OTP submitted, a USSD prompt answered), as the service recorded it. */
export interface ConfirmationAttempt {
  ipAddress: string | null;
  attemptDate: UtcTimestamp;
  status: 'success' | 'failed';
}

/** A charge in full, normalized: integer XOF amount, fee as a percent, UTC timestamps, and every confirmation attempt. */
export interface Charge {
  reference: string;
  amount: number;
  /** Percent: 2 means 2%. */
  feePercent: number;
  currency: string;
  status: ChargeStatus;
  provider: Provider;
  phone: string | null;
  extId: string | null;
  operatorId: string | null;
  ipAddress: string | null;
  paymentMethod: string;
  transactionDate: UtcTimestamp | null;
  createdAt: UtcTimestamp | null;
  updatedAt: UtcTimestamp | null;
  cancelledAt: UtcTimestamp | null;
  cancellationReason: string | null;
  confirmationAttempts: ConfirmationAttempt[];
  liveMode: boolean;
}

/** The reduced form returned by charge creation. */
export interface CreatedCharge {
  reference: string;
  status: ChargeStatus;
  displayText: string;
  liveMode: boolean;
}

/** A payout to a mobile-money phone, normalized: integer XOF amount, fee as a percent, `recipientWallet` null when the service names none. */
export interface Transfer {
  reference: string;
  amount: number;
  feePercent: number;
  currency: string;
  recipientPhone: string;
  recipientWallet: Wallet | null;
  status: TransferStatus;
  extId: string | null;
  ipAddress: string | null;
  liveMode: boolean;
  createdAt: UtcTimestamp;
}

/** Where a settlement is paid: bank fields, a mobile-money phone or a USDT wallet, each null when the account type has none. */
export interface SettlementAccount {
  iban: string | null;
  rib: string | null;
  bankName: string | null;
  bankAddress: string | null;
  accountHolderName: string | null;
  accountHolderAddress: string | null;
  swiftBicCode: string | null;
  provider: string | null;
  phone: string | null;
  usdtWalletAddress: string | null;
}

/** A withdrawal of collected funds to the merchant's account, normalized; the fees are integer XOF like the amount. */
export interface Settlement {
  reference: string;
  amount: number;
  settlementFees: number;
  currency: string;
  status: SettlementStatus;
  accountType: AccountType;
  account: SettlementAccount;
  liveMode: boolean;
  createdAt: UtcTimestamp;
  updatedAt: UtcTimestamp;
}

/** Integer XOF amounts: what can be spent now, and what is still waiting to clear. */
export interface MoneyBucket {
  available: number;
  pending: number;
}

/** The merchant's balances: collections, the transfer total, and one bucket per wallet that holds a Transfer Balance. */
export interface Balance {
  currency: string;
  collection: MoneyBucket;
  transferTotal: MoneyBucket;
  wallets: Array<{ wallet: Wallet } & MoneyBucket>;
}

/** The filters of the charge list, each optional and combined with AND; dates are calendar days, amounts integer XOF. */
export interface ChargeListFilter {
  reference?: string;
  status?: (typeof CHARGE_FILTER_STATUSES)[number];
  provider?: Provider;
  phone?: string;
  /** YYYY-MM-DD */
  dateFrom?: string;
  /** YYYY-MM-DD */
  dateTo?: string;
  amountMin?: number;
  amountMax?: number;
}

/** Where a page of the charge list sits among all pages, as the service counted them. */
export interface Pagination {
  totalRecords: number;
  currentPage: number;
  totalPages: number;
  hasNext: boolean;
  hasPrevious: boolean;
}

/** One page of the charge list and where it sits. */
export interface ChargePage {
  items: Charge[];
  pagination: Pagination;
}

/** What a checkout is opened with: an integer XOF amount and where the customer returns after paying or giving up. */
export interface InitializeCheckoutInput {
  amount: number;
  successUrl: string;
  cancelUrl: string;
  email?: string | null;
}

/** What a charge is created with; `confirmationMethod` and `currency` are sent only when given (the service decides otherwise). */
export interface CreateChargeInput {
  amount: number;
  phone: string;
  provider: Provider;
  confirmationMethod?: ConfirmationMethod | null;
  extId?: string | null;
  currency?: string;
}

/** The one-time code a customer received, for the charge that waits on it. */
export interface SubmitChargeOtpInput {
  chargeReference: string;
  otp: string;
}

/** One payout: integer XOF amount, recipient phone, and optionally the wallet to pay from and the merchant's own id. */
export interface CreateTransferInput {
  amount: number;
  recipientPhone: string;
  recipientWallet?: Wallet | null;
  extId?: string | null;
}

/** One rejected item of a bulk transfer, as the service reported it. */
export interface BulkTransferFailure {
  /** The submitted item as echoed back by the service. */
  item: { amount: number; recipientPhone: string; recipientWallet: Wallet | null; extId: string | null };
  /** Position of the item in the request, when it could be matched; null otherwise. */
  index: number | null;
  nonFieldErrors: string[];
  fieldErrors: Array<{ path: string[]; message: string }>;
}

/** What a bulk transfer returns: how many items were queued, and each item the service rejected, with why. */
export interface BulkTransferResult {
  message: string;
  /** From the message when it states a count, else submitted minus failed. */
  queuedCount: number;
  failures: BulkTransferFailure[];
}

/**
 * One typed function per REST operation of the payment service.
 * Every method resolves with normalized data or rejects with an UpstreamCallError.
 */
export interface UpstreamClient {
  initializeCheckout(input: InitializeCheckoutInput): Promise<InitializedCheckout>;
  /** Accepts either reference form (`chk_<hex>` or UUID). */
  fetchCheckout(reference: string): Promise<Checkout>;
  listCheckouts(): Promise<Checkout[]>;

  createCharge(input: CreateChargeInput): Promise<CreatedCharge>;
  submitChargeOtp(input: SubmitChargeOtpInput): Promise<Charge>;
  fetchCharge(reference: string): Promise<Charge>;
  /** `page` is 1-based; `pageSize` is sent under the configured parameter names. */
  listCharges(filter: ChargeListFilter, page: { page: number; pageSize: number }): Promise<ChargePage>;

  fetchBalance(): Promise<Balance>;

  createTransfer(input: CreateTransferInput): Promise<Transfer>;
  createBulkTransfer(items: CreateTransferInput[]): Promise<BulkTransferResult>;
  listTransfers(): Promise<Transfer[]>;
  fetchTransfer(reference: string): Promise<Transfer>;

  createSettlement(input: { amount: number }): Promise<Settlement>;
  fetchSettlement(reference: string): Promise<Settlement>;
  listSettlements(): Promise<Settlement[]>;
  cancelSettlement(reference: string): Promise<Settlement>;

  /** Closes the connection pool. */
  close(): Promise<void>;
}

/** The operations of the service: every client method but `close`, each declared once in ./operations.ts. */
export type Operation = Exclude<keyof UpstreamClient, 'close'>;
