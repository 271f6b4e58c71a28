// Clean, normalized shapes of the payment service's resources.
// Everything above src/upstream/ sees only these: camelCase, no envelope,
// amounts as integers, fee rates as numbers, timestamps as UTC ISO strings
// ending in "Z", absent values as null (never the empty string).

export const PROVIDERS = ['opa_bf', 'opb_bf', 'opc_bf', 'opd_bf', 'ope_bj', 'opf_bj'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** Wallets that hold a Transfer Balance (opc_bf has none). */
export const WALLETS = ['opa_bf', 'opb_bf', 'opd_bf', 'ope_bj', 'opf_bj'] as const;
export type Wallet = (typeof WALLETS)[number];

export const CHECKOUT_STATUSES = ['pending', 'success', 'failed'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

export const CHARGE_STATUSES = ['success', 'failed', 'send_otp', 'pay_offline', 'pending', 'canceled'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** The statuses the charge-list `status` filter accepts upstream. */
export const CHARGE_FILTER_STATUSES = ['pending', 'success', 'failed'] as const;

export const TRANSFER_STATUSES = ['pending', 'success', 'failed'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const SETTLEMENT_STATUSES = ['processing', 'in_transit', 'success', 'cancelled'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

/** The four kinds of resource the service keeps, each fetched by reference. */
export const RESOURCE_KINDS = ['checkout', 'charge', 'transfer', 'settlement'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

export const ACCOUNT_TYPES = ['bank', 'mobile', 'usdt'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const CONFIRMATION_METHODS = ['otp', 'ussd'] as const;
export type ConfirmationMethod = (typeof CONFIRMATION_METHODS)[number];

/** UTC ISO 8601 timestamp, always with a "Z" suffix and millisecond precision. */
export type UtcTimestamp = string;

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

export interface InitializedCheckout {
  /** `chk_<hex>` as returned at initialization; fetch accepts it too. */
  reference: string;
  authorizationUrl: string;
  liveMode: boolean;
  message: string;
}

export interface ConfirmationAttempt {
  ipAddress: string | null;
  attemptDate: UtcTimestamp;
  status: 'success' | 'failed';
}

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

export interface MoneyBucket {
  available: number;
  pending: number;
}

export interface Balance {
  currency: string;
  collection: MoneyBucket;
  transferTotal: MoneyBucket;
  wallets: Array<{ wallet: Wallet } & MoneyBucket>;
}

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

export interface Pagination {
  totalRecords: number;
  currentPage: number;
  totalPages: number;
  hasNext: boolean;
  hasPrevious: boolean;
}

export interface ChargePage {
  items: Charge[];
  pagination: Pagination;
}

export interface InitializeCheckoutInput {
  amount: number;
  successUrl: string;
  cancelUrl: string;
  email?: string | null;
}

export interface CreateChargeInput {
  amount: number;
  phone: string;
  provider: Provider;
  confirmationMethod?: ConfirmationMethod | null;
  extId?: string | null;
  currency?: string;
}

export interface SubmitChargeOtpInput {
  chargeReference: string;
  otp: string;
}

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
