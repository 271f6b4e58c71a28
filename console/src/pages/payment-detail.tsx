// One payment: amount, fees, status, operator, phone (as the API gives it), confirmation attempts, its timeline from
// the event history, and the webhook deliveries its events caused. Followed live.
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import {
  ConsoleChargeDocument,
  ConsoleCheckoutDocument,
  ConsoleTimelineDocument,
  ConsoleWebhookDeliveriesDocument,
  WebhookEndpointsDocument,
} from '../../../client/generated/graphql.js';
import { useLanguage } from '../i18n.js';
import { useSession } from '../session.js';
import { DataTable, DateTime, ErrorText, Money, Status, useLiveRefresh } from '../ui/common.js';

/** Fees in XOF from the service's percentage, rounded to the franc (integer arithmetic on hundredths of a percent). */
const feeOf = (amount: number, percent: number) => Math.round((amount * Math.round(percent * 100)) / 10_000);

function Timeline({ reference, createdAt }: { reference: string; createdAt: string | null | undefined }) {
  const { t } = useLanguage();
  const { claims } = useSession();
  const allowed = claims?.scopes.has('events:read') ?? false;
  const [{ data, error }, refetch] = useQuery({ query: ConsoleTimelineDocument, variables: { reference }, pause: !allowed });
  useLiveRefresh([], () => refetch({ requestPolicy: 'network-only' }), null);
  if (!allowed) return null;
  const events = [...(data?.events.edges.map((e) => e.node) ?? [])].reverse();
  return (
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">{t('detail.timeline')}</h2>
      <ErrorText error={error} />
      <ol className="timeline">
        <li>
          <strong>{t('detail.created')}</strong> <DateTime value={createdAt} />
        </li>
        {events.map((e) => (
          <li key={e.id}>
            <strong>{t(`event.${e.kind}`, { defaultValue: e.kind })}</strong> <DateTime value={e.receivedAt} />{' '}
            <span className="muted">{t(`source.${e.source}`)}</span>
          </li>
        ))}
      </ol>
      {data && <EventDeliveries eventIds={events.map((e) => e.id)} since={createdAt ?? null} />}
    </section>
  );
}

function EndpointDeliveries({
  endpointId,
  url,
  eventIds,
  since,
}: {
  endpointId: string;
  url: string;
  eventIds: Set<string>;
  since: string | null;
}) {
  const { t } = useLanguage();
  const [{ data }] = useQuery({
    query: ConsoleWebhookDeliveriesDocument,
    variables: { endpointId, first: 100, filter: since ? { from: since } : null },
  });
  const deliveries = data?.webhookDeliveries.edges.map((e) => e.node).filter((d) => eventIds.has(d.eventId)) ?? [];
  if (!deliveries.length) return null;
  return (
    <li>
      <span className="mono">{url}</span>
      <ul>
        {deliveries.map((d) => (
          <li key={d.id}>
            {t(`event.${d.kind}`, { defaultValue: d.kind })} — <Status value={d.status} /> —{' '}
            {t('developers.attempts', { count: d.attempts.length })}
          </li>
        ))}
      </ul>
    </li>
  );
}

