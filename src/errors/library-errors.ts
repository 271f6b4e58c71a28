// The catalogue of the errors the gateway does not write itself but a client can receive: graphql-js's parse
// errors, each validation rule's sentences, its variable coercion errors; graphql-tools' and yoga's operation and
// request errors (OPERATION_RESOLUTION_FAILURE, BAD_REQUEST, CSRF); graphql-armor's limits. Each sentence has one
// entry here: the library's English as a template with named holes, the code the client gets, and a French written
// from the holes' values. Our own errors are in top-level.ts; the persisted-operation and trusted-document refusals
// are ours too (src/execution/trusted-documents.ts raises catalogue codes).
//
// Why templates, rather than running each of graphql-js's `specifiedRules` alone to learn which rule spoke: a
// GraphQLError carries a sentence and AST nodes only, no rule and no parameters, and so do the parser, the variable
// coercion, yoga and graphql-armor. Running the rules one by one would name the rule but still leave the names to
// read out of the sentence, and would validate each document 27 times. A library's sentence is fixed for its
// version (package-lock.json pins it), so its template, written once here, names the entry and its parameters
// alike; `libraryText` is the one reader, and no French is made anywhere else. Where the library does give
// structure it is used instead: the code it set (OPERATION_RESOLUTION_FAILURE), and the French our own scalars
// attach to their refusals (`extensions.messageFr` of the error graphql-js keeps as `originalError`).
// test/errors/library-errors.test.ts makes graphql-js write every rule's sentences and checks each meets the entry
// of that rule, so an upgrade that rewords one fails a test rather than reaching a client in the catch-all.
import type { GraphQLError } from 'graphql';
import { compileTemplate, fillTemplate, readTemplate, type CompiledTemplate } from './sentence-templates.js';
import { ScalarValueError, isTopLevelCode, onlyTextOf, topLevelText, type Text, type TopLevelCode } from './top-level.js';
import { InvariantError } from './internal-error.js';

type Params = Readonly<Record<string, string>>;

interface LibraryEntry {
  /** Who writes the sentence (a graphql-js rule by its `specifiedRules` name, or the library and its part). */
  from: string;
  /**
   * The code a client gets with it. Without one, the sentence is only ever the `{detail}` of another (what was wrong
   * with a value) or a `{reason}` of a field conflict.
   */
  code?: TopLevelCode;
  /** The library's English, `{name}` for each part it fills in. `{detail}` and `{reason}` are themselves looked up. */
  en: string;
  fr: (p: Params) => string;
}

const q = (name: string) => `« ${name} »`;
const variable = (p: Params) => q(`$${p.variable}`);
/** A value graphql-js printed (JSON-like): as it is, a token of the document rather than words. */
const value = (v: string | undefined) => v ?? '';

const VALIDATION = 'GRAPHQL_VALIDATION_FAILED';
const PARSE = 'GRAPHQL_PARSE_FAILED';
const INPUT = 'BAD_USER_INPUT';
const OPERATION = 'OPERATION_RESOLUTION_FAILURE';
const REQUEST = 'BAD_REQUEST';

