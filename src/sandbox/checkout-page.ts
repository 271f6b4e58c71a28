// The customer's payment page behind authorization_url. Server-rendered forms
// (works without JavaScript); a few lines of plain script only poll the status
// while a pay_offline charge waits for the phone. No API key: the checkout
// reference in the address is the customer's only credential, as on the real page.
import { createCharge, parseChargeRequest, submitOtp } from './charges.js';
import { attachCharge } from './checkouts.js';
import type { SandboxContext } from './context.js';
import { PROVIDERS, type Provider } from './contract.js';
import { ApiError, html, json, redirect, type FieldErrors, type HttpResult } from './http.js';
import type { Account, ChargeRecord, CheckoutRecord } from './store.js';
import { TEST_OTP, TEST_PHONES } from './test-data.js';

interface Bilingual {
  fr: string;
  en: string;
}

const PROVIDER_LABELS: Record<Provider, string> = {
  opa_bf: 'OPA — Burkina Faso',
  opb_bf: 'OPB — Burkina Faso',
  opc_bf: 'OPC — Burkina Faso',
  opd_bf: 'OPD — Burkina Faso',
  ope_bj: 'OPE — Bénin',
  opf_bj: 'OPF — Bénin',
};

type Found = { account: Account; checkout: CheckoutRecord };

function find(ctx: SandboxContext, reference: string): Found | null {
  return ctx.accounts.findCheckout(reference);
}

function chargeOf(found: Found): ChargeRecord | null {
  const ref = found.checkout.chargeReference;
  return ref ? (found.account.charges.get(ref) ?? null) : null;
}

export function withReference(url: string, uuid: string): string {
  const u = new URL(url);
  u.searchParams.set('reference', uuid);
  return u.toString();
}

// ---------------------------------------------------------------- handlers

export function showCheckoutPage(ctx: SandboxContext, reference: string): HttpResult {
  const found = find(ctx, reference);
  return found ? html(200, renderPage(found)) : notFoundPage();
}

export function payFromPage(ctx: SandboxContext, reference: string, form: URLSearchParams, ip: string): HttpResult {
  const found = find(ctx, reference);
  if (!found) return notFoundPage();
  const { account, checkout } = found;
  // A second charge for the same checkout would be a double payment.
  if (checkout.status !== 'pending' || chargeOf(found)) return redirect(pagePath(checkout));
  try {
    const request = parseChargeRequest({
      amount: checkout.amount,
      payment_method_details: {
        phone: form.get('phone') ?? '',
        provider: form.get('provider') ?? '',
        ...(form.get('confirmation_method') ? { confirmation_method: form.get('confirmation_method') } : {}),
      },
    });
    const charge = createCharge(ctx, account, request, ip, checkout.uuid);
    attachCharge(ctx, checkout, charge);
    return redirect(pagePath(checkout));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return html(400, renderPage(found, { error: pageError(error), phone: form.get('phone') ?? '', provider: form.get('provider') ?? '' }));
  }
}

export function submitOtpFromPage(ctx: SandboxContext, reference: string, form: URLSearchParams, ip: string): HttpResult {
  const found = find(ctx, reference);
  if (!found) return notFoundPage();
  const charge = chargeOf(found);
  if (!charge || charge.status !== 'send_otp') return redirect(pagePath(found.checkout));
  try {
    submitOtp(ctx, found.account, (form.get('otp') ?? '').trim(), charge.reference, ip);
    return redirect(withReference(found.checkout.successUrl, found.checkout.uuid));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // A declined payment has changed the checkout: show its final state.
    if (found.checkout.status !== 'pending') return redirect(pagePath(found.checkout));
    return html(400, renderPage(found, { error: pageError(error) }));
  }
}

/** Leaves the checkout as it is (pending: the payment was simply not made) and sends the customer back. */
export function cancelFromPage(ctx: SandboxContext, reference: string): HttpResult {
  const found = find(ctx, reference);
  if (!found) return notFoundPage();
  const { checkout } = found;
  if (checkout.status === 'success') return redirect(withReference(checkout.successUrl, checkout.uuid));
  return redirect(withReference(checkout.cancelUrl, checkout.uuid));
}

/** Polled by the page while a pay_offline charge waits for the phone. */
export function checkoutPageStatus(ctx: SandboxContext, reference: string): HttpResult {
  const found = find(ctx, reference);
  if (!found) return json(404, { status: 'not_found' });
  const { checkout } = found;
  return json(
    200,
    {
      status: checkout.status,
      charge_status: chargeOf(found)?.status ?? null,
      redirect_url: checkout.status === 'success' ? withReference(checkout.successUrl, checkout.uuid) : null,
    },
    { 'cache-control': 'no-store' },
  );
}

