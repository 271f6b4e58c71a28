// The catalogue of top-level GraphQL errors: every `extensions.code` the
// gateway raises outside a mutation's typed union, with its English message
// and `extensions.messageFr`. Raise them with `topLevelError(code, params)`,
// never with a hand-written `new GraphQLError(..., { extensions: { code } })`:
// a test walks this table (every code, every variant) and scans src/ for codes
// raised anywhere else. A new code is one entry here, with both languages and
// a sample of each variant.
//
// Typed mutation errors (PaymentError union members) are not here: they live
// in payment-errors.ts and reach clients as data, with `messageFr` as a field.
import { GraphQLError, type ASTNode, type GraphQLErrorOptions, type Source } from 'graphql';
import type { ErrorCode } from './error-codes.js';
import { RESOURCE_KINDS, type ResourceKind } from '../upstream/types.js';
import { TOKEN_PROBLEMS, type TokenProblem } from './token-problems.js';

export type { TokenProblem } from './token-problems.js';

/** A sentence in English and in French. */
export interface Text {
  en: string;
  fr: string;
}

interface Entry<P> {
  /** When the gateway raises it (for the reader of this file and of the README). */
  when: string;
  text: (params: P) => Text;
  /** One value of `params` per variant of the text, so a test can render every one. */
  samples: readonly P[];
  /** Whether the very same request may succeed later (`extensions.retryable`); false when not said. */
  retryable?: boolean;
  /** The HTTP status of an answer made of this error alone (`extensions.http.status`), where one applies. */
  httpStatus?: number;
}

const entry = <P = undefined>(e: Entry<P>): Entry<P> => e;

type BadInput =
  | { kind: 'page_size'; arg: 'first' | 'last'; max: number }
  | { kind: 'first_and_last' }
  | { kind: 'filter_status'; allowed: readonly string[] }
  | { kind: 'filter_dates' }
  | { kind: 'filter_negative'; field: string }
  | { kind: 'filter_amounts' }
  | { kind: 'too_many_ids'; max: number }
  | { kind: 'event_id'; arg: string }
  | { kind: 'event_dates' }
  | { kind: 'event_kinds'; unknown: readonly string[]; known: readonly string[] };

function badInput(p: BadInput): Text {
  switch (p.kind) {
    case 'page_size':
      return { en: `\`${p.arg}\` must be between 1 and ${p.max}.`, fr: `\`${p.arg}\` doit être compris entre 1 et ${p.max}.` };
    case 'first_and_last':
      return { en: 'Pass `first` or `last`, not both.', fr: 'Indiquez `first` ou `last`, pas les deux.' };
    case 'filter_status': {
      const en = `${p.allowed.slice(0, -1).join(', ')} or ${p.allowed.at(-1)}`;
      const fr = `${p.allowed.slice(0, -1).join(', ')} ou ${p.allowed.at(-1)}`;
      return {
        en: `filter.status must be ${en}: the service filters on these ${p.allowed.length} only.`,
        fr: `filter.status doit valoir ${fr} : le service ne filtre que sur ces ${p.allowed.length} statuts.`,
      };
    }
    case 'filter_dates':
      return {
        en: 'filter.dateFrom must not be after filter.dateTo.',
        fr: 'filter.dateFrom ne doit pas être postérieure à filter.dateTo.',
      };
    case 'filter_negative':
      return { en: `filter.${p.field} must not be negative.`, fr: `filter.${p.field} ne doit pas être négatif.` };
    case 'filter_amounts':
      return {
        en: 'filter.amountMin must not exceed filter.amountMax.',
        fr: 'filter.amountMin ne doit pas dépasser filter.amountMax.',
      };
    case 'too_many_ids':
      return { en: `nodes takes at most ${p.max} ids.`, fr: `nodes accepte au plus ${p.max} identifiants.` };
    case 'event_id':
      return {
        en: `\`${p.arg}\` is not an event id this API issued: pass a PaymentEvent.id you received.`,
        fr: `\`${p.arg}\` n’est pas un identifiant d’événement émis par cette API : passez un PaymentEvent.id reçu.`,
      };
    case 'event_dates':
      return { en: 'filter.since must not be after filter.until.', fr: 'filter.since ne doit pas être postérieur à filter.until.' };
    case 'event_kinds': {
      const unknown = p.unknown.map((k) => JSON.stringify(k)).join(', ');
      return {
        en: `Unknown event kind ${unknown}: kinds are ${p.known.join(', ')}.`,
        fr: `Type d’événement inconnu ${unknown} : les types sont ${p.known.join(', ')}.`,
      };
    }
  }
}