const VALIDATION_ERRORS = {
  ExecutableDefinition: {
    from: 'ExecutableDefinitionsRule',
    code: VALIDATION,
    en: 'The {definition} definition is not executable.',
    fr: (p) => `La définition ${q(p.definition!)} n’est pas exécutable : un document ne contient que des opérations et des fragments.`,
  },
  UniqueOperationName: {
    from: 'UniqueOperationNamesRule',
    code: VALIDATION,
    en: 'There can be only one operation named "{operation}".',
    fr: (p) => `Une seule opération peut s’appeler ${q(p.operation!)}.`,
  },
  LoneAnonymousOperation: {
    from: 'LoneAnonymousOperationRule',
    code: VALIDATION,
    en: 'This anonymous operation must be the only defined operation.',
    fr: () => 'Une opération anonyme doit être la seule opération du document.',
  },
  SingleFieldAnonymousSubscription: {
    from: 'SingleFieldSubscriptionsRule',
    code: VALIDATION,
    en: 'Anonymous Subscription must select only one top level field.',
    fr: () => 'Un abonnement anonyme ne doit sélectionner qu’un seul champ racine.',
  },
  SingleFieldSubscription: {
    from: 'SingleFieldSubscriptionsRule',
    code: VALIDATION,
    en: 'Subscription "{operation}" must select only one top level field.',
    fr: (p) => `L’abonnement ${q(p.operation!)} ne doit sélectionner qu’un seul champ racine.`,
  },
  AnonymousSubscriptionIntrospection: {
    from: 'SingleFieldSubscriptionsRule',
    code: VALIDATION,
    en: 'Anonymous Subscription must not select an introspection top level field.',
    fr: () => 'Un abonnement anonyme ne peut pas sélectionner un champ d’introspection à la racine.',
  },
  SubscriptionIntrospection: {
    from: 'SingleFieldSubscriptionsRule',
    code: VALIDATION,
    en: 'Subscription "{operation}" must not select an introspection top level field.',
    fr: (p) => `L’abonnement ${q(p.operation!)} ne peut pas sélectionner un champ d’introspection à la racine.`,
  },
  KnownTypeName: {
    from: 'KnownTypeNamesRule',
    code: VALIDATION,
    en: 'Unknown type "{type}".',
    fr: (p) => `Le type ${q(p.type!)} n’existe pas.`,
  },
  InlineFragmentOnComposite: {
    from: 'FragmentsOnCompositeTypesRule',
    code: VALIDATION,
    en: 'Fragment cannot condition on non composite type "{type}".',
    fr: (p) => `Un fragment ne peut pas porter sur le type ${q(p.type!)}, qui n’a pas de champs.`,
  },
  FragmentOnComposite: {
    from: 'FragmentsOnCompositeTypesRule',
    code: VALIDATION,
    en: 'Fragment "{fragment}" cannot condition on non composite type "{type}".',
    fr: (p) => `Le fragment ${q(p.fragment!)} ne peut pas porter sur le type ${q(p.type!)}, qui n’a pas de champs.`,
  },
  VariableInputType: {
    from: 'VariablesAreInputTypesRule',
    code: VALIDATION,
    en: 'Variable "${variable}" cannot be non-input type "{type}".',
    fr: (p) => `La variable ${variable(p)} ne peut pas être du type ${q(p.type!)}, qui n’est pas un type d’entrée.`,
  },
  ScalarLeafWithSelection: {
    from: 'ScalarLeafsRule',
    code: VALIDATION,
    en: 'Field "{field}" must not have a selection since type "{type}" has no subfields.',
    fr: (p) => `Le champ ${q(p.field!)} ne peut pas avoir de sous-sélection : le type ${q(p.type!)} n’a pas de sous-champs.`,
  },
  ScalarLeafWithoutSelection: {
    from: 'ScalarLeafsRule',
    code: VALIDATION,
    en: 'Field "{field}" of type "{type}" must have a selection of subfields. Did you mean "{again} { ... }"?',
    fr: (p) => `Le champ ${q(p.field!)} (type ${q(p.type!)}) doit sélectionner des sous-champs : ${q(`${p.field} { ... }`)}.`,
  },
  ScalarLeafEmptySelection: {
    from: 'ScalarLeafsRule',
    code: VALIDATION,
    en: 'Field "{field}" of type "{type}" must have at least one field selected.',
    fr: (p) => `Le champ ${q(p.field!)} (type ${q(p.type!)}) doit sélectionner au moins un sous-champ.`,
  },
  FieldOnType: {
    from: 'FieldsOnCorrectTypeRule',
    code: VALIDATION,
    en: 'Cannot query field "{field}" on type "{type}".',
    fr: (p) => `Le champ ${q(p.field!)} n’existe pas sur le type ${q(p.type!)}.`,
  },
  UniqueFragmentName: {
    from: 'UniqueFragmentNamesRule',
    code: VALIDATION,
    en: 'There can be only one fragment named "{fragment}".',
    fr: (p) => `Un seul fragment peut s’appeler ${q(p.fragment!)}.`,
  },
  KnownFragmentName: {
    from: 'KnownFragmentNamesRule',
    code: VALIDATION,
    en: 'Unknown fragment "{fragment}".',
    fr: (p) => `Le fragment ${q(p.fragment!)} n’existe pas.`,
  },
  UnusedFragment: {
    from: 'NoUnusedFragmentsRule',
    code: VALIDATION,
    en: 'Fragment "{fragment}" is never used.',
    fr: (p) => `Le fragment ${q(p.fragment!)} n’est jamais utilisé.`,
  },
  InlineFragmentSpread: {
    from: 'PossibleFragmentSpreadsRule',
    code: VALIDATION,
    en: 'Fragment cannot be spread here as objects of type "{parent}" can never be of type "{type}".',
    fr: (p) => `Ce fragment ne peut pas être utilisé ici : un objet de type ${q(p.parent!)} n’est jamais de type ${q(p.type!)}.`,
  },
  FragmentSpread: {
    from: 'PossibleFragmentSpreadsRule',
    code: VALIDATION,
    en: 'Fragment "{fragment}" cannot be spread here as objects of type "{parent}" can never be of type "{type}".',
    fr: (p) =>
      `Le fragment ${q(p.fragment!)} ne peut pas être utilisé ici : un objet de type ${q(p.parent!)} n’est jamais de type ${q(p.type!)}.`,
  },
  FragmentCycleVia: {
    from: 'NoFragmentCyclesRule',
    code: VALIDATION,
    en: 'Cannot spread fragment "{fragment}" within itself via {via}.',
    fr: (p) => `Le fragment ${q(p.fragment!)} s’inclut lui-même (par ${p.via}).`,
  },
  FragmentCycle: {
    from: 'NoFragmentCyclesRule',
    code: VALIDATION,
    en: 'Cannot spread fragment "{fragment}" within itself.',
    fr: (p) => `Le fragment ${q(p.fragment!)} s’inclut lui-même.`,
  },
  UniqueVariableName: {
    from: 'UniqueVariableNamesRule',
    code: VALIDATION,
    en: 'There can be only one variable named "${variable}".',
    fr: (p) => `Une seule variable peut s’appeler ${variable(p)}.`,
  },
  UndefinedVariableInOperation: {
    from: 'NoUndefinedVariablesRule',
    code: VALIDATION,
    en: 'Variable "${variable}" is not defined by operation "{operation}".',
    fr: (p) => `La variable ${variable(p)} n’est pas déclarée par l’opération ${q(p.operation!)}.`,
  },
  UndefinedVariable: {
    from: 'NoUndefinedVariablesRule',
    code: VALIDATION,
    en: 'Variable "${variable}" is not defined.',
    fr: (p) => `La variable ${variable(p)} n’est pas déclarée.`,
  },
  UnusedVariableInOperation: {
    from: 'NoUnusedVariablesRule',
    code: VALIDATION,
    en: 'Variable "${variable}" is never used in operation "{operation}".',
    fr: (p) => `La variable ${variable(p)} n’est jamais utilisée dans l’opération ${q(p.operation!)}.`,
  },
  UnusedVariable: {
    from: 'NoUnusedVariablesRule',
    code: VALIDATION,
    en: 'Variable "${variable}" is never used.',
    fr: (p) => `La variable ${variable(p)} n’est jamais utilisée.`,
  },
  KnownDirective: {
    from: 'KnownDirectivesRule',
    code: VALIDATION,
    en: 'Unknown directive "@{directive}".',
    fr: (p) => `La directive ${q(`@${p.directive}`)} n’existe pas.`,
  },
  DirectiveLocation: {
    from: 'KnownDirectivesRule',
    code: VALIDATION,
    en: 'Directive "@{directive}" may not be used on {location}.',
    fr: (p) => `La directive ${q(`@${p.directive}`)} ne peut pas s’appliquer à ${p.location}.`,
  },
  UniqueDirectivePerLocation: {
    from: 'UniqueDirectivesPerLocationRule',
    code: VALIDATION,
    en: 'The directive "@{directive}" can only be used once at this location.',
    fr: (p) => `La directive ${q(`@${p.directive}`)} ne peut figurer qu’une fois à cet endroit.`,
  },
  KnownFieldArgument: {
    from: 'KnownArgumentNamesRule',
    code: VALIDATION,
    en: 'Unknown argument "{argument}" on field "{field}".',
    fr: (p) => `L’argument ${q(p.argument!)} n’existe pas sur le champ ${q(p.field!)}.`,
  },
  KnownDirectiveArgument: {
    from: 'KnownArgumentNamesRule',
    code: VALIDATION,
    en: 'Unknown argument "{argument}" on directive "@{directive}".',
    fr: (p) => `L’argument ${q(p.argument!)} n’existe pas sur la directive ${q(`@${p.directive}`)}.`,
  },
  UniqueArgumentName: {
    from: 'UniqueArgumentNamesRule',
    code: VALIDATION,
    en: 'There can be only one argument named "{argument}".',
    fr: (p) => `Un seul argument peut s’appeler ${q(p.argument!)}.`,
  },
  LiteralWithDetail: {
    from: 'ValuesOfCorrectTypeRule',
    code: VALIDATION,
    en: 'Expected value of type "{type}", found {value}; {detail}',
    fr: (p) => `Valeur de type ${q(p.type!)} attendue, reçu ${value(p.value)} : ${p.detail}`,
  },
  Literal: {
    from: 'ValuesOfCorrectTypeRule',
    code: VALIDATION,
    en: 'Expected value of type "{type}", found {value}.',
    fr: (p) => `Valeur de type ${q(p.type!)} attendue, reçu ${value(p.value)}.`,
  },
  LiteralFieldRequired: {
    from: 'ValuesOfCorrectTypeRule',
    code: VALIDATION,
    en: 'Field "{field}" of required type "{type}" was not provided.',
    fr: (p) => `Le champ obligatoire ${q(p.field!)} (type ${q(p.type!)}) n’a pas été fourni.`,
  },
  LiteralFieldUnknown: {
    from: 'ValuesOfCorrectTypeRule',
    code: VALIDATION,
    en: 'Field "{field}" is not defined by type "{type}".',
    fr: (p) => `Le champ ${q(p.field!)} n’existe pas dans le type ${q(p.type!)}.`,
  },
  LiteralOneOfKeys: {
    from: 'ValuesOfCorrectTypeRule',
    code: VALIDATION,
    en: 'OneOf Input Object "{type}" must specify exactly one key.',
    fr: (p) => `L’objet d’entrée ${q(p.type!)} (OneOf) doit avoir exactement une clé.`,
  },
  LiteralOneOfNull: {
    from: 'ValuesOfCorrectTypeRule',
    code: VALIDATION,
    en: 'Field "{field}" must be non-null.',
    fr: (p) => `Le champ ${q(p.field!)} ne peut pas être nul.`,
  },
  RequiredFieldArgument: {
    from: 'ProvidedRequiredArgumentsRule',
    code: VALIDATION,
    en: 'Field "{field}" argument "{argument}" of type "{type}" is required, but it was not provided.',
    fr: (p) => `L’argument ${q(p.argument!)} (type ${q(p.type!)}) du champ ${q(p.field!)} est obligatoire mais n’a pas été fourni.`,
  },
  RequiredDirectiveArgument: {
    from: 'ProvidedRequiredArgumentsRule',
    code: VALIDATION,
    en: 'Directive "@{directive}" argument "{argument}" of type "{type}" is required, but it was not provided.',
    fr: (p) =>
      `L’argument ${q(p.argument!)} (type ${q(p.type!)}) de la directive ${q(`@${p.directive}`)} est obligatoire mais n’a pas été fourni.`,
  },
  VariablePosition: {
    from: 'VariablesInAllowedPositionRule',
    code: VALIDATION,
    en: 'Variable "${variable}" of type "{type}" used in position expecting type "{expected}".',
    fr: (p) => `La variable ${variable(p)} de type ${q(p.type!)} est utilisée là où le type ${q(p.expected!)} est attendu.`,
  },
  VariableOneOfPosition: {
    from: 'VariablesInAllowedPositionRule',
    code: VALIDATION,
    en: 'Variable "${variable}" is of type "{type}" but must be non-nullable to be used for OneOf Input Object "{input}".',
    fr: (p) =>
      `La variable ${variable(p)} est de type ${q(p.type!)} : elle doit être non nulle pour servir à l’objet d’entrée ${q(p.input!)} (OneOf).`,
  },
  FieldConflict: {
    from: 'OverlappingFieldsCanBeMergedRule',
    code: VALIDATION,
    en: 'Fields "{field}" conflict because {reason}. Use different aliases on the fields to fetch both if this was intentional.',
    fr: (p) => `Les sélections ${q(p.field!)} sont en conflit : ${p.reason}. Donnez-leur des alias différents pour obtenir les deux.`,
  },
  UniqueInputFieldName: {
    from: 'UniqueInputFieldNamesRule',
    code: VALIDATION,
    en: 'There can be only one input field named "{field}".',
    fr: (p) => `Un seul champ d’entrée peut s’appeler ${q(p.field!)}.`,
  },
  IntrospectionDepth: {
    from: 'MaxIntrospectionDepthRule',
    code: VALIDATION,
    en: 'Maximum introspection depth exceeded',
    fr: () => 'Requête d’introspection trop profonde.',
  },
  TooManyValidationErrors: {
    from: 'graphql-js validate',
    code: VALIDATION,
    en: 'Too many validation errors, error limit reached. Validation aborted.',
    fr: () => 'Trop d’erreurs de validation : la validation s’est arrêtée à la centième.',
  },
  IntrospectionDisabled: {
    from: 'NoSchemaIntrospectionCustomRule',
    code: VALIDATION,
    en: 'GraphQL introspection has been disabled, but the requested query contained the field "{field}".',
    fr: (p) => `L’introspection du schéma est désactivée, or la requête contient le champ ${q(p.field!)}.`,
  },
} as const satisfies Record<string, LibraryEntry>;

