// Balances: what was collected, and what each wallet can pay out.
import type { Balance, MoneyBucket, Wallet } from '../upstream/types.js';
import { access } from './access.js';
import { builder } from './builder.js';
import { WalletEnum } from './enums.js';

const MoneyBucketRef = builder.objectRef<MoneyBucket>('MoneyBucket').implement({
  description: 'Funds in XOF, as the payment service reports them.',
  fields: (t) => ({
    available: t.exposeFloat('available', { description: 'Usable now.' }),
    pending: t.exposeFloat('pending', { description: 'On hold: being transferred or settled.' }),
  }),
});

const WalletBalanceRef = builder.objectRef<{ wallet: Wallet } & MoneyBucket>('WalletBalance').implement({
  description: 'The Transfer Balance of one wallet. Each wallet is topped up on its own.',
  fields: (t) => ({
    wallet: t.field({ type: WalletEnum, resolve: (w) => w.wallet, description: 'The wallet.' }),
    available: t.exposeFloat('available', { description: 'Can be paid out now.' }),
    pending: t.exposeFloat('pending', { description: 'Held by transfers in progress.' }),
  }),
});

const BalanceRef = builder.objectRef<Balance>('Balance').implement({
  description: 'Balances of the account. Figures are passed on exactly as the service reports them.',
  fields: (t) => ({
    currency: t.exposeString('currency', { description: 'Always XOF.' }),
    collection: t.field({
      type: MoneyBucketRef,
      resolve: (b) => b.collection,
      description: 'Collection Balance: payments received, less fees.',
    }),
    transferTotal: t.field({
      type: MoneyBucketRef,
      resolve: (b) => b.transferTotal,
      description: "All wallets' Transfer Balances together.",
    }),
    wallets: t.field({ type: [WalletBalanceRef], resolve: (b) => b.wallets, description: 'Transfer Balance per wallet.' }),
  }),
});

builder.queryField('balance', (t) =>
  t.field({
    ...access({ scope: 'payments:read' }),
    type: BalanceRef,
    description: 'Current balances.',
    resolve: (_root, _args, ctx) => ctx.upstream.fetchBalance(),
  }),
);
