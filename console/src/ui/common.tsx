// Small shared pieces: amounts, times, statuses, errors, the responsive table (a list of cards at phone width),
// and the live refresh the lists share.
import { useEffect, useRef, type ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { useSubscription } from 'urql';
import { ConsoleEventsDocument } from '../../../client/generated/graphql.js';
import { useLanguage } from '../i18n.js';
import { combinedErrorText, typedErrorText, type TypedError } from '../lib/errors.js';
import { formatDateTime, formatMoney } from '../lib/format.js';
import { mayDo } from '../lib/scopes.js';
import { useSession } from '../session.js';

export const Money = ({ amount }: { amount: number | null | undefined }) => (
  <span className="money">{amount === null || amount === undefined ? '—' : formatMoney(amount)}</span>
);

export function DateTime({ value }: { value: string | null | undefined }) {
  const { language } = useLanguage();
  return value ? <time dateTime={value}>{formatDateTime(value, language)}</time> : <span>—</span>;
}

export function Status({ value }: { value: string }) {
  const { t } = useLanguage();
  const tone = /SUCCESS|SUCCEEDED|COMPLETED$|SUCCESSFUL|PAID/.test(value)
    ? 'ok'
    : /FAIL|CANCEL|NOT_SENT|REJECT/.test(value)
      ? 'bad'
      : 'wait';
  return <span className={`badge badge-${tone}`}>{t(`status.${value}`, { defaultValue: value })}</span>;
}

export function ErrorText({ error, typed }: { error?: CombinedError | undefined; typed?: TypedError | null | undefined }) {
  const { language } = useLanguage();
  const text = typed ? typedErrorText(typed, language) : error ? combinedErrorText(error, language) : null;
  return text ? (
    <p role="alert" className="error">
      {text}
    </p>
  ) : null;
}

export interface Column<Row> {
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
}

/** A table on a wide screen; at phone width each row becomes a card whose cells carry their column's name. */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
}: {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  empty: string;
}) {
  if (rows.length === 0) return <p className="empty">{empty}</p>;
  return (
    <table className="data">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.key} scope="col">
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((c) => (
              <td key={c.key} data-label={c.header}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** At most one refresh a second per list: a burst of events (a payroll's hundreds of transfers) makes one read, not hundreds. */
const REFRESH_AT_MOST_EVERY_MS = 1_000;

/**
 * Runs `refresh` when an event of one of `kinds` arrives (paymentEvents over graphql-ws), and every `pollMs` while
 * the page is visible: the service announces final statuses only, so a payment just created shows up by the poll.
 * Refreshes are throttled (leading and trailing edge): the first event refreshes at once, the rest of a burst once at
 * its end, so the page still shows the last state.
 */
export function useLiveRefresh(kinds: string[], refresh: () => void, pollMs: number | null = 2_000): void {
  const { claims } = useSession();
  const live = mayDo(claims?.scopes ?? new Set(), 'live');
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  const lastRefresh = useRef(0);
  const trailing = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Hand-written rather than a throttle library: ten lines, and it must read the latest `refresh` through the ref.
  const throttledRefresh = useRef(() => {
    if (trailing.current) return;
    const run = () => {
      trailing.current = null;
      lastRefresh.current = Date.now();
      refreshRef.current();
    };
    const wait = lastRefresh.current + REFRESH_AT_MOST_EVERY_MS - Date.now();
    if (wait <= 0) run();
    else trailing.current = setTimeout(run, wait);
  }).current;
  useEffect(
    () => () => {
      if (trailing.current) clearTimeout(trailing.current);
    },
    [],
  );
  const [{ data }] = useSubscription({ query: ConsoleEventsDocument, variables: { kinds }, pause: !live });
  const lastId = data?.paymentEvents.id;
  useEffect(() => {
    if (lastId) throttledRefresh();
  }, [lastId, throttledRefresh]);
  useEffect(() => {
    if (!pollMs) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') throttledRefresh();
    }, pollMs);
    return () => clearInterval(timer);
  }, [pollMs, throttledRefresh]);
}

/** Cursor paging (Relay): the cursors of the pages before this one, so Previous works without `last`/`before`. */
export function Pager({
  hasNext,
  onNext,
  hasPrevious,
  onPrevious,
}: {
  hasNext: boolean;
  onNext: () => void;
  hasPrevious: boolean;
  onPrevious: () => void;
}) {
  const { t } = useLanguage();
  return (
    <nav className="pager" aria-label={t('common.pagination')}>
      <button type="button" className="button" onClick={onPrevious} disabled={!hasPrevious}>
        {t('common.previous')}
      </button>
      <button type="button" className="button" onClick={onNext} disabled={!hasNext}>
        {t('common.next')}
      </button>
    </nav>
  );
}

export function download(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
