// OpenID Connect sign-in (authorization code with PKCE) with oauth4webapi, against the issuer whose keys the
// gateway trusts (AUTH_JWKS_URL). The access token is the staff token. The sign-in runs in a popup so that the page,
// and any form half filled, stays as it is; the code verifier and state live in this function's memory only.
import * as oauth from 'oauth4webapi';
import { OIDC_CHANNEL } from './oidc-callback.js';
import type { ConsoleSettings } from './settings.js';

type OidcSettings = NonNullable<ConsoleSettings['oidc']>;

const redirectUri = () => `${location.origin}/console/callback`;

/**
 * oauth4webapi refuses http:// unless told; an issuer on this machine's loopback (a development identity provider,
 * the tests' own) is allowed over http, as browsers trust loopback origins. Any other issuer must be https.
 */
const loopbackHttp = (issuer: URL) => issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);

/**
 * `freshLogin`: after a sign-out, the provider asks who is signing in (prompt=login) instead of handing back the
 * session of the person who just left.
 */
export async function signInWithOidc(oidc: OidcSettings, freshLogin = false): Promise<string> {
  const issuer = new URL(oidc.issuer);
  const insecure = { [oauth.allowInsecureRequests]: loopbackHttp(issuer) };
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
  const client: oauth.Client = { client_id: oidc.clientId };
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('client_id', oidc.clientId);
  url.searchParams.set('redirect_uri', redirectUri());
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', oidc.scope);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  if (oidc.resource) url.searchParams.set('resource', oidc.resource);
  if (freshLogin) url.searchParams.set('prompt', 'login');

  const answer = new Promise<string>((resolve, reject) => {
    const channel = new BroadcastChannel(OIDC_CHANNEL);
    const timer = setTimeout(() => {
      channel.close();
      reject(new Error('timeout'));
    }, 300_000);
    channel.onmessage = (event: MessageEvent<{ url: string }>) => {
      clearTimeout(timer);
      channel.close();
      resolve(event.data.url);
    };
  });
  const popup = window.open(url.href, 'console-sign-in', 'popup,width=520,height=680');
  if (!popup) throw new Error('popup');
  const callback = new URL(await answer);
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri(), codeVerifier, {
    additionalParameters: oidc.resource ? { resource: oidc.resource } : undefined,
    ...insecure,
  });
  const result = await oauth.processAuthorizationCodeResponse(as, client, response);
  return result.access_token;
}
