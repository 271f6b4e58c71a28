// A payroll from a CSV file: the template, the file checked row by row in the browser (bad rows named with their
// reason, nothing sent while there is one), totals and fees per wallet against each wallet's balance; then the
// batch made, filled and submitted, which leaves it awaiting approval by someone else. The batch's idempotency key
// is made once per file, so a submit retried after a lost answer continues the same batch.
import { useMemo, useState, type ChangeEvent } from 'react';
import { useClient, useQuery } from 'urql';
import { useLocation } from 'wouter';
import {
  AddPayoutBatchItemsDocument,
  BalanceDocument,
  CreatePayoutBatchDocument,
  StartPayoutBatchDocument,
} from '../../../client/generated/graphql.js';
import { useLanguage } from '../i18n.js';
import { combinedErrorText, isTypedError, typedErrorText } from '../lib/errors.js';
import { RULE_TEXT } from '../lib/phone.js';
import { previewPayroll, TEMPLATE_CSV, type PayrollPreview, type RowProblem } from '../lib/payroll.js';
import { settings } from '../settings.js';
import { DataTable, download, Money } from '../ui/common.js';
import { WalletTotals } from '../ui/wallet-totals.js';

const PAGE = 500;

function useReason() {
  const { t, language } = useLanguage();
  return (p: RowProblem) => {
    switch (p.reason) {
      case 'phone_rule':
        return t('payroll.reasons.phone_rule', { wallet: t(`operator.${p.wallet}`), rule: RULE_TEXT[p.wallet][language] });
      case 'wallet_unknown':
        return t('payroll.reasons.wallet_unknown', { wallet: p.wallet });
      case 'ext_id_duplicate':
        return t('payroll.reasons.ext_id_duplicate', { line: p.firstLine });
      default:
        return t(`payroll.reasons.${p.reason}`);
    }
  };
}

function Preview({ preview }: { preview: PayrollPreview }) {
  const { t } = useLanguage();
  const reason = useReason();
  const [{ data: balance }] = useQuery({ query: BalanceDocument });
  const available = new Map(balance?.balance.wallets.map((w) => [w.wallet.toUpperCase(), w.available]) ?? []);
  if (preview.fileProblem) {
    return (
      <p role="alert" className="error">
        {t(preview.fileProblem === 'empty' ? 'payroll.fileEmpty' : 'payroll.fileColumns')}
      </p>
    );
  }
  return (
    <>
      {preview.bad.length > 0 && (
        <section aria-labelledby="bad-title">
          <div role="alert">
            <h2 id="bad-title" className="error">
              {t('payroll.badRows', { count: preview.bad.length })}
            </h2>
          </div>
          <DataTable
            caption={t('payroll.badRows', { count: preview.bad.length })}
            rows={preview.bad}
            rowKey={(r) => String(r.line)}
            empty=""
            columns={[
              { key: 'line', header: t('payroll.line'), cell: (r) => r.line },
              { key: 'extId', header: 'ext_id', cell: (r) => <span className="mono">{r.extId ?? '—'}</span> },
              { key: 'phone', header: t('payments.phone'), cell: (r) => r.phone || '—' },
              { key: 'amount', header: t('payments.amount'), cell: (r) => r.amount || '—' },
              { key: 'reason', header: t('payroll.reason'), cell: (r) => r.problems.map(reason).join(' ; ') },
            ]}
          />
        </section>
      )}
      <section aria-labelledby="totals-title">
        <h2 id="totals-title">
          {t('payroll.totals')} <span className="count">({t('payroll.goodRows', { count: preview.rows.length })})</span>
        </h2>
        <WalletTotals
          caption={t('payroll.totals')}
          rows={preview.totals.map((w) => ({ ...w, available: available.get(w.wallet) }))}
          more={[
            {
              key: 'shortfall',
              header: t('payroll.shortfall'),
              cell: (w) => {
                if (w.available == null) return '—';
                return w.available >= w.total ? (
                  t('payroll.enough')
                ) : (
                  <strong className="error">
                    <Money amount={w.total - w.available} />
                  </strong>
                );
              },
            },
          ]}
        />
      </section>
    </>
  );
}