function EventDeliveries({ eventIds, since }: { eventIds: string[]; since: string | null }) {
  const { t } = useLanguage();
  const { claims } = useSession();
  const allowed = claims?.scopes.has('webhooks:manage') ?? false;
  const [{ data }] = useQuery({ query: WebhookEndpointsDocument, pause: !allowed });
  const ids = useMemo(() => new Set(eventIds), [eventIds]);
  if (!allowed || !data) return null;
  return (
    <section aria-labelledby="deliveries-title">
      <h3 id="deliveries-title">{t('detail.deliveries')}</h3>
      {data.webhookEndpoints.edges.length === 0 ? (
        <p className="empty">{t('detail.noEndpoints')}</p>
      ) : (
        <ul>
          {data.webhookEndpoints.edges.map(({ node }) => (
            <EndpointDeliveries key={node.id} endpointId={node.id} url={node.url} eventIds={ids} since={since} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ChargeDetail({ reference }: { reference: string }) {
  const { t } = useLanguage();
  const [{ data, error, fetching }, refetch] = useQuery({ query: ConsoleChargeDocument, variables: { reference } });
  useLiveRefresh(['charge.success', 'charge.failed'], () => refetch({ requestPolicy: 'network-only' }), null);
  const charge = data?.charge;
  if (fetching && !data) return <p aria-live="polite">{t('common.loading')}</p>;
  if (error) return <ErrorText error={error} />;
  if (!charge) return <p role="alert">{t('detail.notFound')}</p>;
  return (
    <>
      <dl className="facts">
        <dt>{t('payments.amount')}</dt>
        <dd>
          <Money amount={charge.amount} />
        </dd>
        <dt>{t('detail.fees')}</dt>
        <dd>
          <Money amount={feeOf(charge.amount, charge.feePercent)} /> <span className="muted">({charge.feePercent} %)</span>
        </dd>
        <dt>{t('payments.status')}</dt>
        <dd>
          <Status value={charge.status} />
        </dd>
        <dt>{t('payments.operator')}</dt>
        <dd>{t(`operator.${charge.provider}`)}</dd>
        <dt>{t('payments.phone')}</dt>
        <dd>{charge.phone ?? '—'}</dd>
        <dt>{t('detail.method')}</dt>
        <dd>{charge.paymentMethod}</dd>
        <dt>{t('detail.extId')}</dt>
        <dd className="mono">{charge.extId ?? '—'}</dd>
        <dt>{t('payments.date')}</dt>
        <dd>
          <DateTime value={charge.createdAt} />
        </dd>
      </dl>
      <section aria-labelledby="attempts-title">
        <h2 id="attempts-title">{t('detail.attempts')}</h2>
        <DataTable
          caption={t('detail.attempts')}
          rows={charge.confirmationAttempts}
          rowKey={(a) => `${a.attemptDate}-${a.status}`}
          empty={t('detail.noAttempts')}
          columns={[
            { key: 'at', header: t('payments.date'), cell: (a) => <DateTime value={a.attemptDate} /> },
            { key: 'status', header: t('payments.status'), cell: (a) => a.status },
            { key: 'ip', header: t('detail.ip'), cell: (a) => a.ipAddress ?? '—' },
          ]}
        />
      </section>
      <Timeline reference={charge.reference} createdAt={charge.createdAt} />
    </>
  );
}

function CheckoutDetail({ reference }: { reference: string }) {
  const { t } = useLanguage();
  const [{ data, error, fetching }, refetch] = useQuery({ query: ConsoleCheckoutDocument, variables: { reference } });
  useLiveRefresh(['checkout.success', 'checkout.failed'], () => refetch({ requestPolicy: 'network-only' }), null);
  const checkout = data?.checkout;
  if (fetching && !data) return <p aria-live="polite">{t('common.loading')}</p>;
  if (error) return <ErrorText error={error} />;
  if (!checkout) return <p role="alert">{t('detail.notFound')}</p>;
  return (
    <>
      <dl className="facts">
        <dt>{t('payments.amount')}</dt>
        <dd>
          <Money amount={checkout.amount} />
        </dd>
        <dt>{t('payments.status')}</dt>
        <dd>
          <Status value={checkout.status} />
        </dd>
        <dt>{t('payments.operator')}</dt>
        <dd>{checkout.provider ? t(`operator.${checkout.provider}`) : '—'}</dd>
        <dt>{t('payments.phone')}</dt>
        <dd>{checkout.phone ?? '—'}</dd>
        <dt>{t('detail.charge')}</dt>
        <dd>
          {checkout.chargeReference ? (
            <Link href={`/payments/charges/${encodeURIComponent(checkout.chargeReference)}`} className="mono">
              {checkout.chargeReference}
            </Link>
          ) : (
            '—'
          )}
        </dd>
        <dt>{t('payments.date')}</dt>
        <dd>
          <DateTime value={checkout.createdAt} />
        </dd>
      </dl>
      <Timeline reference={checkout.reference} createdAt={checkout.createdAt} />
    </>
  );
}

export default function PaymentDetail({ kind, reference }: { kind: 'charge' | 'checkout'; reference: string }) {
  const { t } = useLanguage();
  const decoded = decodeURIComponent(reference);
  return (
    <section>
      <p>
        <Link href={`/payments?type=${kind === 'charge' ? 'charges' : 'checkouts'}`}>← {t('nav.payments')}</Link>
      </p>
      <h1>
        {t(kind === 'charge' ? 'detail.chargeTitle' : 'detail.checkoutTitle')} <span className="mono">{decoded}</span>
      </h1>
      {kind === 'charge' ? <ChargeDetail reference={decoded} /> : <CheckoutDetail reference={decoded} />}
    </section>
  );
}
