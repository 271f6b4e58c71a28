// Settlements: the list (live), a request for one (its idempotency key kept while the form is unchanged), and cancel
// while it is processing, showing the service's own refusal when it refuses.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { CancelSettlementDocument, ConsoleSettlementsDocument, CreateSettlementDocument } from '../../../client/generated/graphql.js';
import { useLanguage } from '../i18n.js';
import { isTypedError } from '../lib/errors.js';
import { mayDo } from '../lib/scopes.js';
import { useSession } from '../session.js';
import { DataTable, DateTime, ErrorText, Money, Status, useLiveRefresh } from '../ui/common.js';

const KINDS = ['settlement.processing', 'settlement.in_transit', 'settlement.success', 'settlement.cancelled'];

function CreateSettlement({ onDone }: { onDone: () => void }) {
  const { t } = useLanguage();
  const [amount, setAmount] = useState('');
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [notice, setNotice] = useState<string | null>(null);
  const [result, create] = useMutation(CreateSettlementDocument);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await create({ input: { amount: Number(amount), idempotencyKey: key } });
    const payload = answer.data?.createSettlement;
    if (payload?.__typename === 'SettlementPayload') {
      setNotice(t('settlements.created', { reference: payload.settlement.reference }));
      setAmount('');
      setKey(crypto.randomUUID());
      onDone();
    }
  };
  const payload = result.data?.createSettlement;
  return (
    <section aria-labelledby="create-settlement">
      <h2 id="create-settlement">{t('settlements.create')}</h2>
      <form className="form-grid" onSubmit={(e) => void submit(e)}>
        <label>
          <span>{t('settlements.amount')}</span>
          <input
            type="number"
            required
            min={1}
            step={1}
            inputMode="numeric"
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value);
              setKey(crypto.randomUUID());
              setNotice(null);
            }}
          />
        </label>
        <div className="filter-actions">
          <button type="submit" className="button primary" disabled={result.fetching}>
            {t('settlements.create')}
          </button>
        </div>
      </form>
      <ErrorText error={result.error} typed={isTypedError(payload) ? payload : null} />
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
    </section>
  );
}

export default function Settlements() {
  const { t } = useLanguage();
  const { claims } = useSession();
  const scopes = claims?.scopes ?? new Set();
  const [{ data, error }, refetch] = useQuery({ query: ConsoleSettlementsDocument, variables: { first: 25 } });
  const [cancellation, cancel] = useMutation(CancelSettlementDocument);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  useLiveRefresh(KINDS, refresh, null);
  const rows = data?.settlements.edges.map((e) => e.node) ?? [];
  const typed = cancellation.data?.cancelSettlement;
  return (
    <section>
      <h1>{t('settlements.title')}</h1>
      {mayDo(scopes, 'createSettlement') && <CreateSettlement onDone={refresh} />}
      <h2>{t('nav.settlements')}</h2>
      <ErrorText error={error ?? cancellation.error} typed={isTypedError(typed) ? typed : null} />
      {notice && <p role="status">{notice}</p>}
      <DataTable
        caption={t('settlements.title')}
        rows={rows}
        rowKey={(s) => s.reference}
        empty={t('settlements.empty')}
        columns={[
          { key: 'reference', header: t('payments.reference'), cell: (s) => <span className="mono">{s.reference}</span> },
          { key: 'amount', header: t('payments.amount'), cell: (s) => <Money amount={s.amount} /> },
          { key: 'fees', header: t('settlements.fees'), cell: (s) => <Money amount={s.settlementFees} /> },
          { key: 'status', header: t('payments.status'), cell: (s) => <Status value={s.status} /> },
          { key: 'account', header: t('settlements.account'), cell: (s) => s.accountType },
          { key: 'date', header: t('payments.date'), cell: (s) => <DateTime value={s.createdAt} /> },
          {
            key: 'cancel',
            header: t('settlements.cancel'),
            cell: (s) =>
              s.status === 'PROCESSING' && mayDo(scopes, 'cancelSettlement') ? (
                <button
                  type="button"
                  className="button danger"
                  aria-label={`${t('settlements.cancel')} ${s.reference}`}
                  onClick={() =>
                    void cancel({ reference: s.reference }).then((r) => {
                      const p = r.data?.cancelSettlement;
                      if (p?.__typename === 'SettlementPayload') setNotice(t('settlements.cancelled', { reference: s.reference }));
                      refresh();
                    })
                  }
                >
                  {t('settlements.cancel')}
                </button>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </section>
  );
}
