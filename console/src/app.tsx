// The shell: navigation (only the pages the token's scopes allow), language and persona switches, sign-out, and
// the pages, each a bookmarkable URL under /console whose code is loaded on its first visit.
import { lazy, Suspense, type ReactNode } from 'react';
import { Button } from 'react-aria-components';
import { Link, Redirect, Route, Router, Switch, useLocation } from 'wouter';
import { useLanguage } from './i18n.js';
import { LanguageSwitch } from './ui/language-switch.js';
import { mayVisit, type Page } from './lib/scopes.js';
import { useSession } from './session.js';
import { settings } from './settings.js';
import { SignInDialog, SignInPage } from './sign-in.js';
import { ChooseMerchant, MerchantBadge } from './ui/merchant-switch.js';

const Payments = lazy(() => import('./pages/payments.js'));
const PaymentDetail = lazy(() => import('./pages/payment-detail.js'));
const Payouts = lazy(() => import('./pages/payouts.js'));
const Payroll = lazy(() => import('./pages/payroll.js'));
const Batch = lazy(() => import('./pages/batch.js'));
const Approvals = lazy(() => import('./pages/approvals.js'));
const Developers = lazy(() => import('./pages/developers.js'));
const Balances = lazy(() => import('./pages/balances.js'));
const Settlements = lazy(() => import('./pages/settlements.js'));

const NAV: { page: Page; href: string }[] = [
  { page: 'payments', href: '/payments' },
  { page: 'payouts', href: '/payouts' },
  { page: 'payroll', href: '/payouts/payroll' },
  { page: 'approvals', href: '/payouts/approvals' },
  { page: 'balances', href: '/balances' },
  { page: 'settlements', href: '/settlements' },
  { page: 'developers', href: '/developers' },
];

function Nav() {
  const { t } = useLanguage();
  const { claims } = useSession();
  const [location] = useLocation();
  const scopes = claims?.scopes ?? new Set();
  const current = NAV.filter((n) => location === n.href || location.startsWith(`${n.href}/`)).sort(
    (a, b) => b.href.length - a.href.length,
  )[0];
  return (
    <nav aria-label={t('nav.label')} className="nav">
      <ul>
        {NAV.filter((n) => mayVisit(scopes, n.page)).map((n) => (
          <li key={n.page}>
            <Link href={n.href} aria-current={current?.page === n.page ? 'page' : undefined}>
              {t(`nav.${n.page}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function PersonaSwitch() {
  const { t, language } = useLanguage();
  const session = useSession();
  if (settings.mode !== 'sandbox' || settings.personas.length === 0) return null;
  return (
    <label className="persona">
      <span>{t('session.persona')}</span>
      <select
        value={session.personaId ?? ''}
        onChange={(e) => {
          const persona = settings.personas.find((p) => p.id === e.target.value);
          if (persona) session.usePersona(persona);
        }}
      >
        {session.personaId === null && <option value="">{t('session.ownToken')}</option>}
        {settings.personas.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name[language]}
          </option>
        ))}
      </select>
    </label>
  );
}

function Header() {
  const { t } = useLanguage();
  const session = useSession();
  return (
    <header className="header">
      <a href="#main" className="skip">
        {t('nav.skip')}
      </a>
      <span className="brand">
        {t('app.title')}
        {settings.mode === 'sandbox' && <span className="badge badge-test">{t('app.sandbox')}</span>}
      </span>
      <div className="header-tools">
        <PersonaSwitch />
        <MerchantBadge />
        <span className="who" title={t('session.subject')}>
          {session.claims?.sub}
        </span>
        <LanguageSwitch />
        <Button className="link-button" onPress={() => session.signOut()}>
          {t('session.signOut')}
        </Button>
      </div>
    </header>
  );
}

/** A page the token may not see is not offered; reached by its URL, it says so instead of failing. */
function Guard({ page, children }: { page: Page; children: ReactNode }) {
  const { t } = useLanguage();
  const { claims } = useSession();
  if (!mayVisit(claims?.scopes ?? new Set(), page)) {
    return (
      <section>
        <h1>{t(`nav.${page}`)}</h1>
        <p role="alert">{t('session.notAllowed')}</p>
      </section>
    );
  }
  return <>{children}</>;
}

function Loading() {
  const { t } = useLanguage();
  return <p aria-live="polite">{t('common.loading')}</p>;
}

function Pages() {
  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path="/">
          <Redirect to="/payments" replace />
        </Route>
        <Route path="/payments">
          <Guard page="payments">
            <Payments />
          </Guard>
        </Route>
        <Route path="/payments/:kind/:reference">
          {(params) => (
            <Guard page="payments">
              <PaymentDetail kind={params.kind === 'checkouts' ? 'checkout' : 'charge'} reference={params.reference} />
            </Guard>
          )}
        </Route>
        <Route path="/payouts">
          <Guard page="payouts">
            <Payouts />
          </Guard>
        </Route>
        <Route path="/payouts/payroll">
          <Guard page="payroll">
            <Payroll />
          </Guard>
        </Route>
        <Route path="/payouts/approvals">
          <Guard page="approvals">
            <Approvals />
          </Guard>
        </Route>
        <Route path="/payouts/batches/:id">
          {(params) => (
            <Guard page="payouts">
              <Batch id={params.id} />
            </Guard>
          )}
        </Route>
        <Route path="/balances">
          <Guard page="balances">
            <Balances />
          </Guard>
        </Route>
        <Route path="/settlements">
          <Guard page="settlements">
            <Settlements />
          </Guard>
        </Route>
        <Route path="/developers">
          <Guard page="developers">
            <Developers />
          </Guard>
        </Route>
        <Route path="/callback">
          <Redirect to="/payments" replace />
        </Route>
        <Route>
          <NotFound />
        </Route>
      </Switch>
    </Suspense>
  );
}

function NotFound() {
  const { t } = useLanguage();
  return (
    <section>
      <h1>{t('common.notFound')}</h1>
      <Link href="/payments">{t('nav.payments')}</Link>
    </section>
  );
}

export function App() {
  const session = useSession();
  if (!session.token) {
    return (
      <Router base="/console">
        <SignInPage />
      </Router>
    );
  }
  return (
    <Router base="/console">
      <Header />
      <div className="layout">
        <Nav />
        <main id="main" tabIndex={-1}>
          {settings.merchantMode === 'platform' && !session.merchant ? <ChooseMerchant /> : <Pages key={session.merchant?.id} />}
        </main>
      </div>
      {session.expired && <SignInDialog />}
    </Router>
  );
}
