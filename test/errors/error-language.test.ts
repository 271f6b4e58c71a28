// Every error a person may read, in both languages: each PaymentError type of
// the schema in each of its variants (the wallets, the reasons, the resources,
// every code an upstream failure can carry, the field messages of the
// gateway's checks and of the service), every code and variant of the
// top-level catalogue, graphql-js's own validation and variable errors, and
// every `extensions: { code }` raised anywhere in src/ (it must be a catalogue
// code, so the masking layer can give its French). Each pair must be present,
// different, French in the French, and free of operator tokens ("opb_bf").
// test/schema/error-language.test.ts checks the same French arrives over HTTP
// and WebSocket.
import { MerchantNotFoundError, MerchantOffboardedError, MerchantSuspendedError } from '../../src/errors/merchant-errors.js';
import {
  InvalidWebhookUrlError,
  URL_PROBLEM_TEXTS,
  WebhookDeliveryNotFoundError,
  WebhookEndpointLimitError,
  WebhookEndpointNotFoundError,
  WebhooksUnavailableError,
  type UrlProblemCode,
} from '../../src/errors/webhook-endpoint-errors.js';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GraphQLError, graphql, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { frenchOf, libraryText } from '../../src/errors/library-errors.js';
import { rateLimitedError } from '../../src/limits/rate-limit-plugin.js';
import { UpstreamBudgetExceededError } from '../../src/limits/upstream-budget.js';
import { NOT_SENT_BULK_ITEM, serviceFieldMessage } from '../../src/errors/field-messages.js';
import { OPERATOR_NAMES, phoneRuleText } from '../../src/errors/operators.js';
import {
  BatchSizeLimitExceededError,
  IdempotencyConflictError,
  InsufficientFundsError,
  InvalidAccountError,
  NotFoundError,
  OtpExpiredError,
  OtpInvalidError,
  OtpStillValidError,
  PaymentAccountMissingError,
  PaymentError,
  RateLimitedError,
  ServiceUnavailableError,
  SettlementNotCancellableError,
  UnauthorizedChargeProviderError,
  UnsupportedProviderError,
  UpstreamError,
  ValidationError,
  fieldMessageFr,
  toPaymentError,
} from '../../src/errors/payment-errors.js';
import {
  PayoutBatchFullError,
  PayoutBatchNotFoundError,
  PayoutBatchShortfallError,
  PayoutBatchStateError,
  SelfApprovalError,
  TransferFailedError,
} from '../../src/errors/payout-batch-errors.js';
import { TOP_LEVEL_ERRORS, isTopLevelCode, topLevelError, topLevelText, upstreamFailureText } from '../../src/errors/top-level.js';
import { schema } from '../../src/schema/index.js';
import { Checks } from '../../src/schema/validation.js';
import { ERROR_CODES, isRetryableCode } from '../../src/errors/error-codes.js';
import { CLIENT_DERIVED_CODES, UPSTREAM_ERROR_CODES, UpstreamCallError } from '../../src/upstream/call-error.js';
import { PROVIDERS, RESOURCE_KINDS, WALLETS } from '../../src/upstream/types.js';

/** Words that make a sentence French (at least one must appear). */
const FRENCH =
  /\b(le|la|les|l’|un|une|des|du|de|d’|ce|cet|cette|est|sont|pas|pour|avec|sur|dans|au|aux|ou|et|ne|n’|aucun|aucune|réessayez|trop|saisie|doit)\b|[éèêàçù]/i;
/** English words that must not be left in a French sentence. */
const ENGLISH = /\b(the|must|should|please|try|again|wallet|funds|request|cannot|could|not a|only|with|this|is|are|was|were|and|of|be)\b/i;
/** The service's operator tokens: never in a human message (the API's enum values, OPB_BF, may appear in a developer's error). */
const TOKEN = /\bop[a-f]_(bf|bj)\b/;

interface Pair {
  where: string;
  en: string;
  fr: string;
}

function expectBothLanguages({ where, en, fr }: Pair): void {
  const label = `${where}\n  en: ${en}\n  fr: ${fr}`;
  expect(en.trim().length, label).toBeGreaterThan(0);
  expect(fr.trim().length, label).toBeGreaterThan(0);
  expect(fr, label).not.toBe(en);
  expect(fr, label).toMatch(FRENCH);
  expect(fr, label).not.toMatch(ENGLISH);
  expect(en, label).not.toMatch(TOKEN);
  expect(fr, label).not.toMatch(TOKEN);
}

