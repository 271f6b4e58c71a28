// Developers: webhook endpoints (Svix's App Portal, in the console). Create one: its whsec_ secret is shown once,
// with a copy button, held only by this page's state (gone when the page is left or reloaded; the API never shows
// it again). Edit its kinds, enable or disable it, rotate its secret; its deliveries with their attempts (time,
// status, duration, the first 1 KB of the answer); redeliver, replay since a time, send a test event; health badges;
// and a live feed of the events.
import { useState, type FormEvent } from 'react';
import { Button } from 'react-aria-components';
import { useMutation, useQuery, useSubscription } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import {
  ConsoleEventsDocument,
  ConsoleWebhookDeliveriesDocument,
  WebhookEndpointsDocument,
  CreateWebhookEndpointDocument,
  RedeliverWebhookDocument,
  ReplayWebhookEventsDocument,
  RotateWebhookEndpointSecretDocument,
  SendTestWebhookDocument,
  UpdateWebhookEndpointDocument,
  WebhookEventKindsDocument,
  type ConsoleEventsSubscription,
  type WebhookEndpointsQuery,
} from '../../../client/generated/graphql.js';
import { useLanguage } from '../i18n.js';
import { isTypedError } from '../lib/errors.js';
import { localDay } from '../lib/format.js';
import { DataTable, DateTime, ErrorText, useLiveRefresh } from '../ui/common.js';

type Endpoint = WebhookEndpointsQuery['webhookEndpoints']['edges'][number]['node'];

function Health({ endpoint }: { endpoint: Endpoint }) {
  const { t } = useLanguage();
  const h = endpoint.health;
  if (!endpoint.enabled) return <span className="badge badge-bad">{t('developers.disabled')}</span>;
  if (h.failingSince) return <span className="badge badge-bad">{t('developers.failing')}</span>;
  if (h.lastSuccessAt) return <span className="badge badge-ok">{t('developers.healthy')}</span>;
  return <span className="badge badge-wait">{t('developers.new')}</span>;
}

