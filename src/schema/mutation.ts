// The one recipe every mutation follows. A mutation declares, in one place: its
// argument, its payload, the typed errors it may return (each listed once: the
// union and the error mapping both come from this list), who may run it, the
// upstream operation it is (whose declaration says whether it moves money) and
// how a repeat is kept from moving money twice. The recipe then
// validates, runs under the idempotency key and maps failures, the same way for
// all of them, and hangs what the schema must know (moves money, audited, scope)
// on the field's extensions.
import type { InputObjectRef, ObjectRef } from '@pothos/core';
import { RateLimitedError, ServiceUnavailableError, toPaymentError, type PaymentError } from '../errors/payment-errors.js';
import { MerchantSuspendedError } from '../errors/merchant-errors.js';
import { runIdempotent, scopedKey } from '../idempotency/run.js';
import type { ClientResource, Scope } from '../auth/index.js';
import { declarationOf, type Operation } from '../upstream/operations.js';
import type { ResourceKind } from '../upstream/types.js';
import { access } from './access.js';
import { auditAttempt, type MutationFacts } from './audit.js';
import { builder, type GatewaySchemaTypes } from './builder.js';
import type { GatewayContext } from './context.js';
import { Checks } from './validation.js';

/** The description of every mutation's `idempotencyKey` argument, said once. */
export const IDEMPOTENCY_KEY_DESCRIPTION =
  'Any unique string (a UUID) per intended operation. Sending the same request again with the same key returns the first result instead of moving money twice; reusing a key with different input is refused. Keys are kept 24 hours.';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the errors plugin's own type for an error class
type ErrorClass = new (...args: any[]) => PaymentError;

/** Who may run a mutation: a staff scope, and for the customer's own payment a client token (see src/auth). */
export type MutationAccess<Arg> = { scope: Scope; client?: (arg: Arg) => ClientResource | null };

/** How a repeat of the mutation is kept from moving money twice. */
export type IdempotencyRule<Arg, Request, Payload> =
  | {
      /** The key the client sent (required: one per intended payment, kept across retries). */
      key: (arg: Arg) => string;
      /** What identifies the request at the service (its ext_id), kept with the key while its outcome is unknown. */
      meta?: (request: Request) => Record<string, string>;
      /**
       * Finds at the service a request whose answer was lost (a retry carries the same request, so the
       * same ext_id); null when it is not there. `settled`: the settle window is over (see run.ts).
       */
      reconcile?: (request: Request, ctx: GatewayContext, settled: boolean) => Promise<Payload | null>;
    }
  | {
      /** Why a repeat of this mutation cannot move money twice (so it needs no key). */
      notNeeded: string;
    };

interface MutationSpec<Arg, Request, Payload extends object> {
  description: string;
  /** The single argument: `input` (an input object) for most, `reference` for cancelSettlement. */
  arg:
    | { name: 'input'; type: InputObjectRef<PothosSchemaTypes.ExtendDefaultTypes<GatewaySchemaTypes>, Arg> }
    | { name: 'reference'; type: 'String'; description: string };
  payload: ObjectRef<PothosSchemaTypes.ExtendDefaultTypes<GatewaySchemaTypes>, Payload>;
  errors: readonly ErrorClass[];
  result: { name: string; description: string };
  access: MutationAccess<Arg>;
  /** The resource the mutation acts on, when it names one (for not-found errors). */
  target?: (arg: Arg) => { resource: ResourceKind; reference: string };
  /** Input checks, before anything is sent; problems become one ValidationError with field paths. */
  validate?: (arg: Arg, checks: Checks) => void;
  idempotency: IdempotencyRule<Arg, Request, Payload>;
  /**
   * What is sent to the service, from the argument and the caller's idempotency key (null without one), scoped
   * to the caller and the operation (so ext_ids derived from it never meet another caller's); also what "the
   * same request" means for the key.
   */
  request: (arg: Arg, scopedKey: string | null) => Request;
  execute: (request: Request, ctx: GatewayContext) => Promise<Payload>;
  /** The resources a successful run created: the gateway watches them until final (live reconciliation). */
  created?: (payload: Payload) => Array<{ kind: ResourceKind; reference: string }>;
  /** Audit every attempt even though it moves no money (the platform operator's changes to merchants). */
  audited?: boolean;
}

/**
 * What the mutation is: one upstream operation (its declaration in src/upstream/operations.ts says whether it
 * moves money and how a lost answer is found), or, made of several calls (payout batches), whether it creates or
 * moves money. Money-moving mutations are at most one per operation, and audited.
 */
type MutationKind = { upstream: Operation; movesMoney?: never } | { movesMoney: boolean; upstream?: never };

type PaymentMutation<Arg, Request, Payload extends object> = MutationSpec<Arg, Request, Payload> & MutationKind;

/** The idempotency rule each way of finding a lost answer needs (so a declaration and a recipe cannot disagree). */
const RULE_FOR_LOST_ANSWER = {
  find_by_ext_id: 'a key and reconcile',
  refuse_until_checked: 'a key without reconcile',
  repeat_refused_by_service: 'notNeeded',
} as const;

function ruleKind(rule: { notNeeded: string } | { reconcile?: unknown }): (typeof RULE_FOR_LOST_ANSWER)[keyof typeof RULE_FOR_LOST_ANSWER] {
  if ('notNeeded' in rule) return 'notNeeded';
  return rule.reconcile ? 'a key and reconcile' : 'a key without reconcile';
}

