// Payments: charges and checkouts, every filter the API has (status, operator, phone, dates, amounts) and a search
// by reference, phone or ext_id (charges: the gateway's index of the charges it created or saw), in the URL so that a view can be bookmarked and shared; 25 at a time (Relay cursors);
// refreshed live.
import { useMemo, useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { ConsoleChargesDocument, ConsoleCheckoutsDocument, type Provider } from '../../../client/generated/graphql.js';
import { useLanguage } from '../i18n.js';
import { SEARCH_IN, filterFrom } from '../lib/payment-search.js';
import { DataTable, DateTime, ErrorText, Money, Pager, Status, useLiveRefresh } from '../ui/common.js';

const PROVIDERS: Provider[] = ['OPA_BF', 'OPB_BF', 'OPC_BF', 'OPD_BF', 'OPE_BJ', 'OPF_BJ'];
const CHARGE_STATUSES = ['PENDING', 'SUCCESS', 'FAILED'];
const CHECKOUT_STATUSES = ['PENDING', 'SUCCESS', 'FAILED'];
const PAGE_SIZE = 25;
const FIELDS = ['q', 'in', 'status', 'provider', 'phone', 'dateFrom', 'dateTo', 'amountMin', 'amountMax'] as const;

type Field = (typeof FIELDS)[number];
function Filters({ kind, params }: { kind: 'charges' | 'checkouts'; params: URLSearchParams }) {
  const { t } = useLanguage();
  const [, navigate] = useLocation();
  const [values, setValues] = useState<Record<Field, string>>(
    () => Object.fromEntries(FIELDS.map((f) => [f, params.get(f) ?? ''])) as Record<Field, string>,
  );
  const set = (field: Field) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams({ type: kind });
    for (const f of FIELDS) if (values[f].trim()) next.set(f, values[f].trim());
    navigate(`/payments?${next}`);
  };
  const statuses = kind === 'charges' ? CHARGE_STATUSES : CHECKOUT_STATUSES;
  return (
    <form className="filters" onSubmit={apply} role="search" aria-label={t('payments.filters')}>
      <label>
        <span>{t('payments.search')}</span>
        <input type="search" value={values.q} onChange={set('q')} placeholder={t(`payments.searchHint.${kind}`)} />
      </label>
      <label>
        <span>{t('payments.searchIn')}</span>
        <select value={values.in} onChange={set('in')}>
          {SEARCH_IN.filter((s) => s !== 'extId' || kind === 'charges').map((s) => (
            <option key={s} value={s === 'auto' ? '' : s}>
              {t(`payments.searchBy.${s}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{t('payments.status')}</span>
        <select value={values.status} onChange={set('status')}>
          <option value="">{t('common.all')}</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {t(`status.${s}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{t('payments.operator')}</span>
        <select value={values.provider} onChange={set('provider')}>
          <option value="">{t('common.all')}</option>
          {PROVIDERS.map((p) => (
            <option key={p} value={p}>
              {t(`operator.${p}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{t('payments.phone')}</span>
        <input type="tel" value={values.phone} onChange={set('phone')} inputMode="tel" />
      </label>
      <label>
        <span>{t('payments.dateFrom')}</span>
        <input type="date" value={values.dateFrom} onChange={set('dateFrom')} />
      </label>
      <label>
        <span>{t('payments.dateTo')}</span>
        <input type="date" value={values.dateTo} onChange={set('dateTo')} />
      </label>
      <label>
        <span>{t('payments.amountMin')}</span>
        <input type="number" min={0} step={1} value={values.amountMin} onChange={set('amountMin')} inputMode="numeric" />
      </label>
      <label>
        <span>{t('payments.amountMax')}</span>
        <input type="number" min={0} step={1} value={values.amountMax} onChange={set('amountMax')} inputMode="numeric" />
      </label>
      <div className="filter-actions">
        <button type="submit" className="button primary">
          {t('payments.apply')}
        </button>
        <Link href={`/payments?type=${kind}`} className="button">
          {t('payments.reset')}
        </Link>
      </div>
    </form>
  );
}

interface Row {
  reference: string;
  amount: number;
  status: string;
  provider?: string | null;
  phone?: string | null;
  createdAt?: string | null;
}

function PaymentList({ kind, params }: { kind: 'charges' | 'checkouts'; params: URLSearchParams }) {
  const { t } = useLanguage();
  const filter = useMemo(() => filterFrom(params), [params]);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors[cursors.length - 1] ?? null;
  const variables = { filter, first: PAGE_SIZE, after };
  const [charges, refetchCharges] = useQuery({ query: ConsoleChargesDocument, variables, pause: kind !== 'charges' });
  const [checkouts, refetchCheckouts] = useQuery({ query: ConsoleCheckoutsDocument, variables, pause: kind !== 'checkouts' });
  const result = kind === 'charges' ? charges : checkouts;
  const connection = kind === 'charges' ? charges.data?.charges : checkouts.data?.checkouts;
  const refresh = () => (kind === 'charges' ? refetchCharges : refetchCheckouts)({ requestPolicy: 'network-only' });
  // Live on the first page: later pages keep still while someone reads them. The service announces final statuses
  // only, so a payment just created is found by reading the first page again each second while the tab is visible.
  useLiveRefresh(
    kind === 'charges' ? ['charge.success', 'charge.failed'] : ['checkout.success', 'checkout.failed'],
    refresh,
    cursors.length === 1 ? 1_000 : null,
  );
  const rows: Row[] = connection?.edges.map((e) => e.node) ?? [];
  const detail = kind === 'charges' ? 'charges' : 'checkouts';
  return (
    <section aria-labelledby="list-title">
      <h2 id="list-title">
        {t(`payments.${kind}`)}
        {connection && <span className="count"> ({t('common.count', { count: connection.totalCount })})</span>}
      </h2>
      <ErrorText error={result.error} />
      {result.fetching && !connection && <p aria-live="polite">{t('common.loading')}</p>}
      {connection && (
        <>
          <DataTable
            caption={t(`payments.${kind}`)}
            rows={rows}
            rowKey={(r) => r.reference}
            empty={t('payments.empty')}
            columns={[
              {
                key: 'reference',
                header: t('payments.reference'),
                cell: (r) => (
                  <Link href={`/payments/${detail}/${encodeURIComponent(r.reference)}`} className="mono">
                    {r.reference}
                  </Link>
                ),
              },
              { key: 'amount', header: t('payments.amount'), cell: (r) => <Money amount={r.amount} /> },
              { key: 'status', header: t('payments.status'), cell: (r) => <Status value={r.status} /> },
              { key: 'operator', header: t('payments.operator'), cell: (r) => (r.provider ? t(`operator.${r.provider}`) : '—') },
              { key: 'phone', header: t('payments.phone'), cell: (r) => r.phone ?? '—' },
              { key: 'date', header: t('payments.date'), cell: (r) => <DateTime value={r.createdAt} /> },
            ]}
          />
          <Pager
            hasPrevious={cursors.length > 1}
            onPrevious={() => setCursors((c) => c.slice(0, -1))}
            hasNext={connection.pageInfo.hasNextPage}
            onNext={() => setCursors((c) => [...c, connection.pageInfo.endCursor ?? null])}
          />
        </>
      )}
    </section>
  );
}

export default function Payments() {
  const { t } = useLanguage();
  const search = useSearch();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const kind = params.get('type') === 'checkouts' ? 'checkouts' : 'charges';
  return (
    <section>
      <h1>{t('nav.payments')}</h1>
      <nav className="tabs" aria-label={t('payments.kinds')}>
        <Link href="/payments?type=charges" aria-current={kind === 'charges' ? 'page' : undefined}>
          {t('payments.charges')}
        </Link>
        <Link href="/payments?type=checkouts" aria-current={kind === 'checkouts' ? 'page' : undefined}>
          {t('payments.checkouts')}
        </Link>
      </nav>
      <Filters key={`${kind}?${search}`} kind={kind} params={params} />
      <PaymentList key={`${kind}?${search}`} kind={kind} params={params} />
    </section>
  );
}
