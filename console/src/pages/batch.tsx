// One payout batch: its counts followed live (payoutBatchUpdated over graphql-ws), its wallets, and what the token
// may do with it: approve (payouts:approve, and not its creator or starter: the four-eyes rule), cancel, resume a
// batch paused for want of funds, and download the results (each item's status, transfer reference and reason).
import { useState } from 'react';
import { useClient, useMutation, useQuery, useSubscription } from 'urql';
import { Link } from 'wouter';
import {
  ApprovePayoutBatchDocument,
  CancelPayoutBatchDocument,
  ConsolePayoutBatchDocument,
  ConsolePayoutBatchItemsDocument,
  ConsolePayoutBatchUpdatedDocument,
  StartPayoutBatchDocument,
  type ConsolePayoutBatchItemsQuery,
} from '../../../client/generated/graphql.js';
import { useLanguage } from '../i18n.js';
import { formatCount } from '../lib/format.js';
import { isTypedError } from '../lib/errors.js';
import { resultsCsv, type ResultItem } from '../lib/payroll.js';
import { mayApprove, mayDo } from '../lib/scopes.js';
import { useSession } from '../session.js';
import { DateTime, download, ErrorText, Money, Status } from '../ui/common.js';
import { WalletTotals } from '../ui/wallet-totals.js';

const FINAL = new Set(['COMPLETED', 'COMPLETED_WITH_FAILURES', 'CANCELLED']);

function useResults(id: string) {
  const client = useClient();
  const { language } = useLanguage();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const items: ResultItem[] = [];
      let after: string | null = null;
      do {
        const page: { data?: ConsolePayoutBatchItemsQuery } = await client
          .query(ConsolePayoutBatchItemsDocument, { id, first: 100, after }, { requestPolicy: 'network-only' })
          .toPromise();
        const connection = page.data?.payoutBatch?.items;
        if (!connection) break;
        items.push(...connection.edges.map((e) => e.node));
        after = connection.pageInfo.hasNextPage ? (connection.pageInfo.endCursor ?? null) : null;
      } while (after);
      download(`resultats-${id}.csv`, resultsCsv(items, language));
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

export default function Batch({ id }: { id: string }) {
  const { t } = useLanguage();
  const { claims } = useSession();
  const batchId = decodeURIComponent(id);
  const [{ data, error, fetching }, refetch] = useQuery({ query: ConsolePayoutBatchDocument, variables: { id: batchId } });
  const [live] = useSubscription({
    query: ConsolePayoutBatchUpdatedDocument,
    variables: { id: batchId },
    pause: !claims?.scopes.has('events:read'),
  });
  const [approval, approve] = useMutation(ApprovePayoutBatchDocument);
  const [cancellation, cancel] = useMutation(CancelPayoutBatchDocument);
  const [resumption, resume] = useMutation(StartPayoutBatchDocument);
  const results = useResults(batchId);
  const batch = data?.payoutBatch;
  if (fetching && !data) return <p aria-live="polite">{t('common.loading')}</p>;
  if (error) return <ErrorText error={error} />;
  if (!batch) return <p role="alert">{t('batch.notFound')}</p>;
  // The live view wins over the first read for what it carries (status, counts, approval).
  const now = { ...batch, ...(live.data?.payoutBatchUpdated ?? {}) };
  const scopes = claims?.scopes ?? new Set();
  const canApprove = claims ? mayApprove(claims, now) : false;
  const own = claims?.sub === now.createdBy || claims?.sub === now.startedBy;
  const done = now.succeeded.items + now.failed.items + now.notSent.items;
  const after = () => refetch({ requestPolicy: 'network-only' });
  const typed = [approval.data?.approvePayoutBatch, cancellation.data?.cancelPayoutBatch, resumption.data?.startPayoutBatch].find(
    isTypedError,
  );
  return (
    <section>
      <p>
        <Link href="/payouts">← {t('nav.payouts')}</Link>
      </p>
      <h1>
        {t('batch.title')} « {now.label} »
      </h1>
      <dl className="facts">
        <dt>{t('payments.status')}</dt>
        <dd>
          <Status value={now.status} /> {now.awaitingApproval && <span>{t('batch.awaiting')}</span>}
        </dd>
        <dt>{t('batch.createdBy')}</dt>
        <dd className="mono">{now.createdBy}</dd>
        <dt>{t('batch.startedBy')}</dt>
        <dd className="mono">{now.startedBy ?? '—'}</dd>
        <dt>{t('batch.approvedBy')}</dt>
        <dd className="mono">{now.approvedBy ?? '—'}</dd>
        <dt>{t('payments.date')}</dt>
        <dd>
          <DateTime value={now.createdAt} />
        </dd>
      </dl>
      <h2 id="progress-title">{t('batch.progress')}</h2>
      <progress className="progress" aria-labelledby="progress-title" max={Math.max(now.added.items, 1)} value={done} />
      <ul className="cards" aria-label={t('batch.progress')}>
        {(['added', 'sent', 'succeeded', 'failed', 'notSent'] as const).map((k) => (
          <li key={k} className="card">
            <h3>{t(`batch.${k}`)}</h3>
            <p>
              <span data-testid={`count-${k}`}>{formatCount(now[k].items)}</span> — <Money amount={now[k].amount} />
            </p>
          </li>
        ))}
      </ul>
      {now.status === 'PAUSED' && <p className="notice">{t('batch.paused')}</p>}
      {now.awaitingApproval && own && scopes.has('payouts:approve') && <p className="notice">{t('batch.ownBatch')}</p>}
      <div className="actions">
        {canApprove && (
          <button
            type="button"
            className="button primary"
            disabled={approval.fetching}
            onClick={() => void approve({ approve: { batchId } }).then(after)}
          >
            {t('batch.approve')}
          </button>
        )}
        {now.status === 'PAUSED' && mayDo(scopes, 'resumeBatch') && (
          <button
            type="button"
            className="button"
            disabled={resumption.fetching}
            onClick={() => void resume({ start: { batchId } }).then(after)}
          >
            {t('batch.resume')}
          </button>
        )}
        {!FINAL.has(now.status) && now.status !== 'CANCELLING' && mayDo(scopes, 'cancelBatch') && (
          <button
            type="button"
            className="button danger"
            disabled={cancellation.fetching}
            onClick={() => void cancel({ cancel: { batchId } }).then(after)}
          >
            {t('batch.cancel')}
          </button>
        )}
        {FINAL.has(now.status) && (
          <button type="button" className="button" disabled={results.busy} onClick={() => void results.run()}>
            {t('batch.results')}
          </button>
        )}
      </div>
      <ErrorText error={approval.error ?? cancellation.error ?? resumption.error} typed={typed ?? null} />
      <h2>{t('batch.wallets')}</h2>
      <WalletTotals caption={t('batch.wallets')} rows={batch.wallets} />
    </section>
  );
}