// ---- the typed errors ------------------------------------------------------

/** Every field problem the gateway's own checks can report, through the same Checks the mutations use. */
function everyCheckProblem(): ValidationError[] {
  const checks = new Checks();
  const at = (name: string) => checks.at(name);
  checks.amount(at('amount'), 0);
  checks.amount(at('amount'), 50, 100);
  for (const provider of PROVIDERS) checks.phoneFor(at('phone'), provider, '1');
  for (const wallet of WALLETS) checks.recipient(at('recipientPhone'), '1', wallet);
  checks.recipient(at('recipientPhone'), '1', null);
  checks.url(at('successUrl'), 'nope');
  checks.email(at('email'), 'nope');
  checks.nonEmpty(at('otp'), ' ', { en: 'The OTP', fr: 'Le code OTP' });
  checks.maxLength(at('extId'), 'x'.repeat(101), 100);
  return checks.problems.map((p) => new ValidationError([p]));
}

/** The service's field messages (as the sandbox writes them, in Django REST framework's style), one ValidationError each. */
const SERVICE_FIELD_MESSAGES = [
  'This field is required.',
  'This field may not be blank.',
  'This list may not be empty.',
  'A valid integer is required.',
  'Not a valid string.',
  'Enter a valid URL.',
  'Enter a valid email address.',
  'Enter a valid date in the format YYYY-MM-DD.',
  'Enter a valid Burkina Faso or Benin mobile number.',
  'Enter a valid opa_bf number: 8 digits starting with 04, 05, 06.',
  'Ensure this value is greater than or equal to 100.',
  'Ensure this value is less than or equal to 1000000.',
  'Select a valid choice. opz is not one of the available choices.',
  'A transfer with this ext_id already exists.',
  'This number cannot receive a transfer from the opb_bf wallet.',
  'Invalid data. Expected a dictionary, but got list.',
  'Expected a list of items but got type "string".',
  'Must be 1 to 255 characters.',
  'This field may not be null.',
  'A valid number is required.',
  'Ensure this field has no more than 64 characters',
  'The payment service rejected the input.',
  'The payment service rejected this item.',
  NOT_SENT_BULK_ITEM.en,
  'Something the service says that we have never seen.',
];

function everyPaymentError(): PaymentError[] {
  // A refused API key is the operator's, not a union member (a top-level UPSTREAM_UNAUTHENTICATED).
  const fromUpstream = [...UPSTREAM_ERROR_CODES, ...CLIENT_DERIVED_CODES]
    .filter((code) => code !== 'UNAUTHENTICATED')
    .flatMap((code) => [
      toPaymentError(new UpstreamCallError({ code, message: `Injected ${code} about opb_bf` }), [UpstreamError]),
      toPaymentError(new UpstreamCallError({ code, message: 'x', outcomeUnknown: true }), [UpstreamError]),
    ])
    .filter((e) => e instanceof PaymentError);
  return [
    ...everyCheckProblem(),
    ...SERVICE_FIELD_MESSAGES.map(
      (message) =>
        toPaymentError(new UpstreamCallError({ code: 'INVALID_DATA', message: 'x', fieldErrors: [{ path: ['f'], message }] }), [
          ValidationError,
        ]) as ValidationError,
    ),
    new ValidationError([
      { path: ['a'], message: 'Amount is missing.', messageFr: 'Le montant manque.' },
      { path: ['b'], message: 'Phone is missing.', messageFr: 'Le numéro manque.' },
    ]),
    new MerchantNotFoundError('mer_00000000000000000000'),
    new MerchantOffboardedError(),
    new MerchantSuspendedError(),
    new OtpInvalidError(),
    new OtpExpiredError(),
    new OtpStillValidError(),
    ...[...WALLETS, null].map((w) => new InsufficientFundsError(w)),
    new InvalidAccountError(),
    new UnsupportedProviderError(),
    new UnauthorizedChargeProviderError(),
    new BatchSizeLimitExceededError(100, 101),
    new BatchSizeLimitExceededError(100, null),
    new RateLimitedError(1000),
    ...RESOURCE_KINDS.map((r) => new NotFoundError(r, 'ref')),
    new SettlementNotCancellableError('success'),
    new PaymentAccountMissingError(),
    ...(['different_input', 'in_progress', 'outcome_unknown'] as const).map((r) => new IdempotencyConflictError(r)),
    new ServiceUnavailableError(),
    new PayoutBatchNotFoundError('pb_x'),
    new WebhookEndpointNotFoundError('we_x'),
    new WebhookDeliveryNotFoundError('we_x.evt_x'),
    new WebhookEndpointLimitError(20),
    ...(Object.keys(URL_PROBLEM_TEXTS) as UrlProblemCode[]).map((problem) => new InvalidWebhookUrlError(problem)),
    new WebhooksUnavailableError(),
    ...(['not_draft', 'empty', 'final', 'not_awaiting_approval', 'page_incomplete'] as const).flatMap((reason) =>
      ['DRAFT', 'RUNNING', 'COMPLETED_WITH_FAILURES', 'CANCELLED'].map((status) => new PayoutBatchStateError(status, reason)),
    ),
    new PayoutBatchFullError(10_000, 10_500),
    new PayoutBatchShortfallError(WALLETS.map((wallet) => ({ wallet, required: 10_100, available: 5_000, shortfall: 5_100 }))),
    new SelfApprovalError(),
    new TransferFailedError(),
    ...fromUpstream,
    // The service's own words for a code we do not know.
    toPaymentError(new UpstreamCallError({ code: 'UNKNOWN_ERROR', message: 'Weird thing in opa_bf', upstreamCode: 'WEIRD' }), [
      UpstreamError,
    ]),
  ];
}

