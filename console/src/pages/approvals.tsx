// The approvals queue, for holders of payouts:approve: batches submitted and waiting for a second person. A batch
// this person prepared or submitted is listed but offers no approval (the API refuses it anyway: SelfApprovalError).
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { ConsolePayoutBatchesDocument } from '../../../client/generated/graphql.js';
import { useLanguage } from '../i18n.js';
import { mayApprove } from '../lib/scopes.js';
import { useSession } from '../session.js';
import { DataTable, DateTime, ErrorText, Money, useLiveRefresh } from '../ui/common.js';

export default function Approvals() {
  const { t } = useLanguage();
  const { claims } = useSession();
  const [{ data, error }, refetch] = useQuery({
    query: ConsolePayoutBatchesDocument,
    variables: { filter: { status: 'QUEUED' }, first: 100 },
  });
  useLiveRefresh(
    ['payout_batch.awaiting_approval', 'payout_batch.approved', 'payout_batch.cancelled'],
    () => refetch({ requestPolicy: 'network-only' }),
    5_000,
  );
  const rows = data?.payoutBatches.edges.map((e) => e.node).filter((b) => b.awaitingApproval) ?? [];
  return (
    <section>
      <h1>{t('approvals.title')}</h1>
      <p>{t('approvals.intro')}</p>
      <ErrorText error={error} />
      <DataTable
        caption={t('approvals.title')}
        rows={rows}
        rowKey={(b) => b.id}
        empty={t('approvals.empty')}
        columns={[
          {
            key: 'label',
            header: t('payouts.label'),
            cell: (b) => <Link href={`/payouts/batches/${encodeURIComponent(b.batchId)}`}>{b.label}</Link>,
          },
          { key: 'items', header: t('payouts.items'), cell: (b) => b.added.items },
          { key: 'amount', header: t('payments.amount'), cell: (b) => <Money amount={b.added.amount} /> },
          { key: 'by', header: t('payouts.createdBy'), cell: (b) => <span className="mono">{b.createdBy}</span> },
          { key: 'date', header: t('payments.date'), cell: (b) => <DateTime value={b.createdAt} /> },
          {
            key: 'approve',
            header: t('batch.approve'),
            cell: (b) => (claims && mayApprove(claims, b) ? t('common.yes') : <span className="muted">{t('batch.ownBatch')}</span>),
          },
        ]}
      />
    </section>
  );
}
