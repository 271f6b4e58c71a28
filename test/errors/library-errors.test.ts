// The catalogue of library errors (src/errors/library-errors.ts) against the libraries themselves: graphql-js runs
// each of its validation rules (every one of `specifiedRules`, and the introspection rule of live mode) on
// documents made to break it, and every sentence it writes must meet an entry of that very rule, with French; every
// entry of a rule is met, so the table has no entry that graphql-js no longer writes. Then each entry, rendered
// from its template, reads back as itself. test/errors/every-library-error.test.ts receives them over HTTP and
// WebSocket from a running gateway.
import { GraphQLError, NoSchemaIntrospectionCustomRule, parse, specifiedRules, validate, type ValidationRule } from 'graphql';
import { describe, expect, it } from 'vitest';
import { LIBRARY_ERRORS, frenchOf, libraryText, renderLibraryEntry } from '../../src/errors/library-errors.js';
import { schema } from '../../src/schema/index.js';

const FRENCH = /\b(le|la|les|l’|un|une|des|du|de|d’|ce|est|sont|pas|pour|sur|dans|au|ou|et|ne|n’|aucun|aucune|trop)\b|[éèêàçù]/i;
const ENGLISH = /\b(the|must|cannot|could|only|with|this|is|are|was|and|of|be)\b/i;
const GENERIC_FR = /^La requête n’a pas pu être traitée/;

/** Documents that break each rule, each checked against that rule alone. */
const BROKEN: Record<string, string[]> = {
  ExecutableDefinitionsRule: ['{ balance { currency } } type Foo { x: Int }'],
  UniqueOperationNamesRule: ['query A { balance { currency } } query A { balance { currency } }'],
  LoneAnonymousOperationRule: ['{ balance { currency } } query B { balance { currency } }'],
  SingleFieldSubscriptionsRule: [
    'subscription { a: paymentEvents { id } b: paymentEvents { id } }',
    'subscription S { a: paymentEvents { id } b: paymentEvents { id } }',
    'subscription { __typename }',
    'subscription S { __typename }',
  ],
  KnownTypeNamesRule: ['query ($f: ChargeFiltr) { charges(filter: $f) { totalCount } }'],
  FragmentsOnCompositeTypesRule: ['{ balance { ... on String { x } } }', 'fragment F on String { x } { balance { ...F } }'],
  VariablesAreInputTypesRule: ['query ($b: Balance) { balance { currency } }'],
  ScalarLeafsRule: ['{ balance }', '{ balance { currency { x } } }'],
  FieldsOnCorrectTypeRule: ['{ balanse { currency } }', '{ balance { nope } }'],
  UniqueFragmentNamesRule: ['fragment F on Balance { currency } fragment F on Balance { currency } { balance { ...F } }'],
  KnownFragmentNamesRule: ['{ balance { ...Missing } }'],
  NoUnusedFragmentsRule: ['fragment F on Balance { currency } { balance { currency } }'],
  PossibleFragmentSpreadsRule: ['{ balance { ... on Charge { reference } } }', 'fragment F on Charge { reference } { balance { ...F } }'],
  NoFragmentCyclesRule: [
    'fragment F on Balance { ...F } { balance { ...F } }',
    'fragment F on Balance { ...G } fragment G on Balance { ...F } { balance { ...F } }',
  ],
  UniqueVariableNamesRule: ['query ($a: Int, $a: Int) { charges(first: $a) { totalCount } }'],
  NoUndefinedVariablesRule: ['{ charges(first: $n) { totalCount } }', 'query Q { charges(first: $n) { totalCount } }'],
  NoUnusedVariablesRule: ['query ($n: Int) { balance { currency } }', 'query Q($n: Int) { balance { currency } }'],
  KnownDirectivesRule: ['{ balance @nope { currency } }', '{ balance @oneOf { currency } }'],
  UniqueDirectivesPerLocationRule: ['{ balance @skip(if: false) @skip(if: false) { currency } }'],
  KnownArgumentNamesRule: ['{ charge(reference: "x", extra: 1) { reference } }', '{ balance @skip(if: false, nope: 1) { currency } }'],
  UniqueArgumentNamesRule: ['{ charge(reference: "a", reference: "b") { reference } }'],
  ValuesOfCorrectTypeRule: [
    '{ charges(first: "ten") { totalCount } }',
    '{ charges(filter: { nope: 1 }) { totalCount } }',
    '{ charges(filter: { provider: OPZ_BF }) { totalCount } }',
    '{ charges(filter: "x") { totalCount } }',
    '{ charges(first: 1.5) { totalCount } }',
    '{ charges(filter: { dateFrom: "yesterday" }) { totalCount } }',
    'mutation { createCharge(input: { amount: 1 }) { __typename } }',
  ],
  ProvidedRequiredArgumentsRule: ['{ charge { reference } }', '{ balance @skip { currency } }'],
  VariablesInAllowedPositionRule: ['query ($r: String) { charge(reference: $r) { reference } }'],
  OverlappingFieldsCanBeMergedRule: [
    '{ charge(reference: "a") { status } charge(reference: "b") { status } }',
    '{ a: balance { currency } a: charges(first: 1) { totalCount } }',
  ],
  UniqueInputFieldNamesRule: ['{ charges(filter: { status: SUCCESS, status: FAILED }) { totalCount } }'],
  MaxIntrospectionDepthRule: ['{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }'],
  NoSchemaIntrospectionCustomRule: ['{ __schema { queryType { name } } }'],
};

