import { WALLETS, type Wallet } from './contract.js';
import type { Account } from './store.js';

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
