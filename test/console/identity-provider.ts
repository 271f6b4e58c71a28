// A real OpenID provider for the sign-in journey: oidc-provider (the certified Node implementation) on a port of its
// own, issuing JWT access tokens (resource indicators: the gateway's audience) signed with an RS256 key it publishes
// at /jwks, which the gateway trusts through AUTH_JWKS_URL. Each account's scopes go in the access token's `scope`
// claim, the one the gateway reads (the console asks for every staff scope; the token holds the account's). The
// provider's own development login and consent forms stand in for a real login page.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

export const AUDIENCE = 'https://gateway.test/graphql';

export interface IdentityProvider {
  issuer: string;
  jwksUrl: string;
  /** Completes the set-up once the console's redirect URI (the gateway's port) is known. */
  register(redirectUri: string): void;
  /** A staff token of `sub` signed with the provider's key, as it would issue one (for "sign in with a token"). */
  mint(sub: string, scopes: string[], ttlSeconds: number): Promise<string>;
  close(): Promise<void>;
}

/** Accounts and their staff scopes; `ttl` is their access tokens' lifetime in seconds. */
export type Accounts = Record<string, { scopes: string[]; ttl: number }>;

export async function startIdentityProvider(accounts: Accounts): Promise<IdentityProvider> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.writeHead(503).end();
  const server: Server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'console-test', alg: 'RS256', use: 'sig' };
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    register(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: 'back-office',
            token_endpoint_auth_method: 'none',
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        jwks: { keys: [jwk as never] },
        scopes: ['openid', ...new Set(Object.values(accounts).flatMap((a) => a.scopes))],
        findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
        // The console (another origin: the gateway's) calls the token endpoint from the browser.
        clientBasedCORS: () => true,
        pkce: { required: () => true },
        features: {
          devInteractions: { enabled: true },
          resourceIndicators: {
            enabled: true,
            defaultResource: () => AUDIENCE,
            useGrantedResource: () => true,
            getResourceServerInfo: (ctx: KoaContextWithOIDC) => {
              const account = accounts[String(ctx.oidc.session?.accountId ?? ctx.oidc.entities.Grant?.accountId ?? '')];
              return {
                scope: account?.scopes.join(' ') ?? '',
                audience: AUDIENCE,
                accessTokenFormat: 'jwt',
                accessTokenTTL: account?.ttl ?? 600,
                jwt: { sign: { alg: 'RS256' } },
              };
            },
          },
        },
      });
      provider.on('server_error', (_ctx, error) => console.error('identity provider', error));
      handle = provider.callback();
    },
    async mint(sub, scopes, ttlSeconds) {
      return new SignJWT({ scope: scopes.join(' ') })
        .setProtectedHeader({ alg: 'RS256', kid: 'console-test', typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(AUDIENCE)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(privateKey as CryptoKey);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
