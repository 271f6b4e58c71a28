// The typed errors mutations return (members of their result unions, all implementing the PaymentError
// interface), each declared once with typedError(): its GraphQL type name and description, its code, its
// English and French texts from its fields, whether it is retryable, and the fields a client may select. The
// class (what resolvers throw and unions match by `instanceof`) and the Pothos object type
// (src/schema/error-types.ts, typedErrorObjectTypes) are both made from that declaration.
//
// A field of one name has one GraphQL type among all typed errors (they share the PaymentError interface, so
// a client's generic fragment selects them side by side): test/errors/same-name-same-type.test.ts.
import { isRetryableCode, type ErrorCode } from './error-codes.js';
import type { Text } from './top-level.js';

/** The base of every typed error. Plain data, so outcomes can be stored for idempotent replays. */
export abstract class PaymentError extends Error {
  abstract readonly code: ErrorCode;
  abstract readonly messageFr: string;
  get retryable(): boolean {
    return isRetryableCode(this.code);
  }
}

/**
 * The GraphQL type of a field a typed error exposes, by name. The scalars are known everywhere; the others are
 * refs src/schema/ hands to typedErrorObjectTypes (enums and objects of the schema, which errors/ cannot import).
 */
export type ErrorFieldType =
  | 'String'
  | 'Int'
  | 'Boolean'
  | 'Wallet'
  | 'SettlementStatus'
  | 'PayoutBatchStatus'
  | 'IdempotencyConflictReason'
  | '[FieldError]'
  | '[PayoutBatchShortfall]';

/** One field a typed error adds to PaymentError: its GraphQL type, whether it may be null, and its description. */
export interface ErrorFieldDeclaration {
  type: ErrorFieldType;
  /** Null allowed (the default: required). */
  nullable?: boolean;
  description: string;
}

interface TypedErrorDeclaration<A extends unknown[], F extends object> {
  /** The GraphQL type name, also the class name (`error.name` in logs). */
  name: string;
  description: string;
  /** Its code, or how its fields choose one. */
  code: ErrorCode | ((fields: NoInfer<F>) => ErrorCode);
  /** Its fields from the constructor's arguments (none: no fields). */
  fields?: (...args: A) => F;
  /** Which of its fields a client may select, and as what. */
  graphql?: { readonly [K in keyof NoInfer<F>]?: ErrorFieldDeclaration };
  /** Its English and French, from its fields. */
  text: (fields: NoInfer<F>) => Text;
  /** Whether the very same request may succeed later; by default what its code says (src/upstream/call-error.ts). */
  retryable?: (fields: NoInfer<F>) => boolean;
}

/** A typed error class made from its declaration: `new X(...args)`, `instanceof X`, and the declaration itself. */
export interface TypedErrorClass<A extends unknown[] = never[], F extends object = object> {
  new (...args: A): PaymentError & Readonly<F>;
  readonly declaration: TypedErrorDeclaration<A, F>;
}

/** The class of a declared typed error. */
export function typedError<A extends unknown[] = [], F extends object = Record<never, never>>(
  declaration: TypedErrorDeclaration<A, F>,
): TypedErrorClass<A, F> {
  const { name, code, text, retryable } = declaration;
  const fieldsOf = declaration.fields ?? ((() => ({})) as unknown as (...args: A) => F);
  class Declared extends PaymentError {
    override readonly name = name;
    readonly code: ErrorCode;
    readonly messageFr: string;
    constructor(...args: A) {
      const fields = fieldsOf(...args);
      const { en, fr } = text(fields);
      const cause = (fields as { cause?: unknown }).cause;
      super(en, cause === undefined ? undefined : { cause });
      Object.assign(this, fields);
      this.code = typeof code === 'function' ? code(fields) : code;
      this.messageFr = fr;
    }
    override get retryable(): boolean {
      return retryable ? retryable(this as unknown as F) : isRetryableCode(this.code);
    }
  }
  Object.defineProperty(Declared, 'name', { value: name });
  return Object.assign(Declared, { declaration }) as unknown as TypedErrorClass<A, F>;
}
