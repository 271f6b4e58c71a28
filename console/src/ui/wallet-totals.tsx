// Totals and fees per wallet against each wallet's balance, as a table: a payroll's preview before anything is sent
// (payroll.tsx, which adds whether each wallet covers its total) and a batch's page (batch.tsx).
import { useLanguage } from '../i18n.js';
import { DataTable, Money, type Column } from './common.js';

/** One wallet's share of a payroll or a batch: its items, their amount and fees, the total, and what it holds. */
export interface WalletLine {
  wallet: string;
  items: number;
  amount: number;
  fees: number;
  total: number;
  /** The wallet's available balance; undefined while it is not known. */
  available: number | null | undefined;
}

/** A table of wallets, with `more` columns after the shared ones. */
export function WalletTotals<Line extends WalletLine>({
  caption,
  rows,
  more = [],
}: {
  caption: string;
  rows: Line[];
  more?: Column<Line>[];
}) {
  const { t } = useLanguage();
  const columns: Column<Line>[] = [
    { key: 'wallet', header: t('payouts.wallet'), cell: (w) => t(`operator.${w.wallet}`) },
    { key: 'items', header: t('payouts.items'), cell: (w) => w.items },
    { key: 'amount', header: t('payments.amount'), cell: (w) => <Money amount={w.amount} /> },
    { key: 'fees', header: t('payroll.fees'), cell: (w) => <Money amount={w.fees} /> },
    { key: 'total', header: t('payroll.total'), cell: (w) => <Money amount={w.total} /> },
    { key: 'available', header: t('payroll.available'), cell: (w) => <Money amount={w.available} /> },
    ...more,
  ];
  return <DataTable caption={caption} rows={rows} rowKey={(w) => w.wallet} empty="" columns={columns} />;
}
