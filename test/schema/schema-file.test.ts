// The schema as a published artefact: the committed schema.graphql is exactly
// what the code builds, everything in it is described, and the public contract
// of the design sketch is still honoured (test/fixtures/api-sketch.graphql: a
// copy of the design's api-sketch.graphql, kept in the repository so the tests
// need nothing outside it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Kind,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
  parse,
  print,
  type DefinitionNode,
  type GraphQLNamedType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/schema/index.js';
import { printSchemaSDL } from '../../src/schema/print.js';

const repoRoot = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const schemaFile = path.join(repoRoot, 'schema.graphql');
const sketchFile = path.join(repoRoot, 'test', 'fixtures', 'api-sketch.graphql');

function ownTypes(): GraphQLNamedType[] {
  return Object.values(schema.getTypeMap()).filter((t) => !isIntrospectionType(t) && !isSpecifiedScalarType(t));
}

describe('schema.graphql', () => {
  it('is exactly what the code prints', () => {
    const printed = printSchemaSDL();
    const committed = readFileSync(schemaFile, 'utf8');
    if (printed !== committed) {
      const a = committed.split('\n');
      const b = printed.split('\n');
      const line = a.findIndex((l, i) => l !== b[i]);
      const at = line === -1 ? Math.min(a.length, b.length) : line;
      expect.fail(
        `schema.graphql is out of date: run \`npm run schema:print\` (then \`npm run codegen\`) and commit the result.\n` +
          `First difference at line ${at + 1}:\n  committed: ${JSON.stringify(a[at])}\n  printed:   ${JSON.stringify(b[at])}`,
      );
    }
    expect(printed).toBe(committed);
  });

  it('describes every type and every field', () => {
    const missing: string[] = [];
    for (const type of ownTypes()) {
      if (!type.description?.trim()) missing.push(type.name);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description?.trim()) missing.push(`${type.name}.${field.name}`);
        }
      }
    }
    expect(missing, `types and fields without a description:\n  ${missing.join('\n  ')}`).toEqual([]);
  });
});

describe("the API sketch's contract", () => {
  const definitions = (): readonly DefinitionNode[] => parse(readFileSync(sketchFile, 'utf8')).definitions;

  it('keeps every query, mutation and subscription of the sketch, with its arguments and their types', () => {
    const problems: string[] = [];
    const roots = { Query: schema.getQueryType(), Mutation: schema.getMutationType(), Subscription: schema.getSubscriptionType() };
    let operations = 0;
    for (const def of definitions()) {
      if (def.kind !== Kind.OBJECT_TYPE_DEFINITION || !(def.name.value in roots)) continue;
      const root = roots[def.name.value as keyof typeof roots];
      for (const field of def.fields ?? []) {
        operations++;
        const ours = root?.getFields()[field.name.value];
        if (!ours) {
          problems.push(`${def.name.value}.${field.name.value} is missing`);
          continue;
        }
        for (const arg of field.arguments ?? []) {
          const ourArg = ours.args.find((a) => a.name === arg.name.value);
          if (!ourArg) problems.push(`${def.name.value}.${field.name.value}(${arg.name.value}) is missing`);
          else if (String(ourArg.type) !== print(arg.type)) {
            problems.push(
              `${def.name.value}.${field.name.value}(${arg.name.value}) is ${String(ourArg.type)}, the sketch says ${print(arg.type)}`,
            );
          }
        }
      }
    }
    expect(operations).toBeGreaterThanOrEqual(20);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('keeps the types, fields, input fields and enum values the sketch names', () => {
    const problems: string[] = [];
    for (const def of definitions()) {
      if (!('name' in def) || !def.name || ['Query', 'Mutation', 'Subscription'].includes(def.name.value)) continue;
      const ours = schema.getType(def.name.value);
      if (!ours) {
        problems.push(`type ${def.name.value} is missing`);
        continue;
      }
      switch (def.kind) {
        case Kind.OBJECT_TYPE_DEFINITION:
        case Kind.INTERFACE_TYPE_DEFINITION:
        case Kind.INPUT_OBJECT_TYPE_DEFINITION: {
          if (!(isObjectType(ours) || isInterfaceType(ours) || isInputObjectType(ours))) {
            problems.push(`${def.name.value} is a ${ours.constructor.name}`);
            break;
          }
          const fields = ours.getFields();
          for (const f of def.fields ?? []) if (!fields[f.name.value]) problems.push(`${def.name.value}.${f.name.value} is missing`);
          break;
        }
        case Kind.ENUM_TYPE_DEFINITION: {
          if (!isEnumType(ours)) {
            problems.push(`${def.name.value} is not an enum`);
            break;
          }
          for (const v of def.values ?? []) if (!ours.getValue(v.name.value)) problems.push(`${def.name.value}.${v.name.value} is missing`);
          break;
        }
        case Kind.UNION_TYPE_DEFINITION:
          if (!isUnionType(ours)) problems.push(`${def.name.value} is not a union`);
          break;
        default:
          break;
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