function pageError(error: ApiError): Bilingual {
  switch (error.extras.errorCode) {
    case 'OTP_INVALID':
      return { fr: 'Code OTP invalide. Veuillez réessayer.', en: 'Invalid OTP. Please try again.' };
    case 'OTP_EXPIRED':
      return { fr: 'Le code OTP a expiré.', en: 'The OTP has expired.' };
    case 'INVALID_ACCOUNT':
      return {
        fr: "Ce numéro n'est pas valide ou n'a pas de compte mobile money chez cet opérateur.",
        en: 'This number is invalid or has no mobile-money account with this operator.',
      };
    case 'UNSUPPORTED_PROVIDER':
      return { fr: 'Opérateur non pris en charge.', en: 'Unsupported operator.' };
  }
  const details = error.extras.errors?.payment_method_details as FieldErrors | undefined;
  if (details && 'provider' in details) return { fr: 'Choisissez un opérateur.', en: 'Choose an operator.' };
  if (details && 'phone' in details) {
    return { fr: 'Numéro de téléphone invalide pour cet opérateur.', en: 'Invalid phone number for this operator.' };
  }
  return { fr: 'La demande est invalide. Vérifiez les informations saisies.', en: 'The request is invalid. Check what you entered.' };
}

// ---------------------------------------------------------------- rendering

function pagePath(checkout: CheckoutRecord): string {
  return `/checkout/${checkout.publicReference}`;
}

function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function formatXof(amount: number): string {
  return `${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f')} FCFA`;
}

function both(text: Bilingual): string {
  return `<span lang="fr">${esc(text.fr)}</span><span class="en" lang="en">${esc(text.en)}</span>`;
}

interface PageState {
  error?: Bilingual;
  phone?: string;
  provider?: string;
}