/**
 * The catalogue of the errors a whole request may fail with (not a field's typed error): each with its HTTP status, when it happens, its
 * words in English and French, and samples for the docs.
 */
export const TOP_LEVEL_ERRORS = {
  UNAUTHENTICATED: entry<TokenProblem>({
    httpStatus: 401,
    when: 'No token, or a token that is malformed, invalid, expired or of the wrong kind (HTTP 401).',
    text: (problem) => TOKEN_PROBLEMS[problem],
    samples: Object.keys(TOKEN_PROBLEMS) as TokenProblem[],
  }),
  DUPLICATE_AUTHORIZATION: entry({
    httpStatus: 400,
    when: 'A request with two Authorization headers, or one holding several credentials (HTTP 400; over WebSocket, close 4400).',
    text: () => ({
      en: 'Send exactly one Authorization header with one Bearer token.',
      fr: 'Envoyez un seul en-tête Authorization, avec un seul jeton Bearer.',
    }),
    samples: [undefined],
  }),
  FORBIDDEN: entry<{ field: string; scope: string | null; customer?: 'not_allowed' | 'other_payment' }>({
    when: 'The token lacks the scope a root field needs, or a client token asks for another resource or a field customers may not use.',
    // A customer's page holds a client token, which no scope can be added to: it is told what such a
    // token may do, never which staff scope the field needs.
    text: ({ field, scope, customer }) =>
      customer === 'not_allowed'
        ? {
            en: `A customer's payment token cannot use ${field}: it may only read its own payment, submit its OTP and follow its updates.`,
            fr: `Le jeton de paiement d’un client ne permet pas d’utiliser ${field} : il permet seulement de lire son propre paiement, d’en saisir le code OTP et d’en suivre les mises à jour.`,
          }
        : customer === 'other_payment'
          ? {
              en: `A customer's payment token may use ${field} for its own payment only.`,
              fr: `Le jeton de paiement d’un client ne permet d’utiliser ${field} que pour son propre paiement.`,
            }
          : scope
            ? {
                en: `This token may not use ${field}: it needs the ${scope} scope.`,
                fr: `Ce jeton ne permet pas d’utiliser ${field} : il lui faut la permission ${scope}.`,
              }
            : { en: `No one may use ${field}.`, fr: `Personne ne peut utiliser ${field}.` },
    samples: [
      { field: 'createTransfer', scope: 'payouts:write' },
      { field: 'secretField', scope: null },
      { field: 'charges', scope: null, customer: 'not_allowed' },
      { field: 'charge', scope: null, customer: 'other_payment' },
    ],
  }),
  UPSTREAM_UNAUTHENTICATED: entry({
    when: 'The payment service refused the gateway’s API key (the operator’s configuration, not the caller’s).',
    text: () => ({
      en: 'The gateway could not authenticate with the payment service. The operator must check its API key.',
      fr: 'La passerelle n’a pas pu s’authentifier auprès du service de paiement. L’exploitant doit vérifier sa clé d’API.',
    }),
    samples: [undefined],
  }),
  UPSTREAM_UNAVAILABLE: entry({
    retryable: true,
    when: 'A query could not reach the payment service, or got no usable answer (retryable).',
    text: () => ({
      en: 'The payment service is unavailable right now. Try again in a moment.',
      fr: 'Le service de paiement est momentanément indisponible. Réessayez dans un instant.',
    }),
    samples: [undefined],
  }),
  INTERNAL_SERVER_ERROR: entry({
    when: 'Anything unexpected; the detail is only in the server log, under the request id.',
    text: () => ({
      en: 'Unexpected error.',
      fr: 'Erreur inattendue. Si elle se reproduit, communiquez au support l’identifiant de la requête (requestId).',
    }),
    samples: [undefined],
  }),
  INVALID_CURSOR: entry<{ arg: 'after' | 'before'; reason: 'malformed' | 'other_list' }>({
    when: 'A cursor this API did not issue, or one issued for another list or filter.',
    text: ({ arg, reason }) =>
      reason === 'malformed'
        ? { en: `\`${arg}\` is not a cursor this API issued.`, fr: `\`${arg}\` n’est pas un curseur émis par cette API.` }
        : {
            en: `\`${arg}\` was issued for a different list or filter; start again without a cursor when the filter changes.`,
            fr: `\`${arg}\` a été émis pour une autre liste ou un autre filtre ; recommencez sans curseur quand le filtre change.`,
          },
    samples: [
      { arg: 'after', reason: 'malformed' },
      { arg: 'before', reason: 'other_list' },
    ],
  }),
  BAD_USER_INPUT: entry<BadInput>({
    when: 'An argument of a query that its type alone cannot rule out (page sizes, filter bounds).',
    text: badInput,
    samples: [
      { kind: 'page_size', arg: 'first', max: 100 },
      { kind: 'first_and_last' },
      { kind: 'filter_status', allowed: ['PENDING', 'SUCCESS', 'FAILED'] },
      { kind: 'filter_dates' },
      { kind: 'filter_negative', field: 'amountMin' },
      { kind: 'filter_amounts' },
      { kind: 'too_many_ids', max: 100 },
      { kind: 'event_id', arg: 'after' },
      { kind: 'event_dates' },
      { kind: 'event_kinds', unknown: ['charge.sucess'], known: ['charge.success', 'charge.failed'] },
    ],
  }),
  SERVICE_UNAVAILABLE: entry<'shutting_down' | 'temporarily'>({
    retryable: true,
    when: 'The gateway cannot take the request now (shutting down, or a store it needs is down); nothing was done.',
    text: (why) =>
      why === 'shutting_down'
        ? { en: 'The gateway is shutting down: retry.', fr: 'La passerelle est en cours d’arrêt : réessayez.' }
        : {
            en: 'The service is temporarily unavailable; nothing was done. Try again in a moment.',
            fr: 'Le service est momentanément indisponible ; rien n’a été effectué. Réessayez dans un instant.',
          },
    samples: ['shutting_down', 'temporarily'],
  }),
  TOO_MANY_SUBSCRIPTIONS: entry<{ max: number | null; over: 'connection' | 'caller' | 'subject' | 'gateway' }>({
    retryable: true,
    httpStatus: 429,
    when: 'A WebSocket connection already runs WS_MAX_SUBSCRIPTIONS operations, a caller holds too many SSE streams, a token subject holds MAX_SUBSCRIPTIONS_PER_SUBJECT subscriptions, or the replica MAX_SUBSCRIPTIONS.',
    text: ({ max, over }) => {
      if (over === 'connection') {
        return max === null
          ? { en: 'Too many operations are running on this connection.', fr: 'Trop d’opérations en cours sur cette connexion.' }
          : {
              en: `At most ${max} operations may run at once on one connection.`,
              fr: `Au plus ${max} opérations peuvent s’exécuter en même temps sur une même connexion.`,
            };
      }
      if (over === 'subject') {
        return max === null
          ? { en: 'This token holds too many subscriptions.', fr: 'Ce jeton a trop d’abonnements ouverts.' }
          : {
              en: `At most ${max} subscriptions may run at once for one token subject, over all its connections.`,
              fr: `Au plus ${max} abonnements peuvent être ouverts en même temps pour un même titulaire de jeton, toutes connexions confondues.`,
            };
      }
      if (over === 'gateway') {
        return max === null
          ? {
              en: 'The gateway holds too many subscriptions right now: try again later.',
              fr: 'La passerelle a trop d’abonnements ouverts : réessayez plus tard.',
            }
          : {
              en: `The gateway holds its most subscriptions (${max}) right now: try again later.`,
              fr: `La passerelle a atteint son maximum d’abonnements (${max}) : réessayez plus tard.`,
            };
      }
      return max === null
        ? { en: 'Too many subscriptions are running at once.', fr: 'Trop d’abonnements ouverts en même temps.' }
        : { en: `At most ${max} subscriptions may run at once.`, fr: `Au plus ${max} abonnements peuvent être ouverts en même temps.` };
    },
    samples: [
      { max: 50, over: 'connection' },
      { max: null, over: 'connection' },
      { max: 5, over: 'caller' },
      { max: null, over: 'caller' },
      { max: 500, over: 'subject' },
      { max: null, over: 'subject' },
      { max: 20_000, over: 'gateway' },
      { max: null, over: 'gateway' },
    ],
  }),
  TOO_MANY_MONEY_MUTATIONS: entry<{ fields: readonly string[] }>({
    when: 'One operation selects more than one money-moving mutation field (refused at validation: nothing runs).',
    text: ({ fields }) => ({
      en: `At most one money-moving mutation may run per operation; this one has ${fields.length} (${fields.join(', ')}).`,
      fr: `Une opération ne peut contenir qu’une seule mutation qui déplace de l’argent ; celle-ci en contient ${fields.length} (${fields.join(', ')}).`,
    }),
    samples: [{ fields: ['createTransfer', 'createTransfer'] }],
  }),
  PAYLOAD_TOO_LARGE: entry<{ maxBytes: number }>({
    httpStatus: 413,
    when: 'A request body larger than the gateway accepts (HTTP 413).',
    text: ({ maxBytes }) => ({
      en: `Request body larger than ${maxBytes} bytes.`,
      fr: `Le corps de la requête dépasse ${maxBytes} octets.`,
    }),
    samples: [{ maxBytes: 1_048_576 }],
  }),
  RATE_LIMITED: entry<{ retryAfterSeconds: number | null }>({
    retryable: true,
    httpStatus: 429,
    when: 'The caller sent too many requests to the gateway in a short time.',
    text: ({ retryAfterSeconds }) =>
      retryAfterSeconds === null
        ? { en: 'Too many requests: wait a moment before trying again.', fr: 'Trop de requêtes : patientez un instant avant de réessayer.' }
        : {
            en: `Too many requests: wait ${retryAfterSeconds} s before trying again.`,
            fr: `Trop de requêtes : patientez ${retryAfterSeconds} s avant de réessayer.`,
          },
    samples: [{ retryAfterSeconds: null }, { retryAfterSeconds: 3 }],
  }),
  UPSTREAM_BUDGET_EXCEEDED: entry<{ limit: number }>({
    when: 'One operation would need more calls to the payment service than one operation may make.',
    text: ({ limit }) => ({
      en: `This operation would need more than ${limit} calls to the payment service. Ask for fewer items or split it.`,
      fr: `Cette opération nécessiterait plus de ${limit} appels au service de paiement. Demandez moins d’éléments ou scindez-la.`,
    }),
    samples: [{ limit: 50 }],
  }),
  SUBSCRIPTION_INTERRUPTED: entry({
    retryable: true,
    when: 'A subscription whose source failed (the event log unreadable, a resource the gateway could not follow): subscribe again.',
    text: () => ({
      en: 'The subscription was interrupted; subscribe again (paymentEvents: with `after` set to the last id received).',
      fr: 'L’abonnement a été interrompu ; abonnez-vous de nouveau (paymentEvents : avec `after` égal au dernier identifiant reçu).',
    }),
    samples: [undefined],
  }),
  EVENT_CURSOR_EXPIRED: entry({
    when: 'A client resumes an event stream from an id the log no longer holds.',
    text: () => ({
      en: 'Events after this id are no longer kept: reload the state from the `events` query (and the resources you show), then subscribe again with the newest id.',
      fr: "Les événements postérieurs à cet identifiant ne sont plus conservés : rechargez l'état depuis la requête `events`, puis abonnez-vous de nouveau avec l'identifiant le plus récent.",
    }),
    samples: [undefined],
  }),
  MERCHANT_NOT_FOUND: entry({
    httpStatus: 404,
    when: 'Platform mode: a request names a merchant (X-Merchant-Id) that does not exist, or that its token may not act for: both get this same answer.',
    text: () => ({ en: 'No merchant has this id.', fr: 'Aucun marchand ne porte cet identifiant.' }),
    samples: [undefined],
  }),
  NOT_IN_THIS_MODE: entry<{ field: string; reason: 'platform_only' | 'not_yet' | 'name_merchant' }>({
    when: 'A field of the other MERCHANT_MODE: the operator’s fields in single mode, a field platform mode does not serve yet, or a merchant’s field an operator called without naming the merchant.',
    text: ({ field, reason }) =>
      reason === 'platform_only'
        ? {
            en: `${field} exists in platform mode only (MERCHANT_MODE=platform).`,
            fr: `${field} n’existe qu’en mode plateforme (MERCHANT_MODE=platform).`,
          }
        : reason === 'not_yet'
          ? {
              en: `Platform mode does not serve ${field} yet: it is not kept apart per merchant.`,
              fr: `Le mode plateforme ne permet pas encore d’utiliser ${field} : ce champ n’est pas encore séparé par marchand.`,
            }
          : {
              en: `A platform operator acts for a merchant only by naming it: send its id in the X-Merchant-Id header (merchantId in connection_init) to use ${field}.`,
              fr: `Un opérateur de la plateforme n’agit pour un marchand qu’en le nommant : envoyez son identifiant dans l’en-tête X-Merchant-Id (merchantId dans connection_init) pour utiliser ${field}.`,
            },
    samples: [
      { field: 'createMerchant', reason: 'platform_only' },
      { field: 'paymentEvents', reason: 'not_yet' },
      { field: 'charge', reason: 'name_merchant' },
    ],
  }),
  PERSISTED_QUERY_NOT_FOUND: entry({
    httpStatus: 400,
    when: 'A document hash the gateway does not know, where a client may send the text instead (TRUSTED_DOCUMENTS=allow).',
    // The very message automatic-persisted-query clients (Apollo, urql) look for, besides the code.
    text: () => ({
      en: 'PersistedQueryNotFound',
      fr: 'Cette opération enregistrée est inconnue de la passerelle : envoyez le texte de la requête avec son empreinte.',
    }),
    samples: [undefined],
  }),
  NOT_FOUND: entry<{ resource: ResourceKind }>({
    when: 'A subscription to a resource the service does not know (queries answer null instead; mutations return NotFoundError).',
    text: ({ resource }) => ({
      en: `No ${resource} with this reference.`,
      fr: {
        checkout: 'Aucune page de paiement (checkout) ne correspond à cette référence.',
        charge: 'Aucun encaissement ne correspond à cette référence.',
        transfer: 'Aucun transfert ne correspond à cette référence.',
        settlement: 'Aucun règlement ne correspond à cette référence.',
      }[resource],
    }),
    samples: RESOURCE_KINDS.map((resource) => ({ resource })),
  }),
  UNSUPPORTED_MEDIA_TYPE: entry({
    httpStatus: 415,
    when: 'A POST whose body is not declared as JSON (what a browser form could send cross-site).',
    text: () => ({
      en: 'Send operations as application/json.',
      fr: 'Envoyez les opérations au format application/json.',
    }),
    samples: [undefined],
  }),
  PERSISTED_QUERY_NOT_IN_LIST: entry({
    httpStatus: 400,
    when: 'A document hash that is not in the trusted-documents manifest, where only those run.',
    text: () => ({
      en: 'No trusted document has this hash: only the documents of this gateway’s manifest run.',
      fr: 'Aucun document de confiance n’a cette empreinte : seuls les documents du manifeste de cette passerelle s’exécutent.',
    }),
    samples: [undefined],
  }),
  PERSISTED_QUERY_ID_REQUIRED: entry({
    httpStatus: 400,
    when: 'A request with neither a query text nor a document hash.',
    text: () => ({
      en: 'Send a document: the query text, or a trusted document’s hash as extensions.persistedQuery.sha256Hash.',
      fr: 'Envoyez un document : le texte de la requête, ou l’empreinte d’un document de confiance dans extensions.persistedQuery.sha256Hash.',
    }),
    samples: [undefined],
  }),
  TRUSTED_DOCUMENT_REQUIRED: entry({
    httpStatus: 400,
    when: 'A query text where only trusted documents (by hash) run.',
    text: () => ({
      en: 'This gateway runs trusted documents only: send the hash of a document of its manifest as extensions.persistedQuery.sha256Hash.',
      fr: 'Cette passerelle n’exécute que des documents de confiance : envoyez l’empreinte d’un document de son manifeste dans extensions.persistedQuery.sha256Hash.',
    }),
    samples: [undefined],
  }),
  GRAPHQL_PARSE_FAILED: entry({
    when: 'A document that does not parse (graphql-js; each sentence has its entry in library-errors.ts).',
    text: () => ({ en: 'The GraphQL document does not parse.', fr: 'Erreur de syntaxe dans le document GraphQL.' }),
    samples: [undefined],
  }),
  GRAPHQL_VALIDATION_FAILED: entry({
    when: 'A document that does not validate against the schema (graphql-js, graphql-armor; each sentence has its entry in library-errors.ts).',
    text: () => ({
      en: 'The GraphQL document is not valid against the schema.',
      fr: 'Le document GraphQL n’est pas valide au regard du schéma.',
    }),
    samples: [undefined],
  }),
  OPERATION_RESOLUTION_FAILURE: entry({
    httpStatus: 400,
    when: 'A document whose operation to run cannot be told (several without operationName, an unknown name, none at all); graphql-tools and yoga raise it, each sentence with its entry in library-errors.ts.',
    text: () => ({
      en: 'Could not determine what operation to execute.',
      fr: 'Impossible de savoir quelle opération exécuter : indiquez operationName, le nom d’une opération du document.',
    }),
    samples: [undefined],
  }),
  BAD_REQUEST: entry({
    when: 'A request that is not a GraphQL request (yoga: no query, a body that is not JSON, a GET mutation...).',
    text: () => ({ en: 'This is not a valid GraphQL request.', fr: 'Ce n’est pas une requête GraphQL valide.' }),
    samples: [undefined],
  }),
  PERSISTED_QUERY_ONLY: entry({
    httpStatus: 400,
    when: 'A full query text where only persisted (trusted) documents are accepted.',
    text: () => ({
      en: 'Only persisted operations are accepted here: send the document id, not the query text.',
      fr: 'Seules les opérations enregistrées sont acceptées ici : envoyez l’identifiant du document, pas le texte de la requête.',
    }),
    samples: [undefined],
  }),
} as const;