/** Entries no document can reach against this schema, and why. */
const NOT_REACHABLE_HERE: Record<string, string> = {
  ScalarLeafEmptySelection: 'an empty selection set does not parse',
  LiteralWithDetail: 'a scalar that refuses a literal with an error other than a GraphQLError: ours throw GraphQLErrors (LiteralRefused)',
  LiteralOneOfKeys: 'the schema has no @oneOf input type',
  LiteralOneOfNull: 'the schema has no @oneOf input type',
  VariableOneOfPosition: 'the schema has no @oneOf input type',
  RequiredDirectiveArgument: 'met below: the built-in directives’ required argument',
};

const rules: Array<[string, ValidationRule]> = [
  ...specifiedRules.map((rule) => [rule.name, rule] as [string, ValidationRule]),
  ['NoSchemaIntrospectionCustomRule', NoSchemaIntrospectionCustomRule],
];

describe("graphql-js's validation rules", () => {
  const met = new Set<string>();

  it('every rule of specifiedRules has documents that break it', () => {
    expect(rules.map(([name]) => name).filter((name) => !BROKEN[name])).toEqual([]);
  });

  it.each(rules)('%s: each sentence meets an entry of that rule, with its French', (name, rule) => {
    for (const source of BROKEN[name] ?? []) {
      const errors = validate(schema, parse(source), [rule]);
      expect(errors.length, source).toBeGreaterThan(0);
      for (const error of errors) {
        const known = libraryText(error);
        expect(known, error.message).not.toBeNull();
        met.add(known!.key);
        expect((LIBRARY_ERRORS as Record<string, { from: string }>)[known!.key]!.from, error.message).toBe(name);
        expect(known!.code).toBe('GRAPHQL_VALIDATION_FAILED');
        const fr = frenchOf(error);
        expect(fr, error.message).not.toMatch(GENERIC_FR);
        expect(fr, error.message).toMatch(FRENCH);
        expect(fr, error.message).not.toMatch(ENGLISH);
      }
    }
  });

  it('every entry of a rule is met by a document, or says why not', () => {
    const ruleNames = new Set(rules.map(([name]) => name));
    const entries = Object.entries(LIBRARY_ERRORS).filter(([, entry]) => ruleNames.has(entry.from));
    const missed = entries.map(([key]) => key).filter((key) => !met.has(key) && !NOT_REACHABLE_HERE[key]);
    expect(missed).toEqual([]);
  });
});

/** A value for each hole of a template: a name, or (for a detail or reason) a sentence of its own table. */
function sampleParams(template: string): Record<string, string> {
  const holes = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const params: Record<string, string> = {};
  holes.forEach((hole, i) => {
    if (hole === 'detail') params[hole] = 'Expected type "Int".';
    else if (hole === 'reason') params[hole] = 'they have differing arguments';
    else if (hole === 'again') params[hole] = params.field ?? 'f';
    else params[hole] = `Name${i}`;
  });
  return params;
}

describe('each entry', () => {
  it.each(Object.keys(LIBRARY_ERRORS))('%s: its English reads back as itself, and its French is French', (key) => {
    const { en } = renderLibraryEntry(key, sampleParams(LIBRARY_ERRORS[key as keyof typeof LIBRARY_ERRORS].en));
    const known = libraryText(new GraphQLError(en));
    expect(known?.key, en).toBe(key);
    expect(known!.fr, en).not.toBe(en);
    expect(known!.fr, en).toMatch(FRENCH);
    expect(known!.fr, en).not.toMatch(ENGLISH);
  });

  it('a directive’s required argument (ProvidedRequiredArgumentsRule)', () => {
    const [error] = validate(schema, parse('{ balance @include { currency } }'), specifiedRules);
    expect(libraryText(error!)).toMatchObject({
      key: 'RequiredDirectiveArgument',
      fr: 'L’argument « if » (type « Boolean! ») de la directive « @include » est obligatoire mais n’a pas été fourni.',
    });
  });

  it('a sentence no entry knows is not read by guesswork', () => {
    expect(libraryText(new GraphQLError('Some library says something new.'))).toBeNull();
    expect(frenchOf(new GraphQLError('Some library says something new.'))).toBe('La requête n’a pas pu être traitée.');
  });
});
