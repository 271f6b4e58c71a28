import { WALLETS, type Wallet } from './contract.js';
import { MAX_AMOUNT } from './fees.js';
import { invalidData } from './http.js';
import type { Account } from './store.js';
import { ErrorCollector, dictExpected, isPlainObject, parseAmount } from './validation.js';

/**
 * Wire key of each wallet. The spec lists opa/opb/opd only; Benin wallets take
 * transfers too, so they get keys of the same pattern.
 */
export const WALLET_BALANCE_KEYS: Readonly<Record<Wallet, string>> = {
  opa_bf: 'opa_money_bf',
  opb_bf: 'opb_money_bf',
  opd_bf: 'opd_money_bf',
  ope_bj: 'ope_money_bj',
  opf_bj: 'opf_money_bj',
};

export function balanceView(account: Account) {
  const transfer: Record<string, unknown> = {
    total_available: WALLETS.reduce((sum, w) => sum + account.wallets[w].available, 0),
    total_pending: WALLETS.reduce((sum, w) => sum + account.wallets[w].pending, 0),
  };
  for (const w of WALLETS) {
    transfer[WALLET_BALANCE_KEYS[w]] = { available: account.wallets[w].available, pending: account.wallets[w].pending };
  }
  return {
    collection_balances: { available: account.collection.available, pending: account.collection.pending, currency: 'XOF' },
    transfer_balances: transfer,
  };
}

/** Largest Transfer Balance a test top-up may leave in one wallet (keeps sums far inside safe integers). */
export const MAX_TEST_WALLET_BALANCE = 1_000_000 * MAX_AMOUNT;

/**
 * Test mode's way to fund a wallet (as payment APIs' test modes offer top-ups): credits
 * `amount` to the wallet's available Transfer Balance at once. Not part of the service's spec.
 */
export function topUpWallet(account: Account, rawWallet: string, raw: unknown) {
  if (!(WALLETS as readonly string[]).includes(rawWallet)) {
    throw invalidData({ wallet: [`"${rawWallet}" is not a valid choice.`] });
  }
  if (!isPlainObject(raw)) throw invalidData(dictExpected(raw));
  const errors = new ErrorCollector();
  const amount = errors.take('amount', parseAmount(raw.amount, 1));
  const wallet = account.wallets[rawWallet as Wallet];
  if (amount !== undefined && wallet.available + amount > MAX_TEST_WALLET_BALANCE) {
    errors.add('amount', `Ensure the wallet's balance stays at or below ${MAX_TEST_WALLET_BALANCE}.`);
  }
  if (!errors.empty) throw invalidData(errors.errors);
  wallet.available += amount!;
  return balanceView(account);
}