describe('typed errors (union members)', () => {
  const errors = everyPaymentError();

  it('cover every type implementing PaymentError in the schema', () => {
    const implementations = schema.getPossibleTypes(schema.getType('PaymentError') as never).map((t) => t.name);
    expect(new Set(errors.map((e) => e.constructor.name))).toEqual(new Set(implementations));
  });

  it('each says it in English and, differently, in French, naming operators, never their tokens', () => {
    for (const e of errors) expectBothLanguages({ where: `${e.constructor.name} ${e.code}`, en: e.message, fr: e.messageFr });
  });

  it('each field error says it in both languages', () => {
    const problems = errors.flatMap((e) => (e instanceof ValidationError ? e.fieldErrors : []));
    expect(problems.length).toBeGreaterThan(SERVICE_FIELD_MESSAGES.length + PROVIDERS.length + WALLETS.length);
    for (const p of problems) expectBothLanguages({ where: `FieldError ${p.path.join('.')}`, en: p.message, fr: fieldMessageFr(p) });
  });

  it('a single field problem is the French of that field, as specific as the English', () => {
    const [opb] = everyCheckProblem().filter((e) => e.fieldErrors[0]!.message.includes(OPERATOR_NAMES.opb_bf.en));
    expect(opb!.message).toBe(`Invalid input: Not a valid OPB Money Burkina Faso number: "1"; expected ${phoneRuleText('opb_bf').en}.`);
    expect(opb!.messageFr).toBe(
      'Les informations saisies ne sont pas valides : numéro OPB Money Burkina Faso invalide : "1" ; format attendu : 8 chiffres commençant par 70, 71, 72, 73, 60, 61, 62, 63, 50, 51, 52, 53, 01, 02, 03.',
    );
  });

  it('the service’s known field sentences get their own French, not the catch-all', () => {
    const known = SERVICE_FIELD_MESSAGES.slice(0, -1);
    for (const message of known) expect(serviceFieldMessage(message).fr, message).not.toBe('Le service de paiement a refusé cette valeur.');
    expect(serviceFieldMessage('This number cannot receive a transfer from the opb_bf wallet.')).toEqual({
      en: 'This number cannot receive a transfer from the OPB Money Burkina Faso wallet.',
      fr: 'Ce numéro ne peut pas recevoir de transfert depuis le portefeuille OPB Money Burkina Faso.',
    });
    expect(serviceFieldMessage('Ensure this value is greater than or equal to 100').fr).toBe(
      'Cette valeur doit être supérieure ou égale à 100.',
    );
    expect(serviceFieldMessage(NOT_SENT_BULK_ITEM.en)).toEqual(NOT_SENT_BULK_ITEM);
  });

  it('names every operator in both languages, with the phone rules translated', () => {
    for (const p of PROVIDERS) {
      expectBothLanguages({ where: `rule of ${p}`, en: phoneRuleText(p).en, fr: phoneRuleText(p).fr });
      expect(OPERATOR_NAMES[p].en).not.toMatch(TOKEN);
    }
    expect(new InsufficientFundsError('opb_bf').messageFr).toBe(
      'Solde insuffisant sur le portefeuille OPB Money Burkina Faso pour ce montant et ses frais.',
    );
  });
});

