// Balances: the collection balance and each wallet's transfer balance (available and pending), and a chart (uPlot)
// of the amounts collected each day over the last 30 days, successful against failed, with the same figures as a
// table for screen readers and keyboards.
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useClient, useQuery } from 'urql';
import { BalanceDocument, ConsoleChargesForChartDocument, type ConsoleChargesForChartQuery } from '../../../client/generated/graphql.js';
import { useLanguage } from '../i18n.js';
import { formatDay, formatMoney, localDay, type Language } from '../lib/format.js';
import { DataTable, ErrorText, Money } from '../ui/common.js';

const DAYS = 30;
/** At most this many pages of 100 charges are read for the chart (the API pages 10,000 charges, never at once). */
const MAX_PAGES = 50;

interface Day {
  day: string;
  date: Date;
  success: number;
  failed: number;
}

function lastDays(): Day[] {
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  return [...Array(DAYS).keys()].map((i) => {
    const date = new Date(today);
    date.setDate(today.getDate() - (DAYS - 1 - i));
    return { day: localDay(date), date, success: 0, failed: 0 };
  });
}

function useDailyTotals() {
  const client = useClient();
  const [days, setDays] = useState<Day[] | null>(null);
  useEffect(() => {
    let stop = false;
    void (async () => {
      const totals = lastDays();
      const byDay = new Map(totals.map((d) => [d.day, d]));
      let after: string | null = null;
      for (let page = 0; page < MAX_PAGES && !stop; page++) {
        const result: { data?: ConsoleChargesForChartQuery } = await client
          .query(ConsoleChargesForChartDocument, { filter: { dateFrom: totals[0]!.day }, after }, { requestPolicy: 'network-only' })
          .toPromise();
        const connection = result.data?.charges;
        if (!connection) break;
        for (const { node } of connection.edges) {
          const day = node.createdAt ? byDay.get(localDay(new Date(node.createdAt))) : undefined;
          if (!day) continue;
          if (node.status === 'SUCCESS') day.success += node.amount;
          else if (node.status === 'FAILED' || node.status === 'CANCELED') day.failed += node.amount;
        }
        if (!connection.pageInfo.hasNextPage) break;
        after = connection.pageInfo.endCursor ?? null;
      }
      if (!stop) setDays(totals);
    })();
    return () => {
      stop = true;
    };
  }, [client]);
  return days;
}

function Chart({ days, language, labels }: { days: Day[]; language: Language; labels: { success: string; failed: string; day: string } }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = Math.max(280, Math.min(element.clientWidth - 16, 900));
    const plot = new uPlot(
      {
        width,
        height: 260,
        scales: { x: { time: false } },
        axes: [
          { values: (_u, ticks) => ticks.map((i) => (days[i] ? formatDay(days[i].date, language) : '')) },
          { size: 90, values: (_u, ticks) => ticks.map((v) => formatMoney(v)) },
        ],
        series: [
          { label: labels.day, value: (_u, i) => (days[i] ? formatDay(days[i].date, language) : '—') },
          {
            label: labels.success,
            stroke: '#116329',
            width: 2,
            fill: 'rgba(17, 99, 41, 0.12)',
            value: (_u, v) => (v === null ? '—' : formatMoney(v)),
          },
          { label: labels.failed, stroke: '#a40e26', width: 2, dash: [6, 4], value: (_u, v) => (v === null ? '—' : formatMoney(v)) },
        ],
        legend: { show: true },
      },
      [days.map((_, i) => i), days.map((d) => d.success), days.map((d) => d.failed)],
      element,
    );
    return () => plot.destroy();
  }, [days, language, labels]);
  return <div ref={box} className="chart" aria-hidden="true" />;
}

function DailyChart() {
  const { t, language } = useLanguage();
  const days = useDailyTotals();
  const labels = useMemo(() => ({ success: t('balances.succeeded'), failed: t('balances.failed'), day: t('payments.date') }), [t]);
  const totals = days?.reduce((sum, d) => ({ success: sum.success + d.success, failed: sum.failed + d.failed }), { success: 0, failed: 0 });
  return (
    <section aria-labelledby="chart-title">
      <h2 id="chart-title">{t('balances.chart')}</h2>
      {!days && <p aria-live="polite">{t('common.loading')}</p>}
      {days && totals && (
        <>
          <p>{t('balances.chartSummary', { success: formatMoney(totals.success), failed: formatMoney(totals.failed) })}</p>
          <Chart days={days} language={language} labels={labels} />
          <details>
            <summary>{t('balances.chart')}</summary>
            <DataTable
              caption={t('balances.chart')}
              rows={days.filter((d) => d.success || d.failed)}
              rowKey={(d) => d.day}
              empty="—"
              columns={[
                { key: 'day', header: t('payments.date'), cell: (d) => formatDay(d.date, language) },
                { key: 'success', header: labels.success, cell: (d) => <Money amount={d.success} /> },
                { key: 'failed', header: labels.failed, cell: (d) => <Money amount={d.failed} /> },
              ]}
            />
          </details>
        </>
      )}
    </section>
  );
}

export default function Balances() {
  const { t } = useLanguage();
  const [{ data, error }] = useQuery({ query: BalanceDocument });
  const balance = data?.balance;
  return (
    <section>
      <h1>{t('balances.title')}</h1>
      <ErrorText error={error} />
      {balance && (
        <>
          <ul className="cards" aria-label={t('balances.title')}>
            <li className="card">
              <h2>{t('balances.collection')}</h2>
              <p>
                {t('balances.available')} : <Money amount={balance.collection.available} />
              </p>
              <p>
                {t('balances.pending')} : <Money amount={balance.collection.pending} />
              </p>
            </li>
          </ul>
          <h2>{t('balances.transfer')}</h2>
          <DataTable
            caption={t('balances.transfer')}
            rows={balance.wallets}
            rowKey={(w) => w.wallet}
            empty="—"
            columns={[
              { key: 'wallet', header: t('payouts.wallet'), cell: (w) => t(`operator.${w.wallet.toUpperCase()}`) },
              { key: 'available', header: t('balances.available'), cell: (w) => <Money amount={w.available} /> },
              { key: 'pending', header: t('balances.pending'), cell: (w) => <Money amount={w.pending} /> },
            ]}
          />
        </>
      )}
      <DailyChart />
    </section>
  );
}
