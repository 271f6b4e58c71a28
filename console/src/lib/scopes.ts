// What a staff token may do in the back office: the pages and actions offered follow its `scope` claim (the API
// refuses the rest anyway). The claim is read, not verified: the gateway verifies the token on every call.
export const SCOPES = [
  'payments:read',
  'payments:collect',
  'payouts:write',
  'payouts:approve',
  'settlements:write',
  'events:read',
  'webhooks:manage',
] as const;
export type Scope = (typeof SCOPES)[number];

export interface TokenClaims {
  sub: string;
  scopes: ReadonlySet<Scope>;
  /** Expiry in ms since the epoch; null when the token has none. */
  expiresAt: number | null;
  /** Platform mode: the merchant the token belongs to (`merchant_id`); null: an operator's token, which names one. */
  merchantId: string | null;
  /** Platform mode: the token manages the platform's merchants (`platform:manage`), so it may list them. */
  managesPlatform: boolean;
}

function base64UrlDecode(part: string): string {
  const base64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  const binary = atob(base64);
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** The claims of a JWT, or null when it is not one. */
export function readClaims(token: string): TokenClaims | null {
  const parts = token.trim().split('.');
  if (parts.length !== 3) return null;
  try {
    const payload = JSON.parse(base64UrlDecode(parts[1]!)) as { sub?: unknown; scope?: unknown; exp?: unknown; merchant_id?: unknown };
    if (typeof payload.sub !== 'string') return null;
    const scopes = new Set(
      (typeof payload.scope === 'string' ? payload.scope.split(' ') : []).filter((s): s is Scope =>
        (SCOPES as readonly string[]).includes(s),
      ),
    );
    return {
      sub: payload.sub,
      scopes,
      expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : null,
      merchantId: typeof payload.merchant_id === 'string' ? payload.merchant_id : null,
      managesPlatform: typeof payload.scope === 'string' && payload.scope.split(' ').includes('platform:manage'),
    };
  } catch {
    return null;
  }
}

export type Page = 'payments' | 'payouts' | 'payroll' | 'approvals' | 'balances' | 'settlements' | 'developers';

/** The scope each page needs to be offered. */
export const PAGE_SCOPES: Record<Page, Scope> = {
  payments: 'payments:read',
  payouts: 'payments:read',
  payroll: 'payouts:write',
  approvals: 'payouts:approve',
  balances: 'payments:read',
  settlements: 'payments:read',
  developers: 'webhooks:manage',
};

export const mayVisit = (scopes: ReadonlySet<Scope>, page: Page): boolean => scopes.has(PAGE_SCOPES[page]);

export type Action = 'transfer' | 'cancelBatch' | 'resumeBatch' | 'createSettlement' | 'cancelSettlement' | 'live';

const ACTION_SCOPES: Record<Action, Scope> = {
  transfer: 'payouts:write',
  cancelBatch: 'payouts:write',
  resumeBatch: 'payouts:write',
  createSettlement: 'settlements:write',
  cancelSettlement: 'settlements:write',
  live: 'events:read',
};

export const mayDo = (scopes: ReadonlySet<Scope>, action: Action): boolean => scopes.has(ACTION_SCOPES[action]);

/**
 * Whether to offer the approve button: a batch awaiting approval, a token with payouts:approve, and someone other
 * than the batch's creator and starter (the API's four-eyes rule: it refuses them with SelfApprovalError).
 */
export function mayApprove(
  claims: Pick<TokenClaims, 'sub' | 'scopes'>,
  batch: { awaitingApproval: boolean; createdBy: string; startedBy?: string | null },
): boolean {
  return (
    batch.awaitingApproval &&
    claims.scopes.has('payouts:approve') &&
    claims.sub !== batch.createdBy &&
    claims.sub !== (batch.startedBy ?? null)
  );
}