/** The code of one of the TOP_LEVEL_ERRORS. */
export type TopLevelCode = keyof typeof TOP_LEVEL_ERRORS;
type ParamsOf<C extends TopLevelCode> = Parameters<(typeof TOP_LEVEL_ERRORS)[C]['text']>[0];

/**
 * The catalogue seen code by code: for a generic `C extends TopLevelCode`, `CATALOGUE[code]` is an
 * `Entry<ParamsOf<C>>`, so code that reads an entry needs no cast (TypeScript's correlated-union pattern).
 */
const CATALOGUE: { [C in TopLevelCode]: Entry<ParamsOf<C>> } = TOP_LEVEL_ERRORS;

/** What a top-level error carries beside its code and words: extensions, the error behind it, its path and nodes. */
export interface TopLevelOptions {
  /** Extra extensions (requiredScope, requestId, http headers...), over the catalogue's own. */
  extensions?: Record<string, unknown>;
  /** A GraphQLError behind this one (yoga masks an error whose origin is anything else). */
  originalError?: GraphQLError;
  path?: ReadonlyArray<string | number>;
  nodes?: ReadonlyArray<ASTNode> | ASTNode | null;
  source?: Source;
  positions?: readonly number[];
}

/** The words of a top-level error, in English and French, for its code and parameters. */
export function topLevelText<C extends TopLevelCode>(code: C, params: ParamsOf<C>): Text {
  return CATALOGUE[code].text(params);
}