// ---- the top-level catalogue -----------------------------------------------

describe('top-level errors (the catalogue)', () => {
  it('every code, in every variant, says it in both languages', () => {
    for (const [code, entry] of Object.entries(TOP_LEVEL_ERRORS)) {
      expect(entry.samples.length, code).toBeGreaterThan(0);
      for (const sample of entry.samples) {
        const { en, fr } = topLevelText(code as never, sample as never);
        expectBothLanguages({ where: `${code} ${JSON.stringify(sample)}`, en, fr });
        const error = topLevelError(code as never, sample as never);
        expect(error.message).toBe(en);
        expect(error.extensions).toMatchObject({ code, messageFr: fr });
      }
    }
  });

  it('every upstream code a query can fail with has its two languages', () => {
    for (const code of ERROR_CODES) {
      const { en, fr } = upstreamFailureText(code, isRetryableCode(code));
      expectBothLanguages({ where: `query failure ${code}`, en, fr });
    }
  });

  it('the errors raised outside the schema (limits, trusted documents) carry the catalogue’s very texts, both languages', () => {
    const sent = (error: GraphQLError) => ({ en: error.message, fr: error.extensions.messageFr });
    // 2.5 s to wait is said as 3 s, in both languages, and in Retry-After.
    const limited = rateLimitedError(2500);
    expect(sent(limited)).toEqual(topLevelText('RATE_LIMITED', { retryAfterSeconds: 3 }));
    expect(limited.extensions).toMatchObject({ code: 'RATE_LIMITED', retryable: true, retryAfterMs: 2500 });
    expect(limited.extensions.http).toEqual({ status: 429, headers: { 'Retry-After': '3' } });
    const budget = new UpstreamBudgetExceededError(40);
    expect(sent(budget)).toEqual(topLevelText('UPSTREAM_BUDGET_EXCEEDED', { limit: 40 }));
    expect(budget.extensions).toMatchObject({ code: 'UPSTREAM_BUDGET_EXCEEDED', budget: 40, retryable: false });
  });

  it('a code a library raises without French gets the French of that code, never a reading of the English', () => {
    const raised = (message: string, code: string) => frenchOf(new GraphQLError(message, { extensions: { code } }));
    expect(raised('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND')).toBe(topLevelText('PERSISTED_QUERY_NOT_FOUND', undefined).fr);
    // graphql-tools' own sentences of OPERATION_RESOLUTION_FAILURE, and one it may write some day.
    expect(raised('Could not determine what operation to execute.', 'OPERATION_RESOLUTION_FAILURE')).toBe(
      topLevelText('OPERATION_RESOLUTION_FAILURE', undefined).fr,
    );
    expect(raised('Must provide operation name if query contains multiple operations.', 'OPERATION_RESOLUTION_FAILURE')).toBe(
      'Indiquez le nom de l’opération (operationName) : le document en contient plusieurs.',
    );
    expect(raised('Some new sentence of a later graphql-tools.', 'OPERATION_RESOLUTION_FAILURE')).toBe(
      topLevelText('OPERATION_RESOLUTION_FAILURE', undefined).fr,
    );
    expect(raised('Some new sentence of a later yoga.', 'BAD_REQUEST')).toBe(topLevelText('BAD_REQUEST', undefined).fr);
  });

  it('every code raised anywhere in src/ is a catalogue code (so it has its French)', () => {
    const root = fileURLToPath(new URL('../../src/', import.meta.url));
    const raised = new Map<string, string[]>();
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
      });
    for (const file of walk(root)) {
      const rel = relative(root, file);
      // The sandbox stands in for the payment service: its codes are the service's, not the gateway's.
      if (rel.startsWith('sandbox')) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(/extensions:\s*\{\s*code:\s*'([A-Z_]+)'/g)) {
        raised.set(m[1]!, [...(raised.get(m[1]!) ?? []), rel]);
      }
    }
    const unknown = [...raised].filter(([code]) => !isTopLevelCode(code));
    expect(unknown, `codes raised outside the catalogue: add them to src/errors/top-level.ts: ${JSON.stringify(unknown)}`).toEqual([]);
  });
});

