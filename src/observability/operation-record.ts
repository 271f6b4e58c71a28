// What the per-operation plugin (operations.ts) keeps of one GraphQL operation, and how it reads
// a document: its selected operation's type and root fields are worked out once per parsed
// document (yoga's parser cache hands the same DocumentNode to every request of the same text),
// not once per request.
import { GraphQLError, Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { OperationScope } from './operation-scope.js';

/** A root field of an operation: its response key and its name. */
export interface RootField {
  /** Response key (the alias, or the field name). */
  key: string;
  name: string;
}

/** What every operation of one parsed operation definition shares. */
export interface OperationShape {
  type: string;
  fields: readonly RootField[];
  /** The field names, in order: the log line's `fields`. */
  fieldNames: readonly string[];
}

/** What is known of one GraphQL operation while it runs, for its log line, metrics and span. */
export interface OperationRecord extends OperationScope {
  /** performance.now() when the operation started. */
  startedAt: number;
  type: string;
  name: string | null;
  fields: readonly RootField[];
  fieldNames: readonly string[];
  /** Code of the last error a subscription's stream delivered. */
  streamError: string | null;
  document: DocumentNode | null;
}

const INVALID_FIELD = '(invalid)';
const NO_SHAPE: OperationShape = { type: 'unknown', fields: [], fieldNames: [] };
const INVALID_FIELDS: readonly RootField[] = [{ key: INVALID_FIELD, name: INVALID_FIELD }];

/** The record of an operation that starts now, with nothing known yet. */
export function newRecord(): OperationRecord {
  return {
    startedAt: performance.now(),
    requestId: null,
    upstreamCalls: 0,
    span: null,
    typedErrors: new Map(),
    type: 'unknown',
    name: null,
    fields: [],
    fieldNames: [],
    streamError: null,
    document: null,
    done: false,
  };
}

const operationsOf = new WeakMap<DocumentNode, readonly OperationDefinitionNode[]>();
const shapes = new WeakMap<OperationDefinitionNode, OperationShape>();

/** The operation a request selects (by name, or the only one), or null. */
export function selectedOperation(document: DocumentNode, name: string | null | undefined): OperationDefinitionNode | null {
  let operations = operationsOf.get(document);
  if (!operations) {
    operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    operationsOf.set(document, operations);
  }
  return (name ? operations.find((o) => o.name?.value === name) : operations.length === 1 ? operations[0] : undefined) ?? null;
}

/** The type, name and root fields of an operation, read once per parsed document and remembered. */
export function shapeOf(operation: OperationDefinitionNode | null): OperationShape {
  if (!operation) return NO_SHAPE;
  let shape = shapes.get(operation);
  if (!shape) {
    const fields = operation.selectionSet.selections.flatMap((s) =>
      s.kind === Kind.FIELD ? [{ key: s.alias?.value ?? s.name.value, name: s.name.value }] : [],
    );
    shape = { type: operation.operation, fields, fieldNames: fields.map((f) => f.name) };
    shapes.set(operation, shape);
  }
  return shape;
}

/** The root fields an operation is counted under: its own, or one `(invalid)` when it never got that far. */
export const countedFields = (record: OperationRecord): readonly RootField[] => (record.fields.length ? record.fields : INVALID_FIELDS);

/**
 * The outcome of one root field for metrics: its typed error's code, the code of the error at its path, its stream's error, or `success`.
 */
export function outcomeOf(key: string, record: OperationRecord, errors: readonly unknown[]): string {
  const typed = record.typedErrors.get(key);
  if (typed) return typed;
  // An error of this field (its path starts with the field's key), or of the whole operation (no path).
  const error = errors.find((e) => !(e instanceof GraphQLError) || !e.path || e.path[0] === key);
  if (error) return errorCode(error);
  return record.streamError ?? 'success';
}

const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

/** The code of an error as a metric label: the GraphQL error's own code when it is one, else INTERNAL_SERVER_ERROR (never free text). */
export function errorCode(error: unknown): string {
  const code = error instanceof GraphQLError ? error.extensions?.code : undefined;
  if (typeof code === 'string' && CODE.test(code)) return code;
  return 'INTERNAL_SERVER_ERROR';
}

/** A typed error, recognised by the shape every PaymentError has (`code` and `messageFr`). */
export function typedErrorCode(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || typeof (value as { messageFr?: unknown }).messageFr !== 'string') return null;
  const code = (value as { code?: unknown }).code;
  return typeof code === 'string' && CODE.test(code) ? code : null;
}