/** The text of a code that has one variant only (a library's code, which comes without our params); null otherwise. */
export function onlyTextOf(code: TopLevelCode): Text | null {
  const entry: Entry<unknown> = CATALOGUE[code] as Entry<unknown>;
  return entry.samples.length === 1 ? entry.text(entry.samples[0]) : null;
}

/** What every error of `code` carries in `extensions`: the code, the French, `retryable`, and its HTTP status if any. */
function catalogueExtensions<C extends TopLevelCode>(code: C, fr: string): Record<string, unknown> {
  const { retryable = false, httpStatus } = CATALOGUE[code];
  return { code, messageFr: fr, retryable, ...(httpStatus === undefined ? {} : { http: { status: httpStatus } }) };
}

/** The caller's extensions over the catalogue's; an `http` of the caller's (headers) keeps the catalogue's status. */
function withCatalogue(own: Record<string, unknown>, added: Record<string, unknown> = {}): Record<string, unknown> {
  const merged = { ...own, ...added };
  if (own.http && added.http) merged.http = { ...(own.http as object), ...(added.http as object) };
  return merged;
}

/**
 * The GraphQL error of `code`, in English, with `extensions.code`, `extensions.messageFr` and `retryable`: the only
 * way the gateway builds a top-level error (eslint forbids `new GraphQLError` outside src/errors/).
 */
