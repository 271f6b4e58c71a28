// Who may call a started gateway (src/gateway.ts): the token verifier, sandbox mode's development token and the back
// office's personas, and the back office's settings.
import { SCOPES, createTokenVerifier, mintStaffToken, withGeneratedSecrets, type MintedToken, type Scope } from '../auth/index.js';
import { type ConsolePersona } from '../console/serve.js';
import { type Config } from '../config.js';
import type { GatewayServerOptions } from '../http/options.js';
import { type MerchantView } from '../merchants/index.js';
import { projectPath } from '../files/project-files.js';

import { type StartGatewayOptions } from './startup.js';

export const DEVELOPMENT_TOKEN_TTL_SECONDS = 12 * 60 * 60;

/** The token verifier; in sandbox mode the keys may be unset: they are generated, and a development token is minted for GraphiQL. */
export async function prepareAuth(config: Config, personasMerchant: MerchantView | null) {
  const { auth } = withGeneratedSecrets(config.auth);
  const tokens = createTokenVerifier(auth);
  const developmentToken =
    config.mode === 'sandbox' && auth.jwtSecret
      ? await mintStaffToken({
          secret: auth.jwtSecret,
          scopes: SCOPES,
          subject: 'development',
          ttlSeconds: DEVELOPMENT_TOKEN_TTL_SECONDS,
          issuer: auth.issuer,
          audience: auth.audience,
        })
      : null;
  return { tokens, developmentToken, personas: await sandboxPersonas(config, auth.jwtSecret, developmentToken, personasMerchant) };
}

/**
 * Sandbox mode's staff for the console's persona switch (test money only): the development token, someone who
 * prepares payouts and someone who approves them, with different subjects so that the four-eyes rule applies. In
 * platform mode the three work for the first demo merchant (their tokens carry it), as a merchant's staff would.
 */
export async function sandboxPersonas(
  config: Config,
  secret: string | null,
  developmentToken: MintedToken | null,
  merchant: MerchantView | null,
): Promise<ConsolePersona[]> {
  if (config.mode !== 'sandbox' || !secret || !developmentToken || !config.console.enabled) return [];
  const mint = async (subject: string, scopes: Scope[]) =>
    (
      await mintStaffToken({
        secret,
        scopes,
        subject,
        ttlSeconds: DEVELOPMENT_TOKEN_TTL_SECONDS,
        issuer: config.auth.issuer,
        audience: config.auth.audience,
        merchantId: merchant?.id,
      })
    ).token;
  return [
    {
      id: 'development',
      // In platform mode the development token is the platform's operator: it picks the merchant it acts for.
      name:
        config.merchants.mode === 'platform'
          ? { fr: 'Opérateur de la plateforme (tous les droits)', en: 'Platform operator (every scope)' }
          : { fr: 'Développement (tous les droits)', en: 'Development (every scope)' },
      token: developmentToken.token,
    },
    {
      id: 'preparer',
      name: { fr: 'Awa, prépare les paiements', en: 'Awa, prepares payouts' },
      token: await mint('sandbox-preparer', ['payments:read', 'payouts:write', 'events:read']),
    },
    {
      id: 'approver',
      name: { fr: 'Moussa, approuve les paiements', en: 'Moussa, approves payouts' },
      token: await mint('sandbox-approver', ['payments:read', 'payouts:approve', 'events:read']),
    },
    {
      id: 'support',
      name: { fr: 'Fatou, service client (lecture)', en: 'Fatou, support (read only)' },
      token: await mint('sandbox-support', ['payments:read', 'events:read']),
    },
  ];
}

/** The back office at /console: on by default in sandbox mode, with CONSOLE=true in live mode. */
export function consoleOptions(config: Config, options: StartGatewayOptions, personas: ConsolePersona[]): GatewayServerOptions['console'] {
  if (!config.console.enabled) return null;
  const oidc = config.console.oidc;
  return {
    dir: options.consoleDir ?? projectPath('dist', 'console'),
    settings: {
      mode: config.mode,
      personas,
      // The scopes the console may use; the identity provider grants what this person holds.
      oidc: oidc ? { ...oidc, scope: ['openid', ...SCOPES].join(' '), resource: config.auth.audience } : null,
      payoutFeeBps: config.payoutBatches.feeBps,
      merchantMode: config.merchants.mode,
    },
  };
}