/** A secret shown once: this component's state is the only place it lives. */
function OnceSecret({ secret }: { secret: string }) {
  const { t } = useLanguage();
  const [copied, setCopied] = useState(false);
  return (
    <div className="secret" role="status">
      <p>{t('developers.secretOnce')}</p>
      <code aria-label={t('developers.secretLabel')}>{secret}</code>
      <Button
        className="button"
        onPress={() => {
          void navigator.clipboard?.writeText(secret).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        {copied ? t('common.copied') : t('common.copy')}
      </Button>
    </div>
  );
}

function KindPicker({
  kinds,
  selected,
  onChange,
  legend,
}: {
  kinds: string[];
  selected: Set<string>;
  onChange: (next: Set<string>) => void;
  legend: string;
}) {
  const { t } = useLanguage();
  return (
    <fieldset className="kinds">
      <legend>{legend}</legend>
      <p className="muted">{selected.size === 0 ? t('developers.allKinds') : null}</p>
      {kinds.map((kind) => (
        <label key={kind} className="check">
          <input
            type="checkbox"
            checked={selected.has(kind)}
            onChange={(e) => {
              const next = new Set(selected);
              if (e.target.checked) next.add(kind);
              else next.delete(kind);
              onChange(next);
            }}
          />
          <span className="mono">{kind}</span>
        </label>
      ))}
    </fieldset>
  );
}

function CreateEndpoint({ kinds, onCreated }: { kinds: string[]; onCreated: () => void }) {
  const { t } = useLanguage();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [selected, setSelected] = useState(new Set<string>());
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [secret, setSecret] = useState<string | null>(null);
  const [result, create] = useMutation(CreateWebhookEndpointDocument);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await create({ create: { url, description: description || null, kinds: [...selected], idempotencyKey: key } });
    const payload = answer.data?.createWebhookEndpoint;
    if (payload?.__typename === 'CreateWebhookEndpointPayload') {
      setSecret(payload.secret);
      setUrl('');
      setDescription('');
      setSelected(new Set());
      setKey(crypto.randomUUID());
      onCreated();
    }
  };
  const payload = result.data?.createWebhookEndpoint;
  return (
    <section aria-labelledby="create-title">
      <h2 id="create-title">{t('developers.create')}</h2>
      {secret && <OnceSecret secret={secret} />}
      <form className="form-grid" onSubmit={(e) => void submit(e)}>
        <label>
          <span>{t('developers.url')}</span>
          <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://" />
        </label>
        <label>
          <span>{t('developers.description')}</span>
          <input value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <KindPicker kinds={kinds} selected={selected} onChange={setSelected} legend={t('developers.kinds')} />
        <div className="filter-actions">
          <button type="submit" className="button primary" disabled={result.fetching}>
            {t('developers.create')}
          </button>
        </div>
      </form>
      <ErrorText error={result.error} typed={isTypedError(payload) ? payload : null} />
    </section>
  );
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const { t } = useLanguage();
  const [{ data, error }, refetch] = useQuery({ query: ConsoleWebhookDeliveriesDocument, variables: { endpointId, first: 20 } });
  const [redelivery, redeliver] = useMutation(RedeliverWebhookDocument);
  // Deliveries are not events: read again every 2 s while the page is visible.
  useLiveRefresh([], () => refetch({ requestPolicy: 'network-only' }), 2_000);
  const rows = data?.webhookDeliveries.edges.map((e) => e.node) ?? [];
  const typed = redelivery.data?.redeliverWebhook;
  return (
    <section aria-labelledby="deliveries-title">
      <h3 id="deliveries-title">{t('developers.deliveries')}</h3>
      <ErrorText error={error ?? redelivery.error} typed={isTypedError(typed) ? typed : null} />
      {rows.length === 0 && <p className="empty">{t('developers.noDeliveries')}</p>}
      <ul className="deliveries">
        {rows.map((d) => (
          <li key={d.id} className="card" aria-label={`${d.kind} ${d.eventId}`}>
            <p>
              <span className="mono">{d.kind}</span> —{' '}
              <span className={`badge badge-${d.status === 'SUCCEEDED' ? 'ok' : d.status === 'FAILED' ? 'bad' : 'wait'}`}>
                {t(`status.${d.status}`)}
              </span>{' '}
              — {t('developers.attempts', { count: d.attempts.length })} — <DateTime value={d.createdAt} />
            </p>
            <DataTable
              caption={`${t('developers.deliveries')} ${d.eventId}`}
              rows={d.attempts}
              rowKey={(a) => a.at}
              empty=""
              columns={[
                { key: 'at', header: t('payments.date'), cell: (a) => <DateTime value={a.at} /> },
                { key: 'status', header: t('developers.httpStatus'), cell: (a) => a.httpStatus ?? a.error ?? '—' },
                { key: 'duration', header: t('developers.duration'), cell: (a) => `${a.durationMs} ms` },
                {
                  key: 'answer',
                  header: t('developers.answer'),
                  cell: (a) => <code className="excerpt">{a.responseBodyExcerpt ?? ''}</code>,
                },
              ]}
            />
            <button
              type="button"
              className="button"
              onClick={() => void redeliver({ deliveryId: d.id }).then(() => refetch({ requestPolicy: 'network-only' }))}
            >
              {t('developers.redeliver')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ManageEndpoint({ endpoint, kinds, onChanged }: { endpoint: Endpoint; kinds: string[]; onChanged: () => void }) {
  const { t } = useLanguage();
  const [selected, setSelected] = useState(new Set(endpoint.kinds));
  const [since, setSince] = useState(() => `${localDay(new Date())}T00:00`);
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [update, runUpdate] = useMutation(UpdateWebhookEndpointDocument);
  const [rotation, rotate] = useMutation(RotateWebhookEndpointSecretDocument);
  const [test, sendTest] = useMutation(SendTestWebhookDocument);
  const [replay, runReplay] = useMutation(ReplayWebhookEventsDocument);
  const typed = [
    update.data?.updateWebhookEndpoint,
    rotation.data?.rotateWebhookEndpointSecret,
    test.data?.sendTestWebhook,
    replay.data?.replayWebhookEvents,
  ].find(isTypedError);
  return (
    <section aria-labelledby="manage-title" className="card">
      <h2 id="manage-title">
        <span className="mono">{endpoint.url}</span> <Health endpoint={endpoint} />
      </h2>
      <dl className="facts">
        <dt>{t('developers.lastSuccess')}</dt>
        <dd>
          <DateTime value={endpoint.health.lastSuccessAt} />
        </dd>
        <dt>{t('developers.failingSince')}</dt>
        <dd>
          <DateTime value={endpoint.health.failingSince} />
        </dd>
        <dt>{t('developers.waiting')}</dt>
        <dd>{endpoint.health.deliveriesWaiting}</dd>
      </dl>
      {secret && <OnceSecret secret={secret} />}
      <div className="actions">
        <button type="button" className="button" onClick={() => void sendTest({ endpointId: endpoint.id }).then(onChanged)}>
          {t('developers.test')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => void runUpdate({ update: { endpointId: endpoint.id, enabled: !endpoint.enabled } }).then(onChanged)}
        >
          {endpoint.enabled ? t('developers.disable') : t('developers.enable')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() =>
            void rotate({ endpointId: endpoint.id }).then((r) => {
              const p = r.data?.rotateWebhookEndpointSecret;
              if (p?.__typename === 'RotateWebhookEndpointSecretPayload') setSecret(p.secret);
            })
          }
        >
          {t('developers.rotate')}
        </button>
      </div>
      <form
        className="form-grid"
        onSubmit={(e) => {
          e.preventDefault();
          void runUpdate({ update: { endpointId: endpoint.id, kinds: [...selected] } }).then(onChanged);
        }}
      >
        <KindPicker kinds={kinds} selected={selected} onChange={setSelected} legend={t('developers.kinds')} />
        <div className="filter-actions">
          <button type="submit" className="button">
            {t('developers.saveKinds')}
          </button>
        </div>
      </form>
      <form
        className="form-grid"
        onSubmit={(e) => {
          e.preventDefault();
          void runReplay({ endpointId: endpoint.id, since: new Date(since).toISOString() }).then((r) => {
            const p = r.data?.replayWebhookEvents;
            if (p?.__typename === 'ReplayWebhookEventsPayload') setNotice(t('developers.replayed', { count: p.eventsQueued }));
          });
        }}
      >
        <label>
          <span>{t('developers.replay')}</span>
          <input type="datetime-local" required value={since} onChange={(e) => setSince(e.target.value)} />
        </label>
        <div className="filter-actions">
          <button type="submit" className="button">
            {t('developers.replay')}
          </button>
        </div>
      </form>
      {notice && <p role="status">{notice}</p>}
      <ErrorText error={update.error ?? rotation.error ?? test.error ?? replay.error} typed={typed ?? null} />
      <Deliveries endpointId={endpoint.id} />
    </section>
  );
}

function LiveFeed() {
  const { t } = useLanguage();
  const [{ data: feed }] = useSubscription<ConsoleEventsSubscription, ConsoleEventsSubscription['paymentEvents'][]>(
    { query: ConsoleEventsDocument, variables: { kinds: null } },
    (previous = [], event) => [event.paymentEvents, ...previous].slice(0, 20),
  );
  return (
    <section aria-labelledby="feed-title">
      <h2 id="feed-title">{t('developers.liveFeed')}</h2>
      <ol className="feed" aria-live="polite">
        {(feed ?? []).map((e) => (
          <li key={e.id}>
            <span className="mono">{e.kind}</span> {e.reference && <span className="mono">{e.reference}</span>}{' '}
            <DateTime value={e.receivedAt} />
          </li>
        ))}
      </ol>
      {!feed?.length && <p className="empty">{t('developers.liveEmpty')}</p>}
    </section>
  );
}

export default function Developers() {
  const { t } = useLanguage();
  const search = useSearch();
  const [, navigate] = useLocation();
  const chosen = new URLSearchParams(search).get('endpoint');
  const [{ data, error }, refetch] = useQuery({ query: WebhookEndpointsDocument });
  const [{ data: kindData }] = useQuery({ query: WebhookEventKindsDocument });
  const kinds = kindData?.webhookEventKinds ?? [];
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  useLiveRefresh([], refresh, 3_000);
  const endpoints = data?.webhookEndpoints.edges.map((e) => e.node) ?? [];
  const current = endpoints.find((e) => e.id === chosen) ?? null;
  return (
    <section>
      <h1>{t('developers.title')}</h1>
      <h2>{t('developers.endpoints')}</h2>
      <ErrorText error={error} />
      <DataTable
        caption={t('developers.endpoints')}
        rows={endpoints}
        rowKey={(e) => e.id}
        empty={t('developers.empty')}
        columns={[
          { key: 'url', header: t('developers.url'), cell: (e) => <span className="mono">{e.url}</span> },
          { key: 'health', header: t('developers.health'), cell: (e) => <Health endpoint={e} /> },
          { key: 'kinds', header: t('developers.kinds'), cell: (e) => (e.kinds.length ? e.kinds.join(', ') : t('developers.allKinds')) },
          {
            key: 'manage',
            header: t('developers.manage'),
            cell: (e) => (
              <Link href={`/developers?endpoint=${encodeURIComponent(e.id)}`} aria-label={`${t('developers.manage')} ${e.url}`}>
                {t('developers.manage')}
              </Link>
            ),
          },
        ]}
      />
      {current && <ManageEndpoint key={current.id} endpoint={current} kinds={kinds} onChanged={refresh} />}
      <CreateEndpoint
        kinds={kinds}
        onCreated={() => {
          refresh();
          navigate('/developers');
        }}
      />
      <LiveFeed />
    </section>
  );
}