export function topLevelError<C extends TopLevelCode>(code: C, params: ParamsOf<C>, options: TopLevelOptions = {}): GraphQLError {
  return new GraphQLError(...topLevelErrorArgs(code, params, options));
}

/** The arguments of GraphQLError's constructor for `code` (for an error class that extends GraphQLError). */
export function topLevelErrorArgs<C extends TopLevelCode>(
  code: C,
  params: ParamsOf<C>,
  options: TopLevelOptions = {},
): [string, GraphQLErrorOptions] {
  const { en, fr } = topLevelText(code, params);
  return [
    en,
    {
      path: options.path,
      nodes: options.nodes,
      source: options.source,
      positions: options.positions,
      originalError: options.originalError,
      extensions: withCatalogue(catalogueExtensions(code, fr), options.extensions),
    },
  ];
}

/** The same error as a plain `errors` entry, for answers written outside GraphQL execution (a raw HTTP 503, 413, 415). */
export function topLevelErrorBody<C extends TopLevelCode>(
  code: C,
  params: ParamsOf<C>,
): { message: string; extensions: Record<string, unknown> } {
  const { en, fr } = topLevelText(code, params);
  const { http: _status, ...extensions } = catalogueExtensions(code, fr);
  return { message: en, extensions };
}

/**
 * An error a library made (graphql-js, yoga, graphql-armor), kept with its own English, under `code` and with its
 * French (src/errors/library-errors.ts): the one place such an error is rebuilt.
 */
