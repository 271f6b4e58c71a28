// The audit trail: the one module that formats and writes an audit line, whoever has something to record (a
// mutation attempted, run or refused, through src/schema/audit.ts; a payout batch approved, in its mutation; a
// payout batch ended, in its runner). A line says who (subject, token kind, client IP, request id), what (operation,
// references, amount, item counts) and how it ended; its fields are listed here, one by one, so no caller can slip
// a token, key, secret or customer phone number into it.
//
// It sits below the schema and the payout runner (it imports only the logger's type): each hands it plain facts.
import type { Logger } from '../logger.js';

/** Who acted, as far as an audit line says it (a GatewayContext is one). */
export interface AuditWho {
  log: Logger;
  principal?: { subject: string; kind: string } | null;
  clientIp: string | null;
  requestId: string;
  /** Platform mode: the merchant the request acts for, and whether a platform operator acts for it by naming it. */
  merchant?: { id: string; byOperator: boolean } | null;
}

/** An attempt at a mutation, run or refused. */
export interface AttemptFacts {
  arg?: unknown;
  payload?: unknown;
  target?: { reference: string } | undefined;
  /** 'success', a typed error code, or why the caller was turned away (UNAUTHENTICATED, FORBIDDEN). */
  outcome: string;
}

/** The four eyes of a payout batch's approval. */
export interface ApprovalFacts {
  batchId: string;
  createdBy: string;
  startedBy: string | null;
}

/** A payout batch that reached its final status: who took part, and its counts (items, XOF). A BatchDoc is one. */
export interface EndedBatch {
  id: string;
  createdBy: string;
  startedBy: string | null;
  approval: { approvedBy: string | null };
  cancelledBy: string | null;
  counts: {
    added: { items: number; amount: number };
    succeeded: { items: number };
    failed: { items: number };
    notSent: { items: number };
  };
}

/** Every field an audit line may carry. */
interface AuditLine {
  requestId?: string;
  subject: string | null;
  principalKind?: string | null;
  clientIp?: string | null;
  /** Platform mode: the merchant acted for, and `operator` when a platform operator named it (else `staff`). */
  merchantId?: string;
  actingAs?: 'staff' | 'operator';
  operation: string;
  references: string[];
  amount?: number;
  items?: number;
  startedBy?: string | null;
  approvedBy?: string | null;
  cancelledBy?: string | null;
  succeeded?: number;
  failed?: number;
  notSent?: number;
  outcome: string;
}

/** The one write of an audit line. */
function write(log: Logger, line: AuditLine): void {
  log.info('audit', { audit: true, ...line });
}

function byWhom(who: AuditWho): Pick<AuditLine, 'requestId' | 'subject' | 'principalKind' | 'clientIp' | 'merchantId' | 'actingAs'> {
  return {
    requestId: who.requestId,
    subject: who.principal?.subject ?? null,
    principalKind: who.principal?.kind ?? null,
    clientIp: who.clientIp,
    ...(who.merchant ? { merchantId: who.merchant.id, actingAs: who.merchant.byOperator ? 'operator' : 'staff' } : {}),
  };
}

/** The line of a mutation attempt (run or refused). */
export function auditAttemptLine(who: AuditWho, operation: string, facts: AttemptFacts): void {
  write(who.log, { ...byWhom(who), operation, references: referencesOf(facts), ...amountOf(facts.arg), outcome: facts.outcome });
}

/** The line of an approved payout batch: it names both people (four eyes), besides the attempt's own line. */
export function auditApprovalLine(who: AuditWho, facts: ApprovalFacts): void {
  const approver = who.principal?.subject ?? null;
  write(who.log, {
    ...byWhom(who),
    operation: 'approvePayoutBatch',
    references: [facts.batchId],
    outcome: `approved: created by ${facts.createdBy}, started by ${facts.startedBy ?? '-'}, approved by ${approver ?? '-'}`,
  });
}

/** The line of a payout batch's end, written by the runner that ended it (no request: the creator is the subject). */
export function auditBatchEndLine(log: Logger, batch: EndedBatch, outcome: string): void {
  const c = batch.counts;
  write(log, {
    operation: 'payoutBatchCompleted',
    subject: batch.createdBy,
    startedBy: batch.startedBy,
    approvedBy: batch.approval.approvedBy,
    cancelledBy: batch.cancelledBy,
    references: [batch.id],
    items: c.added.items,
    amount: c.added.amount,
    succeeded: c.succeeded.items,
    failed: c.failed.items,
    notSent: c.notSent.items,
    outcome,
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
function referencesOf(facts: AttemptFacts): string[] {
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
