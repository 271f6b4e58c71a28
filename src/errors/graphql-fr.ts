// French for the errors the gateway does not write itself: graphql-js's
// validation and variable errors, yoga's request errors, graphql-armor's
// limits. Their English is fixed by those libraries, so each known sentence is
// matched and rewritten; what cannot be translated faithfully is left out of
// the French (never copied in English), and a sentence we do not know gets a
// general French sentence with its position in the document.
import type { GraphQLError } from 'graphql';
import { isTopLevelCode, onlyTextOf, topLevelText } from './top-level.js';

type Rule = [RegExp, (...groups: string[]) => string];

const q = (name: string) => `« ${name} »`;

/** graphql-js's " Did you mean "a", "b", or "c"?" suffix. */
const DID_YOU_MEAN = / Did you mean (the enum value |the field |)?("[^"]*"(?:, "[^"]*")*(?:,? or "[^"]*")?)\?$/;

function suggestions(english: string): { rest: string; fr: string } {
  const m = DID_YOU_MEAN.exec(english);
  if (!m) return { rest: english, fr: '' };
  const names = [...m[2]!.matchAll(/"([^"]*)"/g)].map((x) => q(x[1]!));
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} ou ${names.at(-1)}` : names[0]!;
  const what = m[1] === 'the enum value ' ? 'la valeur ' : m[1] === 'the field ' ? 'le champ ' : '';
  return { rest: english.slice(0, m.index), fr: ` Vouliez-vous dire ${what}${list} ?` };
}

/** Details inside a variable or literal error: what was wrong with the value. */
const DETAIL_RULES: Rule[] = [
  [/^Expected non-nullable type "(.+)" not to be null\.$/, (t) => `une valeur non nulle de type ${q(t)} est attendue.`],
  [/^Expected type "(.+)" to be an object\.$/, (t) => `un objet de type ${q(t)} est attendu.`],
  [/^Field "(.+)" of required type "(.+)" was not provided\.$/, (f, t) => `le champ obligatoire ${q(f)} (type ${q(t)}) manque.`],
  [/^Field "(.+)" is not defined by type "(.+)"\.$/, (f, t) => `le champ ${q(f)} n’existe pas dans le type ${q(t)}.`],
  [/^Expected type "(.+?)"\.(?: .*)?$/, (t) => `une valeur de type ${q(t)} est attendue.`],
  [/^Int cannot represent non-integer value: (.*)$/, (v) => `Int ne peut pas représenter la valeur non entière ${v}.`],
  [
    /^Int cannot represent non 32-bit signed integer value: (.*)$/,
    (v) => `Int ne représente que des entiers signés sur 32 bits, pas ${v}.`,
  ],
  [/^Float cannot represent non numeric value: (.*)$/, (v) => `Float ne peut pas représenter la valeur non numérique ${v}.`],
  [/^String cannot represent a non string value: (.*)$/, (v) => `String ne peut pas représenter ${v}, qui n’est pas une chaîne.`],
  [/^Boolean cannot represent a non boolean value: (.*)$/, (v) => `Boolean ne peut pas représenter ${v}, qui n’est pas un booléen.`],
  [/^ID cannot represent value: (.*)$/, (v) => `ID ne peut pas représenter la valeur ${v}.`],
  [/^Value "(.*)" does not exist in "(.+)" enum\.$/, (v, e) => `la valeur ${q(v)} n’existe pas dans l’énumération ${q(e)}.`],
  [/^Enum "(.+)" cannot represent non-enum value: (.*)\.$/, (e, v) => `l’énumération ${q(e)} ne peut pas représenter ${v}.`],
  [/^Enum "(.+)" cannot represent non-string value: (.*)\.$/, (e, v) => `l’énumération ${q(e)} ne peut pas représenter ${v}.`],
  [/^Date must be a calendar day written YYYY-MM-DD, e\.g\. (.*)$/, (d) => `une date s’écrit AAAA-MM-JJ, par exemple ${d}.`],
  [
    /^DateTime must be an ISO 8601 timestamp with a time zone, e\.g\. (.*)$/,
    (d) => `un horodatage ISO 8601 avec fuseau horaire est attendu, par exemple ${d}.`,
  ],
];

const RULES: Rule[] = [
  // Variables (graphql-js, execution/values.js)
  [
    /^Variable "\$(\w+)" got invalid value (.*?)(?: at "([^"]+)")?; ([\s\S]*)$/,
    (v, _value, path, detail) => {
      const where = path ? ` (au chemin ${q(path)})` : '';
      const why = detail === undefined ? null : frenchDetail(detail);
      return `La variable ${q(`$${v}`)} a reçu une valeur invalide${where}${why ? ` : ${why}` : '.'}`;
    },
  ],
  [
    /^Variable "\$(\w+)" of required type "(.+)" was not provided\.$/,
    (v, t) => `La variable obligatoire ${q(`$${v}`)} (type ${q(t)}) n’a pas été fournie.`,
  ],
  [
    /^Variable "\$(\w+)" of non-null type "(.+)" must not be null\.$/,
    (v, t) => `La variable ${q(`$${v}`)} (type ${q(t)}) ne peut pas être nulle.`,
  ],
  [
    /^Variable "\$(\w+)" expected value of type "(.+)" which cannot be used as an input type\.$/,
    (v, t) => `La variable ${q(`$${v}`)} attend le type ${q(t)}, qui ne peut pas servir de type d’entrée.`,
  ],
  // Validation (graphql-js, validation/rules)
  [
    /^Variable "\$(\w+)" is not defined by operation "(.+)"\.$/,
    (v, o) => `La variable ${q(`$${v}`)} n’est pas déclarée par l’opération ${q(o)}.`,
  ],
  [/^Variable "\$(\w+)" is not defined\.$/, (v) => `La variable ${q(`$${v}`)} n’est pas déclarée.`],
  [
    /^Variable "\$(\w+)" is never used in operation "(.+)"\.$/,
    (v, o) => `La variable ${q(`$${v}`)} n’est jamais utilisée dans l’opération ${q(o)}.`,
  ],
  [/^Variable "\$(\w+)" is never used\.$/, (v) => `La variable ${q(`$${v}`)} n’est jamais utilisée.`],
  [
    /^Variable "\$(\w+)" of type "(.+)" used in position expecting type "(.+)"\.$/,
    (v, t, e) => `La variable ${q(`$${v}`)} de type ${q(t)} est utilisée là où le type ${q(e)} est attendu.`,
  ],
  [
    /^Variable "\$(\w+)" cannot be non-input type "(.+)"\.$/,
    (v, t) => `La variable ${q(`$${v}`)} ne peut pas être du type ${q(t)}, qui n’est pas un type d’entrée.`,
  ],
  [/^There can be only one variable named "\$(\w+)"\.$/, (v) => `Une seule variable peut s’appeler ${q(`$${v}`)}.`],
  [/^Cannot query field "(.+)" on type "(.+)"\.$/, (f, t) => `Le champ ${q(f)} n’existe pas sur le type ${q(t)}.`],
  [/^Unknown argument "(.+)" on field "(.+)"\.$/, (a, f) => `L’argument ${q(a)} n’existe pas sur le champ ${q(f)}.`],
  [
    /^Field "(.+)" argument "(.+)" of type "(.+)" is required, but it was not provided\.$/,
    (f, a, t) => `L’argument ${q(a)} (type ${q(t)}) du champ ${q(f)} est obligatoire mais n’a pas été fourni.`,
  ],
  [
    /^Field "(.+)" must not have a selection since type "(.+)" has no subfields\.$/,
    (f, t) => `Le champ ${q(f)} ne peut pas avoir de sous-sélection : le type ${q(t)} n’a pas de sous-champs.`,
  ],
  [
    /^Field "(.+)" of type "(.+)" must have a selection of subfields\.$/,
    (f, t) => `Le champ ${q(f)} (type ${q(t)}) doit sélectionner des sous-champs.`,
  ],
  [
    /^Field "(.+)" of required type "(.+)" was not provided\.$/,
    (f, t) => `Le champ obligatoire ${q(f)} (type ${q(t)}) n’a pas été fourni.`,
  ],
  [/^Field "(.+)" is not defined by type "(.+)"\.$/, (f, t) => `Le champ ${q(f)} n’existe pas dans le type ${q(t)}.`],
  [
    /^Expected value of type "(.+?)", found ([\s\S]*?)(?:\.|; ([\s\S]*))$/,
    (t, found, detail) => {
      const why = detail === undefined ? null : frenchDetail(detail);
      return `Valeur de type ${q(t)} attendue, reçu ${found}${why ? ` : ${why}` : '.'}`;
    },
  ],
  [/^Unknown type "(.+)"\.$/, (t) => `Le type ${q(t)} n’existe pas.`],
  [/^Unknown fragment "(.+)"\.$/, (f) => `Le fragment ${q(f)} n’existe pas.`],
  [/^Fragment "(.+)" is never used\.$/, (f) => `Le fragment ${q(f)} n’est jamais utilisé.`],
  [/^Unknown directive "(.+)"\.$/, (d) => `La directive ${q(d)} n’existe pas.`],
  [/^There can be only one argument named "(.+)"\.$/, (a) => `Un seul argument peut s’appeler ${q(a)}.`],
  [/^There can be only one operation named "(.+)"\.$/, (o) => `Une seule opération peut s’appeler ${q(o)}.`],
  [
    /^This anonymous operation must be the only defined operation\.$/,
    () => 'Une opération anonyme doit être la seule opération du document.',
  ],
  [
    /^Fields "(.+?)" conflict because [\s\S]*$/,
    (f) => `Les sélections ${q(f)} sont en conflit : même nom de réponse pour des champs ou arguments différents.`,
  ],
  [/^Unknown operation named "(.+)"\.$/, (o) => `Aucune opération ne s’appelle ${q(o)} dans ce document.`],
  [
    /^Must provide operation name if query contains multiple operations\.$/,
    () => 'Indiquez le nom de l’opération : le document en contient plusieurs.',
  ],
  [/^Must provide an operation\.$/, () => 'Le document ne contient aucune opération.'],
  [/^Could not determine what operation to execute\.$/, () => topLevelText('OPERATION_RESOLUTION_FAILURE', undefined).fr],
  [
    /^Anonymous Subscription must select only one top level field\.$/,
    () => 'Un abonnement anonyme ne doit sélectionner qu’un seul champ racine.',
  ],
  [
    /^Subscription "(.+)" must select only one top level field\.$/,
    (s) => `L’abonnement ${q(s)} ne doit sélectionner qu’un seul champ racine.`,
  ],
  // graphql-armor's limits (some carry graphql-js's "Syntax Error: " prefix)
  [
    /^(?:Syntax Error: )?Query depth limit of (\d+) exceeded, found (\d+)\.$/,
    (m, f) => `Requête trop profonde : ${f} niveaux, au plus ${m}.`,
  ],
  [/^(?:Syntax Error: )?Token limit of (\d+) exceeded(?:, found (\d+))?\.$/, (m) => `Requête trop longue : au plus ${m} jetons.`],
  [/^(?:Syntax Error: )?Query Cost limit of (\d+) exceeded, found (\d+)\.$/, (m, f) => `Requête trop coûteuse : coût ${f}, au plus ${m}.`],
  [/^(?:Syntax Error: )?Aliases limit of (\d+) exceeded, found (\d+)\.$/, (m, f) => `Trop d’alias : ${f}, au plus ${m}.`],
  [/^(?:Syntax Error: )?Directives limit of (\d+) exceeded, found (\d+)\.$/, (m, f) => `Trop de directives : ${f}, au plus ${m}.`],
  [/^Syntax Error: /, () => 'Erreur de syntaxe dans le document GraphQL.'],
  // yoga's request errors
  [/^Must provide query string\.$/, () => 'La requête doit contenir un document GraphQL (champ « query »).'],
  [/^POST body sent invalid JSON\.$/, () => 'Le corps de la requête POST n’est pas un JSON valide.'],
  [/^Can only perform a mutation operation from a POST request\.$/, () => 'Une mutation ne peut être envoyée que par une requête POST.'],
  [/^Required CSRF header\(s\) not present$/, () => 'Un en-tête requis contre le CSRF est absent de la requête.'],
  [/^Unexpected error\.$/, () => topLevelText('INTERNAL_SERVER_ERROR', undefined).fr],
];

function apply(rules: Rule[], english: string): string | null {
  const { rest, fr: suggestion } = suggestions(english.trim());
  for (const [pattern, render] of rules) {
    const m = pattern.exec(rest);
    if (m) return render(...m.slice(1)) + suggestion;
  }
  return null;
}

function frenchDetail(detail: string): string | null {
  return apply(DETAIL_RULES, detail);
}

/** The French of a library's English error message; null when the sentence is not one we know. */
export function translateGraphQLMessage(english: string): string | null {
  // A scalar's own error about a literal (`Int cannot represent...`) is reported as it is, without a frame.
  const detail = apply(DETAIL_RULES, english);
  return apply(RULES, english) ?? (detail && detail.charAt(0).toUpperCase() + detail.slice(1));
}

/**
 * The French of any error a client may receive: its own `messageFr`, or our
 * translation of a library's sentence, or the catalogue's text of its code
 * (codes without variants), or a general sentence that says where it is.
 */
export function frenchOf(error: GraphQLError): string {
  const own = error.extensions?.messageFr;
  if (typeof own === 'string' && own.length > 0) return own;
  const translated = translateGraphQLMessage(error.message);
  if (translated) return translated;
  const code = error.extensions?.code;
  if (isTopLevelCode(code)) {
    const text = onlyTextOf(code);
    if (text) return text.fr;
  }
  const at = error.locations?.[0];
  return `La requête n’a pas pu être traitée${at ? ` (ligne ${at.line}, colonne ${at.column})` : ''}.`;
}