export function withCodeAndFrench(error: GraphQLError, code: string, fr: string): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    // Only a GraphQLError may stay behind it: yoga masks an error whose origin is anything else.
    originalError: error.originalError instanceof GraphQLError ? error.originalError : undefined,
    extensions: { ...error.extensions, code, messageFr: fr },
  });
}

/** A failed call to the payment service inside a query, under the service's own code (see upstreamFailureText). */
export function upstreamFailureError(
  code: ErrorCode,
  retryable: boolean,
  options: Pick<TopLevelOptions, 'path' | 'nodes' | 'source' | 'positions'> & { requestId: string },
): GraphQLError {
  const text = upstreamFailureText(code, retryable);
  return new GraphQLError(text.en, {
    ...options,
    extensions: { code, messageFr: text.fr, retryable, requestId: options.requestId },
  });
}

/** A typed error raised where a field's union has no place for it: the same code, texts and `retryable`, at top level. */
export function typedErrorAtTopLevel(
  error: { message: string; messageFr: string; code: ErrorCode; retryable: boolean },
  options: TopLevelOptions = {},
): GraphQLError {
  return new GraphQLError(error.message, {
    path: options.path,
    nodes: options.nodes,
    source: options.source,
    positions: options.positions,
    extensions: { code: error.code, messageFr: error.messageFr, retryable: error.retryable, ...options.extensions },
  });
}

