// Platform mode's merchant switch. A merchant's own token works on its merchant alone, which the header names; a
// token without a merchant (the platform operator's) picks the merchant it acts for, and every call then names it
// (X-Merchant-Id, or `merchantId` over the WebSocket). Switching makes a new client, so nothing cached for one
// merchant is shown for another. Listing the merchants takes `platform:manage`; any operator may open one by its id.
import { useState, type FormEvent } from 'react';
import { Button } from 'react-aria-components';
import { useQuery } from 'urql';
import { ConsoleMerchantsDocument } from '../../../client/generated/graphql.js';
import { useLanguage } from '../i18n.js';
import { useSession } from '../session.js';
import { settings } from '../settings.js';
import { ErrorText } from './common.js';

/** The merchants one page of the switch lists (the API's largest page); the others are opened by their id. */
const LISTED = 100;
const MERCHANT_ID = /^mer_[A-Za-z0-9_-]+$/;

/** The header's part: which merchant the page works on, and (for an operator) a way back to the choice. */
export function MerchantBadge() {
  const { t } = useLanguage();
  const session = useSession();
  if (settings.merchantMode !== 'platform' || !session.merchant) return null;
  const mayChange = !session.claims?.merchantId;
  return (
    <span className="merchant">
      <span>{t('merchant.label')} </span>
      <strong data-merchant-id={session.merchant.id}>{session.merchant.name ?? session.merchant.id}</strong>
      {mayChange && (
        <Button className="link-button" onPress={() => session.chooseMerchant(null)}>
          {t('merchant.change')}
        </Button>
      )}
    </span>
  );
}

/** The page an operator's token sees until it picks a merchant: the platform's merchants, and an id field. */
export function ChooseMerchant() {
  const { t } = useLanguage();
  const session = useSession();
  const [id, setId] = useState('');
  const [invalid, setInvalid] = useState(false);
  const open = (event: FormEvent) => {
    event.preventDefault();
    const value = id.trim();
    if (!MERCHANT_ID.test(value)) return setInvalid(true);
    session.chooseMerchant({ id: value, name: null });
  };
  return (
    <section aria-labelledby="choose-merchant">
      <h1 id="choose-merchant">{t('merchant.title')}</h1>
      <p>{t('merchant.intro')}</p>
      {session.claims?.managesPlatform && <MerchantList />}
      <form onSubmit={open} noValidate>
        <label>
          <span>{t('merchant.byId')}</span>
          <input
            value={id}
            onChange={(e) => {
              setId(e.target.value);
              setInvalid(false);
            }}
            placeholder="mer_…"
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? 'merchant-id-error' : undefined}
            autoComplete="off"
            spellCheck={false}
          />
        </label>
        <button type="submit">{t('merchant.open')}</button>
        {invalid && (
          <p id="merchant-id-error" role="alert" className="error">
            {t('merchant.badId')}
          </p>
        )}
      </form>
    </section>
  );
}

function MerchantList() {
  const { t } = useLanguage();
  const session = useSession();
  const [{ data, error, fetching }] = useQuery({ query: ConsoleMerchantsDocument, variables: { first: LISTED } });
  if (error) return <ErrorText error={error} />;
  if (fetching && !data) return <p aria-live="polite">{t('common.loading')}</p>;
  const merchants = (data?.merchants.edges ?? []).map((e) => e.node).filter((m) => m.status !== 'OFFBOARDED');
  if (merchants.length === 0) return <p>{t('merchant.none')}</p>;
  return (
    <>
      <h2>{t('merchant.list')}</h2>
      <ul className="merchant-list">
        {merchants.map((m) => (
          <li key={m.merchantId}>
            <Button className="link-button" onPress={() => session.chooseMerchant({ id: m.merchantId, name: m.name })}>
              {m.name}
            </Button>{' '}
            <code>{m.merchantId}</code>
            {m.status === 'SUSPENDED' && <span className="badge"> {t('merchant.suspended')}</span>}
          </li>
        ))}
      </ul>
      {merchants.length >= LISTED && <p>{t('merchant.more', { count: LISTED })}</p>}
    </>
  );
}