export default function Payroll() {
  const { t, language } = useLanguage();
  const client = useClient();
  const [, navigate] = useLocation();
  const [text, setText] = useState<string | null>(null);
  const [fileName, setFileName] = useState('');
  const [label, setLabel] = useState('');
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [progress, setProgress] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const preview = useMemo(() => (text === null ? null : previewPayroll(text, settings.payoutFeeBps)), [text]);
  const ready = preview !== null && !preview.fileProblem && preview.bad.length === 0 && preview.rows.length > 0;

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setProblem(null);
    if (!file) return;
    setFileName(file.name);
    setText(await file.text());
    setKey(crypto.randomUUID());
    if (!label) setLabel(`${t('payroll.defaultLabel')} ${file.name.replace(/\.csv$/i, '')}`);
  };

  const submit = async () => {
    if (!preview || !ready) return;
    setProblem(null);
    const fail = (message: string) => {
      setProblem(message);
      setProgress(null);
    };
    const created = await client
      // A payroll always waits for a second person (four eyes), whatever PAYOUT_BATCH_APPROVAL says.
      .mutation(CreatePayoutBatchDocument, { create: { idempotencyKey: key, label: label || fileName, requireApproval: true } })
      .toPromise();
    const batch = created.data?.createPayoutBatch;
    if (created.error) return fail(combinedErrorText(created.error, language));
    if (batch?.__typename !== 'CreatePayoutBatchPayload') return fail(isTypedError(batch) ? typedErrorText(batch, language) : '');
    const batchId = batch.batch.batchId;
    for (let start = 0, page = 1; start < preview.rows.length; start += PAGE, page += 1) {
      setProgress(t('payroll.submitting', { done: start, total: preview.rows.length }));
      const items = preview.rows.slice(start, start + PAGE).map((row) => ({
        amount: row.amount,
        recipientPhone: row.phone,
        recipientWallet: row.walletNamed ? row.wallet : null,
        reference: row.extId,
      }));
      const added = await client.mutation(AddPayoutBatchItemsDocument, { add: { batchId, page, items } }).toPromise();
      const payload = added.data?.addPayoutBatchItems;
      if (added.error) return fail(combinedErrorText(added.error, language));
      if (payload?.__typename !== 'AddPayoutBatchItemsPayload') return fail(isTypedError(payload) ? typedErrorText(payload, language) : '');
    }
    const started = await client.mutation(StartPayoutBatchDocument, { start: { batchId } }).toPromise();
    const payload = started.data?.startPayoutBatch;
    if (started.error) return fail(combinedErrorText(started.error, language));
    if (payload?.__typename !== 'StartPayoutBatchPayload') return fail(isTypedError(payload) ? typedErrorText(payload, language) : '');
    navigate(`/payouts/batches/${encodeURIComponent(batchId)}`);
  };

  return (
    <section>
      <h1>{t('payroll.title')}</h1>
      <p>{t('payroll.intro')}</p>
      <p className="actions">
        <button type="button" className="button" onClick={() => download('modele-paie.csv', TEMPLATE_CSV)}>
          {t('payroll.template')}
        </button>
      </p>
      <div className="form-grid">
        <label>
          <span>{t('payroll.file')}</span>
          <input type="file" accept=".csv,text/csv" onChange={(e) => void onFile(e)} />
        </label>
        <label>
          <span>{t('payroll.label')}</span>
          <input value={label} onChange={(e) => setLabel(e.target.value)} maxLength={200} />
        </label>
      </div>
      {preview && <Preview preview={preview} />}
      {preview && (
        <p className="actions">
          <button type="button" className="button primary" disabled={!ready || progress !== null} onClick={() => void submit()}>
            {t('payroll.submit')}
          </button>
        </p>
      )}
      {progress && (
        <p role="status" aria-live="polite">
          {progress}
        </p>
      )}
      {problem !== null && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
    </section>
  );
}