/** Why two selections of one response name conflict (the `{reason}` of FieldConflict). */
const CONFLICT_REASONS = {
  DifferingArguments: {
    from: 'OverlappingFieldsCanBeMergedRule',
    en: 'they have differing arguments',
    fr: () => 'leurs arguments diffèrent',
  },
  DifferentFields: {
    from: 'OverlappingFieldsCanBeMergedRule',
    en: '"{a}" and "{b}" are different fields',
    fr: (p) => `${q(p.a!)} et ${q(p.b!)} sont des champs différents`,
  },
  ConflictingTypes: {
    from: 'OverlappingFieldsCanBeMergedRule',
    en: 'they return conflicting types "{a}" and "{b}"',
    fr: (p) => `ils renvoient des types incompatibles, ${q(p.a!)} et ${q(p.b!)}`,
  },
  Subfields: {
    from: 'OverlappingFieldsCanBeMergedRule',
    en: 'subfields "{field}" conflict because {reason}',
    fr: (p) => `leurs sous-champs ${q(p.field!)} sont en conflit (${p.reason})`,
  },
} as const satisfies Record<string, LibraryEntry>;

const VARIABLE_ERRORS = {
  VariableValueAtPath: {
    from: 'graphql-js getVariableValues',
    code: INPUT,
    en: 'Variable "${variable}" got invalid value {value} at "{path}"; {detail}',
    fr: (p) => `La variable ${variable(p)} a reçu une valeur invalide (au chemin ${q(p.path!)}) : ${p.detail}`,
  },
  VariableValue: {
    from: 'graphql-js getVariableValues',
    code: INPUT,
    en: 'Variable "${variable}" got invalid value {value}; {detail}',
    fr: (p) => `La variable ${variable(p)} a reçu une valeur invalide : ${p.detail}`,
  },
  VariableRequired: {
    from: 'graphql-js getVariableValues',
    code: INPUT,
    en: 'Variable "${variable}" of required type "{type}" was not provided.',
    fr: (p) => `La variable obligatoire ${variable(p)} (type ${q(p.type!)}) n’a pas été fournie.`,
  },
  VariableNull: {
    from: 'graphql-js getVariableValues',
    code: INPUT,
    en: 'Variable "${variable}" of non-null type "{type}" must not be null.',
    fr: (p) => `La variable ${variable(p)} (type ${q(p.type!)}) ne peut pas être nulle.`,
  },
  VariableNotInputType: {
    from: 'graphql-js getVariableValues',
    code: INPUT,
    en: 'Variable "${variable}" expected value of type "{type}" which cannot be used as an input type.',
    fr: (p) => `La variable ${variable(p)} attend le type ${q(p.type!)}, qui ne peut pas servir de type d’entrée.`,
  },
  TooManyVariableErrors: {
    from: 'graphql-js getVariableValues',
    code: INPUT,
    en: 'Too many errors processing variables, error limit reached. Execution aborted.',
    fr: () => 'Trop d’erreurs dans les variables : leur lecture s’est arrêtée là.',
  },
} as const satisfies Record<string, LibraryEntry>;

