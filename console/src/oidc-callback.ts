// The end of an OpenID Connect sign-in in its popup (/console/callback?code=…&state=…): the popup hands the answer
// to the page that opened it over a BroadcastChannel (same origin; it survives the issuer's pages, which may cut
// window.opener) and closes. That page exchanges the code (src/oidc.ts) and keeps its forms as they were.
export const OIDC_CHANNEL = 'console-oidc';

export function handOverCallback(): boolean {
  if (!location.pathname.endsWith('/callback') || !/[?&](code|error)=/.test(location.search)) return false;
  const channel = new BroadcastChannel(OIDC_CHANNEL);
  channel.postMessage({ url: location.href });
  channel.close();
  document.body.textContent = 'Connexion terminée / Signed in — vous pouvez fermer cette fenêtre / you may close this window.';
  window.close();
  return true;
}