function renderPage(found: Found, state: PageState = {}): string {
  const { checkout } = found;
  const charge = chargeOf(found);
  const path = pagePath(checkout);
  let body: string;
  let head = '';
  if (checkout.status === 'success') {
    body = `<div class="result ok">${both({ fr: 'Paiement réussi', en: 'Payment successful' })}</div>
      <a class="button" href="${esc(withReference(checkout.successUrl, checkout.uuid))}">${both({ fr: 'Retour au marchand', en: 'Back to the merchant' })}</a>`;
  } else if (checkout.status === 'failed') {
    body = `<div class="result ko">${both({ fr: 'Le paiement a échoué', en: 'The payment failed' })}</div>
      <a class="button" href="${esc(withReference(checkout.cancelUrl, checkout.uuid))}">${both({ fr: 'Retour au marchand', en: 'Back to the merchant' })}</a>`;
  } else if (charge?.status === 'send_otp') {
    body = `<p class="instructions">${esc(charge.displayText)}</p>
      <form method="post" action="${path}/otp">
        <label for="otp">${both({ fr: 'Code OTP', en: 'OTP code' })}</label>
        <input id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" maxlength="10" required autofocus>
        <button type="submit" id="confirm">${both({ fr: 'Confirmer le paiement', en: 'Confirm payment' })}</button>
      </form>${cancelForm(path)}`;
  } else if (charge?.status === 'pay_offline') {
    head = `<noscript><meta http-equiv="refresh" content="3"></noscript>`;
    body = `<p class="instructions">${esc(charge.displayText)}</p>
      <p class="waiting" role="status">${both({ fr: 'En attente de votre confirmation…', en: 'Waiting for your confirmation…' })}</p>
      ${cancelForm(path)}
      <script>
        (function () {
          function poll() {
            fetch(${JSON.stringify(`${path}/status`)}, { headers: { accept: 'application/json' }, cache: 'no-store' })
              .then(function (r) { return r.json(); })
              .then(function (s) {
                if (s.redirect_url) location.href = s.redirect_url;
                else if (s.status !== 'pending') location.reload();
                else setTimeout(poll, 1000);
              })
              .catch(function () { setTimeout(poll, 2000); });
          }
          setTimeout(poll, 1000);
        })();
      </script>`;
  } else {
    body = operatorForm(path, state) + cancelForm(path) + testNumbers();
  }
  const error = state.error ? `<div class="error" role="alert">${both(state.error)}</div>` : '';
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Paiement / Payment — ${esc(formatXof(checkout.amount))}</title>
${head}
<style>${CSS}</style>
</head>
<body>
<main class="card">
  <div class="badge">${both({ fr: 'MODE TEST', en: 'TEST MODE' })}</div>
  <h1>${both({ fr: 'Paiement mobile money', en: 'Mobile-money payment' })}</h1>
  <p class="amount">${esc(formatXof(checkout.amount))}</p>
  ${checkout.email ? `<p class="email">${esc(checkout.email)}</p>` : ''}
  ${error}
  ${body}
</main>
</body>
</html>`;
}

function operatorForm(path: string, state: PageState): string {
  const options = PROVIDERS.map(
    (p) =>
      `<label class="operator"><input type="radio" name="provider" value="${p}"${state.provider === p ? ' checked' : ''} required> ${esc(PROVIDER_LABELS[p])}</label>`,
  ).join('\n');
  return `<form method="post" action="${path}/pay">
    <fieldset>
      <legend>${both({ fr: 'Opérateur', en: 'Operator' })}</legend>
      ${options}
    </fieldset>
    <label for="phone">${both({ fr: 'Numéro de téléphone', en: 'Phone number' })}</label>
    <input id="phone" name="phone" inputmode="tel" autocomplete="tel" maxlength="15" required value="${esc(state.phone ?? '')}" placeholder="76000000">
    <button type="submit" id="pay">${both({ fr: 'Payer', en: 'Pay' })}</button>
  </form>`;
}

function cancelForm(path: string): string {
  return `<form method="post" action="${path}/cancel" class="cancel">
    <button type="submit" id="cancel" class="secondary">${both({ fr: 'Annuler', en: 'Cancel' })}</button>
  </form>`;
}

function testNumbers(): string {
  const rows = PROVIDERS.map((p) => {
    const t = TEST_PHONES[p];
    return `<tr><td>${p}</td><td>${t.succeeds}</td><td>${t.rejected}</td><td>${t.endsFailed}</td></tr>`;
  }).join('');
  return `<details class="test-data">
    <summary>${both({ fr: `Numéros de test — OTP ${TEST_OTP}`, en: `Test numbers — OTP ${TEST_OTP}` })}</summary>
    <table>
      <thead><tr><th></th><th>${both({ fr: 'réussit', en: 'succeeds' })}</th><th>${both({ fr: 'refusé', en: 'rejected' })}</th><th>${both({ fr: 'échoue', en: 'fails' })}</th></tr></thead>
      <tbody>${rows}</tbody>
    </table>
  </details>`;
}

function notFoundPage(): HttpResult {
  return html(
    404,
    `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Introuvable / Not found</title><style>${CSS}</style></head>
<body><main class="card"><h1>${both({ fr: 'Paiement introuvable', en: 'Payment not found' })}</h1></main></body></html>`,
  );
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#eef2f6;
  font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2733}
.card{width:100%;max-width:420px;margin:24px;padding:28px;background:#fff;border-radius:14px;box-shadow:0 6px 24px rgba(20,40,70,.12)}
.badge{display:inline-block;padding:2px 10px;border-radius:999px;background:#fff3cd;color:#7a5a00;font-size:12px;font-weight:600;letter-spacing:.04em}
.badge .en::before{content:" · "}
h1{font-size:20px;margin:14px 0 4px}
h1 .en,label .en,legend .en,summary .en,th .en{display:block;font-size:.8em;font-weight:400;color:#5f6b7a}
.amount{font-size:30px;font-weight:700;margin:4px 0 18px}
.email{color:#5f6b7a;margin:-12px 0 16px}
fieldset{border:0;padding:0;margin:0 0 16px;display:grid;gap:8px}
legend{font-weight:600;margin-bottom:8px}
.operator{display:flex;align-items:center;gap:10px;padding:10px 12px;border:1px solid #d6dde6;border-radius:10px;cursor:pointer}
.operator:has(input:checked){border-color:#0b6bcb;background:#f0f6fd}
label{font-weight:600}
input[type=text],input:not([type]),input[inputmode]{display:block;width:100%;margin:6px 0 16px;padding:11px 12px;font-size:17px;border:1px solid #c4ceda;border-radius:10px}
button,.button{display:block;width:100%;padding:12px;border:0;border-radius:10px;background:#0b6bcb;color:#fff;font-size:16px;font-weight:600;cursor:pointer;text-align:center;text-decoration:none}
button .en,.button .en,.result .en,.error .en,.waiting .en{display:block;font-size:.8em;font-weight:400;opacity:.85}
button.secondary{background:transparent;color:#0b6bcb;border:1px solid #0b6bcb;margin-top:10px}
.instructions{padding:12px;border-radius:10px;background:#f4f7fa;white-space:pre-line}
.error{padding:10px 12px;margin-bottom:16px;border-radius:10px;background:#fdecea;color:#8a1c12}
.result{padding:16px;margin-bottom:16px;border-radius:10px;font-weight:700;font-size:18px}
.result.ok{background:#e6f6ec;color:#135c2c}.result.ko{background:#fdecea;color:#8a1c12}
.waiting{color:#5f6b7a}
.test-data{margin-top:18px;font-size:13px;color:#5f6b7a}
.test-data table{border-collapse:collapse;margin-top:8px;width:100%}
.test-data td,.test-data th{padding:3px 6px;border-bottom:1px solid #e6ebf0;text-align:left}
`;