/** What was wrong with a value (the `{detail}` of a variable or literal error): graphql-js's coercion and scalars. */
const VALUE_DETAILS = {
  NonNull: {
    from: 'graphql-js coerceInputValue',
    en: 'Expected non-nullable type "{type}" not to be null.',
    fr: (p) => `une valeur non nulle de type ${q(p.type!)} est attendue.`,
  },
  NotAnObject: {
    from: 'graphql-js coerceInputValue',
    en: 'Expected type "{type}" to be an object.',
    fr: (p) => `un objet de type ${q(p.type!)} est attendu.`,
  },
  FieldRequired: {
    from: 'graphql-js coerceInputValue',
    en: 'Field "{field}" of required type "{type}" was not provided.',
    fr: (p) => `le champ obligatoire ${q(p.field!)} (type ${q(p.type!)}) manque.`,
  },
  FieldUnknown: {
    from: 'graphql-js coerceInputValue',
    en: 'Field "{field}" is not defined by type "{type}".',
    fr: (p) => `le champ ${q(p.field!)} n’existe pas dans le type ${q(p.type!)}.`,
  },
  OneOfKeys: {
    from: 'graphql-js coerceInputValue',
    en: 'Exactly one key must be specified for OneOf type "{type}".',
    fr: (p) => `le type ${q(p.type!)} (OneOf) attend exactement une clé.`,
  },
  OneOfNull: {
    from: 'graphql-js coerceInputValue',
    en: 'Field "{field}" must be non-null.',
    fr: (p) => `le champ ${q(p.field!)} ne peut pas être nul.`,
  },
  TypeWithDetail: {
    from: 'graphql-js coerceInputValue',
    en: 'Expected type "{type}". {detail}',
    fr: (p) => `une valeur de type ${q(p.type!)} est attendue : ${p.detail}`,
  },
  Type: {
    from: 'graphql-js coerceInputValue',
    en: 'Expected type "{type}".',
    fr: (p) => `une valeur de type ${q(p.type!)} est attendue.`,
  },
  IntNotInteger: {
    from: 'graphql-js Int',
    en: 'Int cannot represent non-integer value: {value}',
    fr: (p) => `Int ne peut pas représenter la valeur non entière ${value(p.value)}.`,
  },
  IntRange: {
    from: 'graphql-js Int',
    en: 'Int cannot represent non 32-bit signed integer value: {value}',
    fr: (p) => `Int ne représente que des entiers signés sur 32 bits, pas ${value(p.value)}.`,
  },
  FloatNotNumber: {
    from: 'graphql-js Float',
    en: 'Float cannot represent non numeric value: {value}',
    fr: (p) => `Float ne peut pas représenter la valeur non numérique ${value(p.value)}.`,
  },
  StringNotString: {
    from: 'graphql-js String',
    en: 'String cannot represent a non string value: {value}',
    fr: (p) => `String ne peut pas représenter ${value(p.value)}, qui n’est pas une chaîne.`,
  },
  BooleanNotBoolean: {
    from: 'graphql-js Boolean',
    en: 'Boolean cannot represent a non boolean value: {value}',
    fr: (p) => `Boolean ne peut pas représenter ${value(p.value)}, qui n’est pas un booléen.`,
  },
  IdNotId: {
    from: 'graphql-js ID',
    en: 'ID cannot represent value: {value}',
    fr: (p) => `ID ne peut pas représenter la valeur ${value(p.value)}.`,
  },
  EnumUnknownValue: {
    from: 'graphql-js GraphQLEnumType',
    en: 'Value "{value}" does not exist in "{enum}" enum.',
    fr: (p) => `la valeur ${q(p.value!)} n’existe pas dans l’énumération ${q(p.enum!)}.`,
  },
  EnumNotString: {
    from: 'graphql-js GraphQLEnumType',
    en: 'Enum "{enum}" cannot represent non-string value: {value}.',
    fr: (p) => `l’énumération ${q(p.enum!)} ne peut pas représenter ${value(p.value)}.`,
  },
  EnumNotEnum: {
    from: 'graphql-js GraphQLEnumType',
    en: 'Enum "{enum}" cannot represent non-enum value: {value}.',
    fr: (p) => `l’énumération ${q(p.enum!)} ne peut pas représenter ${value(p.value)}.`,
  },
} as const satisfies Record<string, LibraryEntry>;

