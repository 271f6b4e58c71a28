// The audit trail: one structured line for every money-moving mutation, run or
// refused. It says who (subject, token kind, client IP), what (operation,
// references, amount) and how it ended; never a token, key or secret, and no
// customer phone number.
import type { GatewayContext } from './context.js';

/** The mutations that create or move money: audited, and (see the limits) at most one per operation. */
export const MONEY_MOVING_MUTATIONS = new Set<string>();

export interface AuditFacts {
  arg?: unknown;
  payload?: unknown;
  target?: { reference: string } | undefined;
  /** 'success', a typed error code, or why the caller was turned away (UNAUTHENTICATED, FORBIDDEN). */
  outcome: string;
}

export function audit(
  ctx: Pick<GatewayContext, 'log' | 'principal' | 'clientIp' | 'requestId'>,
  operation: string,
  facts: AuditFacts,
): void {
  ctx.log.info('audit', {
    audit: true,
    requestId: ctx.requestId,
    subject: ctx.principal?.subject ?? null,
    principalKind: ctx.principal?.kind ?? null,
    clientIp: ctx.clientIp,
    operation,
    references: referencesOf(facts),
    ...amountOf(facts.arg),
    outcome: facts.outcome,
  });
}

/** The amount asked for, in XOF (a bulk transfer: its total and item count). */
function amountOf(arg: unknown): { amount?: number; items?: number } {
  if (!isRecord(arg)) return {};
  if (typeof arg.amount === 'number') return { amount: arg.amount };
  if (Array.isArray(arg.transfers)) {
    const amounts = arg.transfers.map((item: unknown) => (isRecord(item) && typeof item.amount === 'number' ? item.amount : 0));
    return { amount: amounts.reduce((sum, a) => sum + a, 0), items: amounts.length };
  }
  return {};
}

/** The references the operation touched: its target, and what the payload names. */
function referencesOf(facts: AuditFacts): string[] {
  const found = new Set<string>();
  if (facts.target) found.add(facts.target.reference);
  if (typeof facts.arg === 'string') found.add(facts.arg);
  const payload = facts.payload;
  if (isRecord(payload)) {
    if (typeof payload.reference === 'string') found.add(payload.reference);
    for (const key of ['charge', 'transfer', 'settlement']) {
      const inner = payload[key];
      if (isRecord(inner) && typeof inner.reference === 'string') found.add(inner.reference);
    }
  }
  return [...found];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