// ---- graphql-js's own errors -----------------------------------------------

describe("graphql-js's validation and variable errors", () => {
  const invalidDocuments = [
    '{ balanse { currency } }',
    '{ charge(reference: "x", extra: 1) { reference } }',
    '{ charge { reference } }',
    '{ balance }',
    '{ balance { currency { x } } }',
    'query ($unused: Int) { balance { currency } }',
    '{ charges(first: $undeclared) { totalCount } }',
    '{ charges(first: "ten") { totalCount } }',
    '{ charges(filter: { dateFrom: "yesterday" }) { totalCount } }',
    '{ charges(filter: { provider: OPZ_BF }) { totalCount } }',
    '{ charges(filter: { nope: 1 }) { totalCount } }',
    'query A { balance { currency } } query A { balance { currency } }',
    '{ ...Missing }',
    'query ($f: Int) { charges(filter: $f) { totalCount } }',
  ];

  it.each(invalidDocuments)('%s: every error has its catalogue entry and French', (source) => {
    const errors = validate(schema, parse(source));
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) {
      const fr = frenchOf(e);
      expect(libraryText(e), e.message).not.toBeNull();
      expectBothLanguages({ where: source, en: e.message, fr });
    }
  });

  it('a document that does not parse', () => {
    let error: GraphQLError | null = null;
    try {
      parse('{ balance { ');
    } catch (e) {
      error = e as GraphQLError;
    }
    expect(frenchOf(error!)).toBe('Erreur de syntaxe dans le document GraphQL : Name attendu, mais le document s’arrête là.');
  });

  const query =
    'query ($filter: ChargeFilter, $first: Int, $ref: String!) { charges(filter: $filter, first: $first) { totalCount } charge(reference: $ref) { reference } }';
  it.each([
    [
      { ref: 'r', first: 'ten' },
      'La variable « $first » a reçu une valeur invalide : Int ne peut pas représenter la valeur non entière "ten".',
    ],
    [
      { ref: 'r', first: 3_000_000_000 },
      'La variable « $first » a reçu une valeur invalide : Int ne représente que des entiers signés sur 32 bits, pas 3000000000.',
    ],
    [{}, 'La variable obligatoire « $ref » (type « String! ») n’a pas été fournie.'],
    [{ ref: null }, 'La variable « $ref » (type « String! ») ne peut pas être nulle.'],
    [
      { ref: 'r', filter: { dateFrom: 'yesterday' } },
      'La variable « $filter » a reçu une valeur invalide (au chemin « filter.dateFrom ») : une date s’écrit AAAA-MM-JJ, par exemple 2026-01-31.',
    ],
    [
      { ref: 'r', filter: { status: 'DONE' } },
      'La variable « $filter » a reçu une valeur invalide (au chemin « filter.status ») : la valeur « DONE » n’existe pas dans l’énumération « ChargeStatus ».',
    ],
    [
      { ref: 'r', filter: { colour: 'red' } },
      'La variable « $filter » a reçu une valeur invalide : le champ « colour » n’existe pas dans le type « ChargeFilter ».',
    ],
    [{ ref: 'r', filter: 3 }, 'La variable « $filter » a reçu une valeur invalide : un objet de type « ChargeFilter » est attendu.'],
  ])('variables %j', async (variableValues, french) => {
    const result = await graphql({ schema, source: query, variableValues });
    expect(result.errors).toHaveLength(1);
    const [error] = result.errors!;
    expect(frenchOf(error!)).toBe(french);
    expectBothLanguages({ where: JSON.stringify(variableValues), en: error!.message, fr: french });
  });

  it('a sentence no rule knows gets a general French sentence with its place, never English', () => {
    const error = new GraphQLError('Some library says something new.', { source: undefined });
    expect(frenchOf(error)).toBe('La requête n’a pas pu être traitée.');
  });
});