/** The parser's sentences ("Syntax Error: " + one of these), and graphql-armor's token limit, raised while parsing. */
const PARSE_ERRORS = {
  SyntaxExpected: {
    from: 'graphql-js parser',
    code: PARSE,
    en: 'Syntax Error: Expected {expected}, found {found}.',
    fr: (p) => `Erreur de syntaxe dans le document GraphQL : ${p.expected} attendu, ${found(p.found!)}.`,
  },
  SyntaxUnexpectedCharacter: {
    from: 'graphql-js lexer',
    code: PARSE,
    en: 'Syntax Error: Unexpected character: {character}.',
    fr: (p) => `Erreur de syntaxe dans le document GraphQL : caractère inattendu ${p.character}.`,
  },
  SyntaxUnexpected: {
    from: 'graphql-js parser',
    code: PARSE,
    en: 'Syntax Error: Unexpected {found}.',
    fr: (p) => `Erreur de syntaxe dans le document GraphQL : ${unexpected(p.found!)}.`,
  },
  SyntaxInvalidCharacter: {
    from: 'graphql-js lexer',
    code: PARSE,
    en: 'Syntax Error: Invalid character: {character}.',
    fr: (p) => `Erreur de syntaxe dans le document GraphQL : caractère invalide ${p.character}.`,
  },
  SyntaxCharacterInString: {
    from: 'graphql-js lexer',
    code: PARSE,
    en: 'Syntax Error: Invalid character within String: {character}.',
    fr: (p) => `Erreur de syntaxe dans le document GraphQL : caractère invalide ${p.character} dans une chaîne.`,
  },
  SyntaxSingleQuote: {
    from: 'graphql-js lexer',
    code: PARSE,
    en: 'Syntax Error: Unexpected single quote character (\'), did you mean to use a double quote (")?',
    fr: () => 'Erreur de syntaxe dans le document GraphQL : les chaînes s’écrivent entre guillemets droits doubles ("), pas simples (\').',
  },
  SyntaxUnterminatedString: {
    from: 'graphql-js lexer',
    code: PARSE,
    en: 'Syntax Error: Unterminated string.',
    fr: () => 'Erreur de syntaxe dans le document GraphQL : une chaîne n’est pas refermée.',
  },
  TokenLimit: {
    from: 'graphql-armor maxTokens',
    code: PARSE,
    en: 'Syntax Error: Token limit of {max} exceeded.',
    fr: (p) => `Requête trop longue : au plus ${p.max} jetons.`,
  },
  // Last of the parse errors: any other sentence of the lexer or parser (an invalid number, an escape sequence...).
  Syntax: {
    from: 'graphql-js lexer and parser',
    code: PARSE,
    en: 'Syntax Error: {sentence}',
    fr: () => 'Erreur de syntaxe dans le document GraphQL.',
  },
} as const satisfies Record<string, LibraryEntry>;

