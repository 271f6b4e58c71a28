// GraphQL types of the typed errors, made from their declarations (src/errors/payment-errors.ts,
// payout-batch-errors.ts; how to declare one: src/errors/typed-errors.ts and docs/adding-an-operation.md).
import { MERCHANT_ERRORS } from '../errors/merchant-errors.js';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.js';
import { builder } from './builder.js';
import { SettlementStatusEnum, WalletEnum } from './enums.js';
import { PAYMENT_ERRORS, PaymentError, fieldMessageFr, type FieldProblem } from '../errors/payment-errors.js';
import type { ErrorFieldDeclaration, ErrorFieldType, TypedErrorClass } from '../errors/typed-errors.js';

const ErrorCodeEnum = builder.enumType('ErrorCode', {
  description: 'Every error code of the payment service, plus those the gateway adds.',
  values: Object.fromEntries(ERROR_CODES.map((code) => [code, { value: code }])) as Record<ErrorCode, { value: ErrorCode }>,
});

const FieldErrorRef = builder.objectRef<FieldProblem>('FieldError').implement({
  description: 'What is wrong with one input field.',
  fields: (t) => ({
    path: t.exposeStringList('path', { description: 'Path to the field in the input, e.g. ["input", "transfers", "3", "amount"].' }),
    message: t.exposeString('message', { description: 'What is wrong, in English.' }),
    messageFr: t.string({ description: 'The same, in French.', resolve: (problem) => fieldMessageFr(problem) }),
  }),
});

export const PaymentErrorInterface = builder.interfaceRef<PaymentError>('PaymentError').implement({
  description: 'A failure the frontend can act on. Every typed error implements it.',
  fields: (t) => ({
    message: t.exposeString('message', { description: 'What went wrong, in English, suitable to show to a person.' }),
    messageFr: t.exposeString('messageFr', { description: 'The same, in French.' }),
    code: t.field({ type: ErrorCodeEnum, description: 'Stable machine-readable code.', resolve: (e) => e.code }),
    retryable: t.boolean({ description: 'True when the very same request may succeed if sent again later.', resolve: (e) => e.retryable }),
  }),
});

const IdempotencyConflictReasonEnum = builder.enumType('IdempotencyConflictReason', {
  description: 'Why an idempotency key was refused.',
  values: {
    DIFFERENT_INPUT: { value: 'different_input', description: 'The key was used with other input: use a new key for a new request.' },
    IN_PROGRESS: {
      value: 'in_progress',
      description:
        'A request with the key is still running or not visible at the service yet: retry with the same key after `retryAfterMs`.',
    },
    OUTCOME_UNKNOWN: {
      value: 'outcome_unknown',
      description:
        'An earlier request with the key may have been carried out and cannot be checked automatically: check the list (settlements, checkouts) before sending a new request with a new key. Never retried by the gateway.',
    },
  } as const,
});
/** The refs of the field types a typed error may name beside the scalars (src/errors/typed-errors.ts, ErrorFieldType). */
export type ErrorFieldRefs = { readonly [T in Exclude<ErrorFieldType, 'String' | 'Int' | 'Boolean'>]?: unknown };

const SCALARS: ReadonlySet<ErrorFieldType> = new Set(['String', 'Int', 'Boolean']);

function fieldTypeRef(type: ErrorFieldType, refs: ErrorFieldRefs): unknown {
  if (SCALARS.has(type)) return type;
  const ref = refs[type as keyof ErrorFieldRefs];
  if (ref === undefined) throw new TypeError(`no GraphQL type was handed over for the typed-error field type ${type}`);
  return ref;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a declared class of any arguments and fields
type AnyTypedError = TypedErrorClass<any, any>;

/**
 * The GraphQL object type of each declared typed error, made from its declaration alone: its name, description,
 * the PaymentError interface, recognition by class, and the fields it declares. `refs`: the schema's types its
 * fields name (enums, objects). Pothos cannot type a field built from data: its type is handed over as a scalar's
 * name, the one cast, in this one place.
 */
export function typedErrorObjectTypes(classes: readonly AnyTypedError[], refs: ErrorFieldRefs = {}): void {
  for (const cls of classes) {
    const { name, description, graphql = {} } = cls.declaration;
    const declared = Object.entries(graphql as Record<string, ErrorFieldDeclaration>);
    builder.objectType(cls, {
      name,
      description,
      interfaces: [PaymentErrorInterface],
      isTypeOf: (value) => value instanceof cls,
      fields: (t) =>
        Object.fromEntries(
          declared.map(([key, field]) => [
            key,
            t.field({
              // The declared type's ref (a scalar's name, an enum, an object): the value is the error's own field.
              type: fieldTypeRef(field.type, refs) as 'String',
              nullable: field.nullable ?? false,
              description: field.description,
              resolve: (error) => (error as unknown as Record<string, string>)[key]!,
            }),
          ]),
        ),
    });
  }
}

typedErrorObjectTypes(PAYMENT_ERRORS, {
  Wallet: WalletEnum,
  SettlementStatus: SettlementStatusEnum,
  IdempotencyConflictReason: IdempotencyConflictReasonEnum,
  '[FieldError]': [FieldErrorRef],
});

// Platform mode's typed errors: a suspended merchant's money moves (every money-moving mutation), the operator's.
typedErrorObjectTypes(MERCHANT_ERRORS);