/**
 * A failed call to the payment service inside a query, reported under the
 * service's own code (UPSTREAM_UNAVAILABLE, RATE_LIMIT_EXCEEDED, INVALID_DATA...).
 * Any ErrorCode can appear here, so the texts depend on what the client can do.
 */
export function upstreamFailureText(code: ErrorCode, retryable: boolean): Text {
  if (code === 'RATE_LIMIT_EXCEEDED') {
    return {
      en: 'The payment service is receiving too many requests. Try again in a moment.',
      fr: 'Le service de paiement reçoit trop de requêtes. Réessayez dans un instant.',
    };
  }
  if (retryable) return topLevelText('UPSTREAM_UNAVAILABLE', undefined);
  if (code === 'INVALID_DATA' || code === 'VALIDATION_FAILED') {
    return {
      en: 'The payment service refused the values of this request.',
      fr: 'Le service de paiement a refusé les valeurs de cette demande.',
    };
  }
  return {
    en: 'The payment service could not complete this request.',
    fr: 'Le service de paiement n’a pas pu traiter cette demande.',
  };
}

/**
 * A scalar's refusal of a value (DateTime, Date), in both languages. graphql-js reports it as it is for a literal,
 * and for a variable puts its English inside its own sentence ("Variable "$x" got invalid value ...; <en>"), keeping
 * it as `originalError`: src/errors/library-errors.ts takes the French from `text` in either case. The French is not
 * in `extensions`, which graphql-js would copy onto its own sentence's error.
 */
export class ScalarValueError extends GraphQLError {
  constructor(readonly text: Text) {
    super(text.en);
  }
}

/** The error a custom scalar throws on a value it refuses, with the catalogue's code and both languages. */
export function scalarValueError(text: Text): GraphQLError {
  return new ScalarValueError(text);
}

/** A failure of a subscription's source, as graphql-js reports one: an error of the operation, masked unless coded. */
export function sourceError(error: unknown, nodes: ASTNode | undefined): GraphQLError {
  return new GraphQLError((error as Error)?.message ?? String(error), { originalError: error as Error, nodes });
}

/** Whether a code is one of the TOP_LEVEL_ERRORS. */
export function isTopLevelCode(code: unknown): code is TopLevelCode {
  return typeof code === 'string' && Object.hasOwn(TOP_LEVEL_ERRORS, code);
}