/** graphql-armor's limits checked at validation (it writes them after a "Syntax Error: " they are not). */
const ARMOR_ERRORS = {
  DepthLimit: {
    from: 'graphql-armor maxDepth',
    code: VALIDATION,
    en: 'Syntax Error: Query depth limit of {max} exceeded, found {found}.',
    fr: (p) => `Requête trop profonde : ${p.found} niveaux, au plus ${p.max}.`,
  },
  CostLimit: {
    from: 'graphql-armor costLimit',
    code: VALIDATION,
    en: 'Syntax Error: Query Cost limit of {max} exceeded, found {found}.',
    fr: (p) => `Requête trop coûteuse : coût ${p.found}, au plus ${p.max}.`,
  },
  AliasLimit: {
    from: 'graphql-armor maxAliases',
    code: VALIDATION,
    en: 'Syntax Error: Aliases limit of {max} exceeded, found {found}.',
    fr: (p) => `Trop d’alias : ${p.found}, au plus ${p.max}.`,
  },
  DirectiveLimit: {
    from: 'graphql-armor maxDirectives',
    code: VALIDATION,
    en: 'Syntax Error: Directives limit of {max} exceeded, found {found}.',
    fr: (p) => `Trop de directives : ${p.found}, au plus ${p.max}.`,
  },
} as const satisfies Record<string, LibraryEntry>;

/** Which operation of the document to run (graphql-tools' executor, yoga). */
const OPERATION_ERRORS = {
  SeveralOperations: {
    from: 'graphql-tools executor',
    code: OPERATION,
    en: 'Must provide operation name if query contains multiple operations.',
    fr: () => 'Indiquez le nom de l’opération (operationName) : le document en contient plusieurs.',
  },
  UnknownOperation: {
    from: 'graphql-tools executor',
    code: OPERATION,
    en: 'Unknown operation named "{operation}".',
    fr: (p) => `Aucune opération ne s’appelle ${q(p.operation!)} dans ce document.`,
  },
  NoOperation: {
    from: 'graphql-tools executor',
    code: OPERATION,
    en: 'Must provide an operation.',
    fr: () => 'Le document ne contient aucune opération.',
  },
  CannotTell: {
    from: 'yoga usePreventMutationViaGET',
    code: OPERATION,
    en: 'Could not determine what operation to execute.',
    fr: () => topLevelText('OPERATION_RESOLUTION_FAILURE', undefined).fr,
  },
} as const satisfies Record<string, LibraryEntry>;