function mutationMovesMoney(name: string, spec: MutationKind & { idempotency: { notNeeded: string } | { reconcile?: unknown } }): boolean {
  if (spec.upstream === undefined) return spec.movesMoney;
  const declared = declarationOf(spec.upstream);
  if (declared.movesMoney && ruleKind(spec.idempotency) !== RULE_FOR_LOST_ANSWER[declared.lostAnswer]) {
    throw new TypeError(
      `${name}: ${spec.upstream} is declared ${declared.lostAnswer}, which needs ${RULE_FOR_LOST_ANSWER[declared.lostAnswer]}`,
    );
  }
  return declared.movesMoney;
}

/**
 * Declares one mutation from its spec: its typed errors (with ServiceUnavailableError when it moves money and its guard is unreachable,
 * and RateLimitedError), its access rules, and its run under idempotency. Each mutation is declared by one call.
 */
export function paymentMutation<Arg, Request, Payload extends object>(name: string, spec: PaymentMutation<Arg, Request, Payload>): void {
  const movesMoney = mutationMovesMoney(name, spec);
  // A money-moving mutation is refused with a typed, retryable error while its idempotency guard (Redis) is unreachable,
  // and every mutation may be refused by the caller's rate limits (src/limits/).
  // A suspended merchant's money moves are refused (platform mode): a member of every money-moving mutation's union.
  const errors = withErrors(
    spec.errors,
    movesMoney ? [ServiceUnavailableError, RateLimitedError, MerchantSuspendedError] : [RateLimitedError],
  );
  const run = mutationRun(name, spec, movesMoney);
  const clientRule = spec.access.client;
  const rule = access<Record<string, unknown>>({
    scope: spec.access.scope,
    client: clientRule ? (args) => clientRule(args[spec.arg.name] as Arg) : undefined,
  });
  // What the schema knows of the mutation, on its field: access, the audit, the limits and the operation plugin read it there.
  const facts: MutationFacts = { movesMoney, audited: movesMoney || spec.audited === true };

  // Pothos types a resolver's result by whether the field is a list, a question it cannot answer for a type
  // parameter: the field is declared with the payload's ref seen as a plain object type (every payload is one).
  const payloadRef: ObjectRef<PothosSchemaTypes.ExtendDefaultTypes<GatewaySchemaTypes>, object> = spec.payload;

  builder.mutationField(name, (t) =>
    t.field({
      ...rule,
      extensions: { ...rule.extensions, ...facts },
      type: payloadRef,
      description: spec.description,
      args: {
        [spec.arg.name]:
          spec.arg.name === 'input'
            ? t.arg({ type: spec.arg.type, required: true })
            : t.arg.string({ required: true, description: spec.arg.description }),
      },
      errors: { types: [...errors], union: spec.result },
      resolve: async (_root: unknown, args: Record<string, unknown>, ctx: GatewayContext, info) => {
        const arg = args[spec.arg.name] as Arg;
        const target = spec.target?.(arg);
        const field = info.parentType.getFields()[info.fieldName];
        try {
          const payload = await run(arg, ctx);
          auditAttempt(ctx, field, { arg, payload, target, outcome: 'success' });
          return payload;
        } catch (err) {
          const typed = toPaymentError(err, errors, target ?? {});
          auditAttempt(ctx, field, { arg, target, outcome: typed.code });
          throw typed;
        }
      },
    }),
  );
}

/** How the mutation runs once admitted: limits, input checks, then the call under its idempotency rule. */
function mutationRun<Arg, Request, Payload extends object>(
  name: string,
  spec: PaymentMutation<Arg, Request, Payload>,
  movesMoney: boolean,
): (arg: Arg, ctx: GatewayContext) => Promise<Payload> {
  const watchCreated = (payload: Payload, ctx: GatewayContext): Payload => {
    for (const { kind, reference } of spec.created?.(payload) ?? []) ctx.resourceCreated?.(kind, reference, ctx.merchant?.id);
    return payload;
  };
  return async (arg, ctx) => {
    // Before validation: a caller over its limits learns nothing more and costs nothing more.
    const retryAfterMs = movesMoney ? await ctx.limits.admitMoneyMove() : ctx.limits.generalLimitRetryAfterMs;
    if (retryAfterMs !== null) throw new RateLimitedError(retryAfterMs);
    if (movesMoney && ctx.merchant?.status === 'SUSPENDED') throw new MerchantSuspendedError();
    if (spec.validate) {
      const checks = new Checks();
      spec.validate(arg, checks);
      checks.done();
    }
    const rule = spec.idempotency;
    if ('notNeeded' in rule) return spec.execute(spec.request(arg, null), ctx);
    const key = rule.key(arg);
    // Only an authenticated caller reaches a mutation (src/caller.ts refuses anonymous operations). In platform mode
    // the key is the merchant's too: A's key k1 and B's key k1 are two keys (and two ext_ids at the service).
    const principal = ctx.merchant ? `${ctx.merchant.id}/${ctx.principal!.subject}` : ctx.principal!.subject;
    const request = spec.request(arg, scopedKey(principal, name, key));
    return runIdempotent({
      store: ctx.idempotency,
      principal,
      log: ctx.log,
      operation: name,
      key,
      input: request,
      meta: rule.meta?.(request),
      // Only a run that reached the service created something (a replayed result was watched the first time).
      execute: () => spec.execute(request, ctx).then((payload) => watchCreated(payload, ctx)),
      reconcile: rule.reconcile ? (_meta, settled) => rule.reconcile!(request, ctx, settled) : undefined,
      settleWindowMs: ctx.idempotencySettleMs,
    });
  };
}

function withErrors(declared: readonly ErrorClass[], added: readonly ErrorClass[]): ErrorClass[] {
  return [...declared, ...added.filter((error) => !declared.includes(error))];
}
