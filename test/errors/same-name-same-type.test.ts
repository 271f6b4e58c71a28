// Same name, same type, among errors: the error types that share a result union or the PaymentError interface
// give a field of one name one type, so a client's generic error fragment (`... on A { status } ... on B {
// status }`) validates. Resource types (Charge.status, Checkout.status) keep their own enums: only types that
// implement PaymentError are compared.
import { readFileSync } from 'node:fs';
import {
  buildSchema,
  isInterfaceType,
  isObjectType,
  isUnionType,
  parse,
  validate,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { printSchemaSDL } from '../../src/schema/print.js';

const isError = (type: GraphQLObjectType) => type.getInterfaces().some((i) => i.name === 'PaymentError');

/** Every same-named field of two error types of one union or interface whose types differ. */
function conflicts(schema: GraphQLSchema): string[] {
  const found = new Set<string>();
  const groups = Object.values(schema.getTypeMap()).flatMap((type: GraphQLNamedType) => {
    if (isUnionType(type)) return [{ name: type.name, members: type.getTypes() }];
    if (isInterfaceType(type)) return [{ name: type.name, members: schema.getPossibleTypes(type) }];
    return [];
  });
  for (const { name, members } of groups) {
    const typeOfField = new Map<string, { type: string; on: string }>();
    for (const member of members.filter((m) => isObjectType(m) && isError(m))) {
      for (const field of Object.values(member.getFields())) {
        const seen = typeOfField.get(field.name);
        const type = String(field.type);
        if (!seen) typeOfField.set(field.name, { type, on: member.name });
        else if (seen.type !== type) found.add(`${name}: ${seen.on}.${field.name}: ${seen.type} vs ${member.name}.${field.name}: ${type}`);
      }
    }
  }
  return [...found].sort();
}

/** A fragment on PaymentError selecting every field of every error type, as a generic client would. */
function everyErrorField(schema: GraphQLSchema): string {
  const errorTypes = Object.values(schema.getTypeMap()).filter((t): t is GraphQLObjectType => isObjectType(t) && isError(t));
  const leaf = (type: GraphQLObjectType, field: string) => {
    const named = schema.getType(String(type.getFields()[field]!.type).replace(/[[\]!]/g, ''));
    return isObjectType(named) ? `${field} { __typename }` : field;
  };
  const parts = errorTypes.map(
    (t) =>
      `... on ${t.name} { ${Object.keys(t.getFields())
        .map((f) => leaf(t, f))
        .join(' ')} }`,
  );
  return `fragment AnyError on PaymentError { ${parts.join(' ')} }`;
}

describe('same name, same type among error types', () => {
  const printed = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));

  it('the printed schema (schema.graphql, and as the code prints it) has no conflict in any union or interface', () => {
    expect(conflicts(printed)).toEqual([]);
    expect(conflicts(buildSchema(printSchemaSDL()))).toEqual([]);
  });

  it('a generic fragment selecting every field of every error type validates', () => {
    const document = parse(`${everyErrorField(printed)}\nmutation ($r: String!) { cancelSettlement(reference: $r) { ...AnyError } }`);
    expect(document.definitions).toHaveLength(2);
    expect(validate(printed, document).map((e) => e.message)).toEqual([]);
  });

  it('finds a conflict between error types, and none between an error and a resource (the check itself works)', () => {
    const schema = buildSchema(`
      interface PaymentError { code: String! }
      enum A { X } enum B { Y }
      type Charge { status: A! }
      type OneError implements PaymentError { code: String! status: A }
      type OtherError implements PaymentError { code: String! status: B! }
      union Result = Charge | OneError
      type Query { r: Result e: PaymentError }
    `);
    expect(conflicts(schema)).toEqual(['PaymentError: OneError.status: A vs OtherError.status: B!']);
    const fragment = everyErrorField(schema);
    expect(validate(schema, parse(`${fragment}\n{ e { ...AnyError } }`)).map((e) => e.message)).toEqual([
      expect.stringMatching(/^Fields "status" conflict because they return conflicting types/),
    ]);
  });
});