/** yoga's refusals of a request that is not a GraphQL request it takes. */
const REQUEST_ERRORS = {
  NoQuery: {
    from: 'yoga request validation',
    code: REQUEST,
    en: 'Must provide query string.',
    fr: () => 'La requête doit contenir un document GraphQL (champ « query »).',
  },
  InvalidJson: {
    from: 'yoga POST JSON parser',
    code: REQUEST,
    en: 'POST body sent invalid JSON.',
    fr: () => 'Le corps de la requête POST n’est pas un JSON valide.',
  },
  BodyNotObject: {
    from: 'yoga POST JSON parser',
    code: REQUEST,
    en: 'POST body is expected to be object but received {type}',
    fr: (p) => `Le corps de la requête POST doit être un objet JSON, pas ${q(p.type!)}.`,
  },
  ParamsNotObject: {
    from: 'yoga request validation',
    code: REQUEST,
    en: 'Expected params to be an object but given {type}.',
    fr: (p) => `Les paramètres de la requête doivent former un objet, pas ${q(p.type!)}.`,
  },
  QueryNotString: {
    from: 'yoga request validation',
    code: REQUEST,
    en: 'Expected "query" param to be a string, but given {type}.',
    fr: (p) => `Le paramètre « query » doit être une chaîne, pas ${q(p.type!)}.`,
  },
  VariablesNotObject: {
    from: 'yoga request validation',
    code: REQUEST,
    en: 'Expected "variables" param to be empty or an object, but given {type}.',
    fr: (p) => `Le paramètre « variables » doit être vide ou un objet, pas ${q(p.type!)}.`,
  },
  ExtensionsNotObject: {
    from: 'yoga request validation',
    code: REQUEST,
    en: 'Expected "extensions" param to be empty or an object, but given {type}.',
    fr: (p) => `Le paramètre « extensions » doit être vide ou un objet, pas ${q(p.type!)}.`,
  },
  UnexpectedParam: {
    from: 'yoga request validation',
    code: REQUEST,
    en: 'Unexpected parameter "{param}" in the request body.',
    fr: (p) => `Le paramètre ${q(p.param!)} n’a pas sa place dans le corps de la requête.`,
  },
  InvalidParams: {
    from: 'yoga request validation',
    code: REQUEST,
    en: 'Invalid "params" in the request body',
    fr: () => 'Les paramètres du corps de la requête ne sont pas valides.',
  },
  Batching: {
    from: 'yoga request validation',
    code: REQUEST,
    en: 'Batching is not supported.',
    fr: () => 'Une requête ne peut contenir qu’une opération : le regroupement (batching) n’est pas accepté.',
  },
  Method: {
    from: 'yoga request validation',
    code: REQUEST,
    en: 'GraphQL only supports GET and POST requests.',
    fr: () => 'GraphQL n’accepte que les requêtes GET et POST.',
  },
  MutationViaGet: {
    from: 'yoga usePreventMutationViaGET',
    code: REQUEST,
    en: 'Can only perform a mutation operation from a POST request.',
    fr: () => 'Une mutation ne peut être envoyée que par une requête POST.',
  },
  ContentLength: {
    from: 'yoga request validation',
    code: REQUEST,
    en: 'Content-Length header is invalid.',
    fr: () => 'L’en-tête Content-Length n’est pas valide.',
  },
  Csrf: {
    from: 'yoga useCSRFPrevention',
    code: REQUEST,
    en: 'Required CSRF header(s) not present',
    fr: () => 'Un en-tête requis contre le CSRF manque à cette requête (Authorization ou x-graphql-yoga-csrf, par exemple).',
  },
  UnexpectedError: {
    from: 'yoga error masking',
    code: 'INTERNAL_SERVER_ERROR',
    en: 'Unexpected error.',
    fr: () => topLevelText('INTERNAL_SERVER_ERROR', undefined).fr,
  },
} as const satisfies Record<string, LibraryEntry>;

/** Every entry, in the order sentences are tried (the more specific template of two that may match comes first). */
export const LIBRARY_ERRORS = {
  ...VALIDATION_ERRORS,
  ...VARIABLE_ERRORS,
  ...OPERATION_ERRORS,
  ...REQUEST_ERRORS,
  ...ARMOR_ERRORS,
  ...PARSE_ERRORS,
  // Last: a scalar's refusal of a literal, which graphql-js reports as the scalar wrote it (`Int cannot represent...`).
  LiteralRefused: {
    from: 'ValuesOfCorrectTypeRule',
    code: VALIDATION,
    en: '{detail}',
    fr: (p: Params) => p.detail!.charAt(0).toUpperCase() + p.detail!.slice(1),
  },
} as const;

/** The name of one of the LIBRARY_ERRORS: a library's error the gateway says in its own words. */
export type LibraryErrorKey = keyof typeof LIBRARY_ERRORS;

// A key in two tables would drop an entry from the spread above without a word.
const TABLES = [VALIDATION_ERRORS, VARIABLE_ERRORS, OPERATION_ERRORS, REQUEST_ERRORS, ARMOR_ERRORS, PARSE_ERRORS];
if (TABLES.reduce((n, table) => n + Object.keys(table).length, 1) !== Object.keys(LIBRARY_ERRORS).length) {
  throw new InvariantError('src/errors/library-errors.ts: a key appears in two tables');
}

/** A token the parser met, as it names it (`Name "x"`, `"}"`): the end of the document is said in words. */
function found(token: string): string {
  return token === '<EOF>' ? 'mais le document s’arrête là' : `trouvé ${token}`;
}

