// In-memory state: one isolated account per API key, created on first use, and
// the records it holds. The domain modules (charges, checkouts, transfers,
// settlements) import their records from here; this module imports none of them.
import type { TimerHandle } from './clock.js';
import type { AccountType, ChargeStatus, CheckoutStatus, Provider, SettlementStatus, TransferStatus, Wallet } from './contract.js';
import { WALLETS } from './contract.js';
import { TEST_WALLET_FUNDING, type ChargeOutcome } from './test-data.js';

export interface Bucket {
  available: number;
  pending: number;
}

/** The payout destination set up in the service's administration interface. */
export interface PaymentAccount {
  account_type: AccountType;
  iban: string | null;
  rib: string | null;
  bank_name: string | null;
  bank_address: string | null;
  account_holder_name: string | null;
  account_holder_address: string | null;
  swift_bic_code: string | null;
  provider: string | null;
  phone: string | null;
  usdt_wallet_address: string | null;
}

export interface ConfirmationAttemptRecord {
  ipAddress: string;
  at: number;
  status: 'success' | 'failed';
}

export interface ChargeRecord {
  seq: number;
  reference: string;
  amount: number;
  feeBps: number;
  currency: 'XOF';
  paymentMethod: 'mobile_money';
  provider: Provider;
  phone: string;
  extId: string | null;
  /** Known once the operator has answered (success or failure). */
  operatorId: string | null;
  ipAddress: string;
  status: ChargeStatus;
  displayText: string;
  outcome: Exclude<ChargeOutcome, 'rejected'>;
  createdAt: number;
  updatedAt: number;
  attempts: ConfirmationAttemptRecord[];
  /** UUID of the checkout this charge pays, if it was made from the payment page. */
  checkoutUuid: string | null;
}

export interface CheckoutRecord {
  seq: number;
  uuid: string;
  /** `chk_<32 hex>`: what initialization returns and the payment page address uses. */
  publicReference: string;
  amount: number;
  email: string | null;
  successUrl: string;
  cancelUrl: string;
  /** "" until a charge is created for the checkout, as the service shows it. */
  phone: string;
  provider: string;
  chargeReference: string | null;
  status: CheckoutStatus;
  createdAt: number;
  updatedAt: number;
}

export interface TransferRecord {
  seq: number;
  reference: string;
  amount: number;
  feeBps: number;
  /** amount + fee, what moved from available to pending. */
  debited: number;
  recipientPhone: string;
  recipientWallet: Wallet;
  extId: string | null;
  ipAddress: string;
  status: TransferStatus;
  createdAt: number;
}

export interface SettlementRecord {
  seq: number;
  reference: string;
  amount: number;
  /** Taken out of the payout: the payment account receives amount - fees. */
  fees: number;
  status: SettlementStatus;
  payout: PaymentAccount;
  createdAt: number;
  updatedAt: number;
  nextMove: TimerHandle | null;
}

const TEST_BANK_ACCOUNT: PaymentAccount = {
  account_type: 'bank',
  iban: 'BF42BF0840101300463574000390',
  rib: 'BF084 01013 004635740003 90',
  bank_name: 'Banque Sandbox du Faso',
  bank_address: 'Avenue Kwame Nkrumah, Ouagadougou',
  account_holder_name: 'Sandbox Merchant SARL',
  account_holder_address: null,
  swift_bic_code: 'SBXFBFBF',
  provider: null,
  phone: null,
  usdt_wallet_address: null,
};

export const TEST_KEY_PREFIX = 'sk_test_';
/** Test keys of this form belong to an account that never set up a payout account. */
export const NO_PAYOUT_KEY_PREFIX = 'sk_test_nopayout_';

export class Account {
  readonly collection: Bucket = { available: 0, pending: 0 };
  readonly wallets: Record<Wallet, Bucket>;
  readonly charges = new Map<string, ChargeRecord>();
  /** By UUID reference. */
  readonly checkouts = new Map<string, CheckoutRecord>();
  readonly transfers = new Map<string, TransferRecord>();
  readonly transferExtIds = new Set<string>();
  readonly settlements = new Map<string, SettlementRecord>();
  /** Clock times of the bulk-transfer calls let through in the last second. */
  readonly bulkCalls: number[] = [];
  private seq = 0;

  constructor(
    /** For logs: never the API key. */
    readonly id: string,
    readonly paymentAccount: PaymentAccount | null,
  ) {
    this.wallets = Object.fromEntries(WALLETS.map((w) => [w, { available: TEST_WALLET_FUNDING, pending: 0 }])) as Record<Wallet, Bucket>;
  }

  /** Creation order, the tiebreak of every newest-first list. */
  nextSeq(): number {
    return ++this.seq;
  }

  /** The last creation number handed out (persistence.ts saves and restores it). */
  get lastSeq(): number {
    return this.seq;
  }

  set lastSeq(value: number) {
    this.seq = value;
  }
}

export function isTestKey(key: string | undefined): key is string {
  return typeof key === 'string' && key.startsWith(TEST_KEY_PREFIX) && key.length > TEST_KEY_PREFIX.length;
}

export class AccountStore {
  private readonly byKey = new Map<string, Account>();
  /** Checkouts by either reference form, across accounts: the payment page has no API key. */
  private readonly checkoutIndex = new Map<string, { account: Account; checkout: CheckoutRecord }>();

  /** The key's account, or null when the key is not an accepted test key. */
  authenticate(key: string | undefined): Account | null {
    if (!isTestKey(key)) return null;
    let account = this.byKey.get(key);
    if (!account) {
      account = new Account(`acct_${this.byKey.size + 1}`, key.startsWith(NO_PAYOUT_KEY_PREFIX) ? null : { ...TEST_BANK_ACCOUNT });
      this.byKey.set(key, account);
    }
    return account;
  }

  /** Every account with its key (persistence.ts). */
  entries(): Array<[string, Account]> {
    return [...this.byKey];
  }

  /** Puts back an account saved by persistence.ts, with its checkouts findable again. */
  restore(key: string, account: Account): void {
    this.byKey.set(key, account);
    for (const checkout of account.checkouts.values()) this.indexCheckout(account, checkout);
  }

  indexCheckout(account: Account, checkout: CheckoutRecord): void {
    this.checkoutIndex.set(checkout.uuid, { account, checkout });
    this.checkoutIndex.set(checkout.publicReference, { account, checkout });
  }

  findCheckout(reference: string): { account: Account; checkout: CheckoutRecord } | null {
    return this.checkoutIndex.get(reference) ?? null;
  }
}
