// Payouts: a single transfer (the console makes its idempotency key and keeps it while the form is unchanged, so a
// retry after a lost answer never pays twice), the payout batches, and the recent transfers, refreshed live.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { Link } from 'wouter';
import {
  ConsolePayoutBatchesDocument,
  ConsoleTransfersDocument,
  CreateTransferDocument,
  type Wallet,
} from '../../../client/generated/graphql.js';
import { useLanguage } from '../i18n.js';
import { isTypedError } from '../lib/errors.js';
import { WALLETS } from '../lib/phone.js';
import { mayDo } from '../lib/scopes.js';
import { useSession } from '../session.js';
import { DataTable, DateTime, ErrorText, Money, Status, useLiveRefresh } from '../ui/common.js';

interface TransferForm {
  phone: string;
  amount: string;
  wallet: string;
  extId: string;
}
const EMPTY: TransferForm = { phone: '', amount: '', wallet: '', extId: '' };

function SingleTransfer() {
  const { t } = useLanguage();
  const [form, setForm] = useState<TransferForm>(EMPTY);
  // One key per intended payout: kept across retries of the same form, new once the form changes or succeeds.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [done, setDone] = useState<string | null>(null);
  const [result, createTransfer] = useMutation(CreateTransferDocument);
  const set = (field: keyof TransferForm) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [field]: e.target.value }));
    setKey(crypto.randomUUID());
    setDone(null);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const answer = await createTransfer({
      input: {
        idempotencyKey: key,
        recipientPhone: form.phone,
        amount: Number(form.amount),
        recipientWallet: (form.wallet || null) as Wallet | null,
        extId: form.extId.trim() || null,
      },
    });
    const payload = answer.data?.createTransfer;
    if (payload?.__typename === 'CreateTransferPayload') {
      setDone(t('payouts.sent', { reference: payload.transfer.reference, status: t(`status.${payload.transfer.status}`) }));
      setForm(EMPTY);
      setKey(crypto.randomUUID());
    }
  };
  const payload = result.data?.createTransfer;
  return (
    <section aria-labelledby="single-title">
      <h2 id="single-title">{t('payouts.single')}</h2>
      <form className="form-grid" onSubmit={(e) => void submit(e)}>
        <label>
          <span>{t('payouts.recipient')}</span>
          <input type="tel" required value={form.phone} onChange={set('phone')} inputMode="tel" autoComplete="off" />
        </label>
        <label>
          <span>{t('payments.amount')}</span>
          <input type="number" required min={100} step={1} value={form.amount} onChange={set('amount')} inputMode="numeric" />
        </label>
        <label>
          <span>{t('payouts.wallet')}</span>
          <select value={form.wallet} onChange={set('wallet')}>
            <option value="">{t('payouts.walletAuto')}</option>
            {WALLETS.map((w) => (
              <option key={w} value={w}>
                {t(`operator.${w}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{t('payouts.extId')}</span>
          <input value={form.extId} onChange={set('extId')} maxLength={100} />
        </label>
        <div className="filter-actions">
          <button type="submit" className="button primary" disabled={result.fetching}>
            {t('payouts.send')}
          </button>
        </div>
      </form>
      <p className="muted">{t('payouts.retryHint')}</p>
      <ErrorText error={result.error} typed={isTypedError(payload) ? payload : null} />
      {done && (
        <p role="status" className="notice">
          {done}
        </p>
      )}
    </section>
  );
}

function Batches() {
  const { t } = useLanguage();
  const [{ data, error }, refetch] = useQuery({ query: ConsolePayoutBatchesDocument, variables: { first: 25 } });
  useLiveRefresh(
    ['payout_batch.completed', 'payout_batch.awaiting_approval', 'payout_batch.cancelled', 'payout_batch.paused'],
    () => refetch({ requestPolicy: 'network-only' }),
    null,
  );
  const rows = data?.payoutBatches.edges.map((e) => e.node) ?? [];
  return (
    <section aria-labelledby="batches-title">
      <h2 id="batches-title">{t('payouts.batches')}</h2>
      <ErrorText error={error} />
      <DataTable
        caption={t('payouts.batches')}
        rows={rows}
        rowKey={(b) => b.id}
        empty={t('payouts.noBatches')}
        columns={[
          {
            key: 'label',
            header: t('payouts.label'),
            cell: (b) => <Link href={`/payouts/batches/${encodeURIComponent(b.batchId)}`}>{b.label}</Link>,
          },
          { key: 'status', header: t('payments.status'), cell: (b) => <Status value={b.awaitingApproval ? 'QUEUED' : b.status} /> },
          { key: 'items', header: t('payouts.items'), cell: (b) => b.added.items },
          { key: 'amount', header: t('payments.amount'), cell: (b) => <Money amount={b.added.amount} /> },
          { key: 'by', header: t('payouts.createdBy'), cell: (b) => <span className="mono">{b.createdBy}</span> },
          { key: 'date', header: t('payments.date'), cell: (b) => <DateTime value={b.createdAt} /> },
        ]}
      />
    </section>
  );
}

function Transfers() {
  const { t } = useLanguage();
  const [{ data, error }, refetch] = useQuery({ query: ConsoleTransfersDocument, variables: { first: 25 } });
  useLiveRefresh(['transfer.success', 'transfer.failed'], () => refetch({ requestPolicy: 'network-only' }), null);
  const rows = data?.transfers.edges.map((e) => e.node) ?? [];
  return (
    <section aria-labelledby="transfers-title">
      <h2 id="transfers-title">{t('payouts.transfers')}</h2>
      <ErrorText error={error} />
      <DataTable
        caption={t('payouts.transfers')}
        rows={rows}
        rowKey={(r) => r.reference}
        empty={t('payouts.noTransfers')}
        columns={[
          { key: 'reference', header: t('payments.reference'), cell: (r) => <span className="mono">{r.reference}</span> },
          { key: 'amount', header: t('payments.amount'), cell: (r) => <Money amount={r.amount} /> },
          { key: 'status', header: t('payments.status'), cell: (r) => <Status value={r.status} /> },
          { key: 'phone', header: t('payments.phone'), cell: (r) => r.recipientPhone },
          { key: 'wallet', header: t('payouts.wallet'), cell: (r) => (r.recipientWallet ? t(`operator.${r.recipientWallet}`) : '—') },
          { key: 'date', header: t('payments.date'), cell: (r) => <DateTime value={r.createdAt} /> },
        ]}
      />
    </section>
  );
}

export default function Payouts() {
  const { t } = useLanguage();
  const { claims } = useSession();
  const scopes = claims?.scopes ?? new Set();
  return (
    <section>
      <h1>{t('nav.payouts')}</h1>
      {scopes.has('payouts:write') && (
        <p className="actions">
          <Link href="/payouts/payroll" className="button">
            {t('nav.payroll')}
          </Link>
        </p>
      )}
      {mayDo(scopes, 'transfer') && <SingleTransfer />}
      <Batches />
      <Transfers />
    </section>
  );
}