function unexpected(token: string): string {
  return token === '<EOF>' ? 'le document s’arrête trop tôt' : `${token} inattendu à cet endroit`;
}

// ---- reading a sentence --------------------------------------------------

type Compiled = CompiledTemplate<LibraryEntry>;
const compile = compileTemplate<LibraryEntry>;

const compileAll = (table: Record<string, LibraryEntry>) => Object.entries(table).map(([key, entry]) => compile(key, entry));
const MESSAGES = compileAll(LIBRARY_ERRORS);
const DETAILS = compileAll(VALUE_DETAILS);
const REASONS = compileAll(CONFLICT_REASONS);

/** graphql-js's suggestions (its didYouMean: ` Did you mean "a", "b", or "c"?`), which follow several sentences. */
const SUGGESTIONS = compile('DidYouMean', { from: 'graphql-js didYouMean', en: '{sentence} Did you mean {names}?', fr: () => '' });
const SUGGESTION_KINDS: ReadonlyArray<[string, string]> = [
  ['the enum value ', 'la valeur '],
  ['to use an inline fragment on ', 'utiliser un fragment sur '],
  ['', ''],
];

function suggestionFr(names: string): string | null {
  const [prefix, fr] = SUGGESTION_KINDS.find(([en]) => names.startsWith(en))!;
  const quoted = [...names.slice(prefix.length).matchAll(/"([^"]*)"/g)].map((m) => q(m[1]!));
  if (quoted.length === 0) return null;
  const list = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} ou ${quoted.at(-1)}` : quoted[0]!;
  return ` Vouliez-vous dire ${fr}${list} ?`;
}

interface LibraryMatch {
  key: string;
  code: TopLevelCode | undefined;
  params: Params;
  fr: string;
}

/** The entry a sentence meets among `table`, with its French; `structuredDetail`: a detail's French known otherwise. */
function read(sentence: string, table: readonly Compiled[], structuredDetail?: string): LibraryMatch | null {
  for (const template of table) {
    const { key, entry } = template;
    const params = readTemplate(sentence, template);
    if (!params) continue;
    if (params.detail !== undefined) {
      const detail = structuredDetail ?? read(params.detail, DETAILS)?.fr;
      if (detail === undefined) continue;
      params.detail = detail;
    }
    if (params.reason !== undefined) {
      const reason = read(params.reason, REASONS)?.fr;
      if (reason === undefined) continue;
      params.reason = reason;
    }
    return { key, code: entry.code, params, fr: entry.fr(params) };
  }
  const suggested = SUGGESTIONS.pattern.exec(sentence);
  if (!suggested) return null;
  const [, rest, names] = suggested;
  const match = read(rest!, table, structuredDetail);
  const suggestion = suggestionFr(names!);
  return match && suggestion !== null ? { ...match, fr: match.fr + suggestion } : null;
}

/**
 * Our own refusal of a value (a scalar of ours, src/schema/scalars.ts), kept by graphql-js behind its sentence: its
 * French, as the clause after the colon (its sentence begins with an article: "Une date..." becomes "une date...").
 */
function ownDetailFr(error: Pick<GraphQLError, 'originalError'>): string | undefined {
  const inner = error.originalError;
  return inner instanceof ScalarValueError ? inner.text.fr.charAt(0).toLowerCase() + inner.text.fr.slice(1) : undefined;
}

/** The catalogue's reading of a library's error: its entry, code and French; null when the sentence is not one we know. */
export function libraryText(error: Pick<GraphQLError, 'message' | 'originalError'>): LibraryMatch | null {
  // A literal our scalar refused, reported as it is: its own two languages.
  if (error instanceof ScalarValueError) return { key: 'LiteralRefused', code: VALIDATION, params: {}, fr: error.text.fr };
  return read(error.message.trim(), MESSAGES, ownDetailFr(error));
}

/** The English and French of entry `key` with `params` (the test renders every entry this way). */
export function renderLibraryEntry(key: string, params: Params): Text {
  const entry = (LIBRARY_ERRORS as Record<string, LibraryEntry>)[key]!;
  return { en: fillTemplate(entry.en, params), fr: entry.fr(params) };
}

/** The French of a value detail or conflict reason (for tests that build a framed sentence). */
export const LIBRARY_DETAILS: Readonly<Record<string, LibraryEntry>> = { ...VALUE_DETAILS, ...CONFLICT_REASONS };

/**
 * The French of any error a client may receive: its own `messageFr`, or the catalogue's French of a library's
 * sentence, or the catalogue's text of its code (codes without variants), or a general sentence that says where it is.
 */
export function frenchOf(error: GraphQLError): string {
  const own = error.extensions?.messageFr;
  if (typeof own === 'string' && own.length > 0) return own;
  const known = libraryText(error);
  if (known) return known.fr;
  const code = error.extensions?.code;
  if (isTopLevelCode(code)) {
    const text = onlyTextOf(code);
    if (text) return text.fr;
  }
  const at = error.locations?.[0];
  return `La requête n’a pas pu être traitée${at ? ` (ligne ${at.line}, colonne ${at.column})` : ''}.`;
}
