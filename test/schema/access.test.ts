// Who may run each root field, generated from the schema itself: every field of
// Query, Mutation and Subscription gets its smallest valid operation, sent
// anonymously and then with a token holding each scope alone. Each field's
// declared scope (`access({ scope })`, read back by test/helpers/scope-table.ts) is
// the expectation, and the access guide's scope table is that table printed; the
// sandbox's request log proves a
// refused operation never reached the payment service. A field added later is
// covered without anyone writing a test for it.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { graphql as execute, isNonNullType, parse, subscribe, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SCOPES, deriveClientTokenSecret, type Principal, type Scope } from '../../src/auth/index.js';
import { printScopeTable, requiredScopeOf, type RootType } from '../helpers/scope-table.js';
import { repoRoot } from '../helpers/npm-start.js';
import { schema } from '../../src/schema/index.js';
import { builder } from '../../src/schema/builder.js';
import { access } from '../../src/schema/access.js';
import { silentLogger } from '../../src/logger.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';
import {
  bearer,
  codesOf,
  countBusAsks,
  globalId,
  isRefusal,
  minimalDocument,
  openSse,
  postQuery,
  rootFields,
  type BusAsks,
  type ExecutionBody,
  type RootField,
} from './auth-support.js';

const FIELDS = rootFields(schema);
const requiredScopeFor = (root: RootType, field: string) => requiredScopeOf(schema, root, field);

/** The scope table of docs/access.md: the lines of the Markdown table that starts with its header. */
function readmeScopeTable(): string {
  const lines = readFileSync(path.join(repoRoot, 'docs', 'access.md'), 'utf8').split('\n');
  const start = lines.indexOf('| scope | root fields it opens |');
  expect(start, 'docs/access.md has the scope table').toBeGreaterThan(0);
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start, end).join('\n');
}

let stack: TestStack;
let busAsks: BusAsks;
const tokens = new Map<Scope, string>();

beforeAll(async () => {
  // No pollers: nothing but the operation under test may reach the sandbox.
  stack = await startStack({ env: { SUBSCRIPTION_POLL_MS: '0' } });
  busAsks = countBusAsks(stack.gateway.bus);
  for (const scope of SCOPES) tokens.set(scope, await stack.mintToken([scope], `only-${scope}`));
});
afterAll(async () => {
  await stack?.close();
});

/** What running one root field's operation gave: its first result, and the HTTP status it came with. */
interface Outcome {
  status: number;
  result: ExecutionBody;
}

/**
 * Runs the field's minimal operation. Queries and mutations are one POST; a
 * subscription goes over SSE and ends at its first result. A subscription to
 * one resource always has one: a refusal, or (its dummy reference naming
 * nothing) the service's not-found, which also means its upstream call is over
 * before the next test counts calls. A subscription to no resource in
 * particular (paymentEvents) may have nothing to send: it has started once its
 * resolver asked the event bus for a stream, which only happens once access
 * was granted.
 */
async function run(entry: RootField, headers: Record<string, string>): Promise<Outcome> {
  const { query, variables } = minimalDocument(entry);
  if (entry.rootType !== 'Subscription') {
    const res = await postQuery(stack.gateway.graphqlUrl, query, variables, headers);
    return { status: res.status, result: res.body };
  }
  const mayStayQuiet = !entry.field.args.some((a) => isNonNullType(a.type));
  const asksBefore = busAsks.count;
  const stream = await openSse(stack.gateway.graphqlUrl, query, variables, headers);
  try {
    let first: ExecutionBody | null | undefined;
    const reading = stream.next(10_000).then((r) => (first = r ?? { errors: [] }));
    reading.catch(() => {});
    await waitFor(() => first !== undefined || (mayStayQuiet && busAsks.count > asksBefore), `${entry.label} to answer or start`, 10_000);
    return { status: stream.status, result: first ?? {} };
  } finally {
    stream.close();
  }
}

describe('the scope table and the schema agree', () => {
  it('finds the root fields of all three root types', () => {
    const byType = (t: string) => FIELDS.filter((f) => f.rootType === t).length;
    expect(byType('Query')).toBeGreaterThan(0);
    expect(byType('Mutation')).toBeGreaterThan(0);
    expect(byType('Subscription')).toBeGreaterThan(0);
  });

  it.each(FIELDS.map((f) => [f.label, f] as const))('%s declares a known scope (extensions.requiredScope)', (_label, entry) => {
    const declared = (entry.field.extensions as { requiredScope?: unknown }).requiredScope;
    expect(SCOPES).toContain(declared);
  });

  it('the scope table of docs/access.md is the table printed from the schema', () => {
    expect(readmeScopeTable()).toBe(printScopeTable(schema));
  });

  it('every scope opens at least one root field', () => {
    for (const scope of SCOPES)
      expect(
        FIELDS.some((f) => requiredScopeFor(f.rootType, f.field.name) === scope),
        scope,
      ).toBe(true);
  });
});

describe('anonymous: every root field is UNAUTHENTICATED and nothing reaches the payment service', () => {
  it.each(FIELDS.map((f) => [f.label, f] as const))('%s', async (_label, entry) => {
    stack.sandbox.requests.clear();
    const { status, result } = await run(entry, {});
    expect(codesOf(result.errors)).toEqual(['UNAUTHENTICATED']);
    expect(result.data ?? null).toBeNull();
    expect(status).toBe(401);
    expect(stack.sandbox.requests.count()).toBe(0);
  });
});

describe.each(SCOPES.map((s) => [s] as const))('a token with only %s', (scope) => {
  const opened = FIELDS.filter((f) => requiredScopeFor(f.rootType, f.field.name) === scope);
  const closed = FIELDS.filter((f) => requiredScopeFor(f.rootType, f.field.name) !== scope);

  it.each(opened.map((f) => [f.label, f] as const))('may run %s', async (_label, entry) => {
    const { result } = await run(entry, bearer(tokens.get(scope)!));
    expect((result.errors ?? []).filter(isRefusal)).toEqual([]);
  });

  it.each(closed.map((f) => [f.label, f] as const))('is FORBIDDEN %s, naming its scope, with no upstream call', async (_label, entry) => {
    stack.sandbox.requests.clear();
    const { result } = await run(entry, bearer(tokens.get(scope)!));
    expect(result.errors?.map((e) => ({ code: e.extensions?.code, requiredScope: e.extensions?.requiredScope }))).toEqual([
      { code: 'FORBIDDEN', requiredScope: requiredScopeFor(entry.rootType, entry.field.name) },
    ]);
    expect(stack.sandbox.requests.count()).toBe(0);
  });
});

// ---------------------------------------------------------------- client tokens

const CREATE_CHARGE = `mutation ($input: CreateChargeInput!) {
  createCharge(input: $input) { __typename ... on CreateChargePayload { reference clientToken } ... on PaymentError { code message } }
}`;
const INITIALIZE_CHECKOUT = `mutation ($input: InitializeCheckoutInput!) {
  initializeCheckout(input: $input) { __typename ... on InitializeCheckoutPayload { reference clientToken } ... on PaymentError { code message } }
}`;
const CHARGE = `query ($reference: String!) {
  charge(reference: $reference) { id reference status extId ipAddress operatorId confirmationAttempts { ipAddress status } }
}`;
const NODE = `query ($id: ID!) { node(id: $id) { __typename ... on Charge { reference } ... on Checkout { reference } } }`;
const CHECKOUT = `query ($reference: String!) { checkout(reference: $reference) { id reference amount status } }`;
const SUBMIT_OTP = `mutation ($input: SubmitChargeOtpInput!) {
  submitChargeOtp(input: $input) { __typename ... on SubmitChargeOtpPayload { charge { reference status } } ... on PaymentError { code message } }
}`;

interface ChargeView {
  id: string;
  reference: string;
  status: string;
  extId: string | null;
  ipAddress: string | null;
  operatorId: string | null;
  confirmationAttempts: Array<{ ipAddress: string | null; status: string }>;
}

/** A charge created by the merchant's server (a staff token), and the client token it hands the browser. */
async function createOtpCharge(extId: string): Promise<{ reference: string; clientToken: string }> {
  // OPC_BF sends the customer an OTP by SMS (README, sandbox test data).
  const input = { amount: 2500, phone: '58000000', provider: 'OPC_BF', extId, idempotencyKey: randomUUID() };
  const res = await postQuery<{ createCharge: { __typename: string; reference: string; clientToken: string } }>(
    stack.gateway.graphqlUrl,
    CREATE_CHARGE,
    { input },
    bearer(stack.staffToken),
  );
  expect(res.body.data?.createCharge.__typename, res.raw).toBe('CreateChargePayload');
  return res.body.data!.createCharge;
}

/** A client token exactly as the gateway signs one (src/auth/client-token.ts), with the key the gateway derives from AUTH_JWT_SECRET. */
function signClientToken(reference: string, expiresAt: number): Promise<string> {
  const key = new TextEncoder().encode(deriveClientTokenSecret(stack.jwtSecret));
  return new SignJWT({ rsc: { k: 'charge', r: reference } })
    .setProtectedHeader({ alg: 'HS256', typ: 'client+jwt' })
    .setIssuer('momo-gateway')
    .setAudience('momo-gateway:client')
    .setSubject(`client:charge:${reference}`)
    .setIssuedAt(expiresAt - 3600)
    .setExpirationTime(expiresAt)
    .sign(key);
}

describe('a charge client token', () => {
  let own: { reference: string; clientToken: string };
  let other: { reference: string; clientToken: string };
  let client: Record<string, string>;

  beforeAll(async () => {
    own = await createOtpCharge('order-own');
    other = await createOtpCharge('order-other');
    client = bearer(own.clientToken);
  });

  const readCharge = async (reference: string, headers: Record<string, string>) =>
    postQuery<{ charge: ChargeView | null }>(stack.gateway.graphqlUrl, CHARGE, { reference }, headers);

  it('reads its own charge, by reference and by node(id); merchant-only fields are null for it and set for staff', async () => {
    const mine = await readCharge(own.reference, client);
    expect(mine.body.errors, mine.raw).toBeUndefined();
    const charge = mine.body.data!.charge!;
    expect(charge).toMatchObject({ reference: own.reference, status: 'SEND_OTP', extId: null, ipAddress: null, operatorId: null });

    const staff = await readCharge(own.reference, bearer(stack.staffToken));
    expect(staff.body.data!.charge).toMatchObject({ reference: own.reference, extId: 'order-own' });
    expect(staff.body.data!.charge!.ipAddress).toEqual(expect.any(String));

    const byNode = await postQuery<{ node: { reference: string } | null }>(stack.gateway.graphqlUrl, NODE, { id: charge.id }, client);
    expect(byNode.body.errors, byNode.raw).toBeUndefined();
    expect(byNode.body.data!.node).toEqual({ __typename: 'Charge', reference: own.reference });
  });

  it('is FORBIDDEN another charge, by reference, by node(id) and for its OTP, with no upstream call', async () => {
    const otherId = (await readCharge(other.reference, bearer(stack.staffToken))).body.data!.charge!.id;
    const attempts = [
      { query: CHARGE, variables: { reference: other.reference } },
      { query: NODE, variables: { id: otherId } },
      { query: SUBMIT_OTP, variables: { input: { chargeReference: other.reference, otp: '123456' } } },
      // Its own charge's ID form names no other type: a transfer ID with the same reference is not its resource.
      { query: NODE, variables: { id: globalId('Transfer', own.reference) } },
    ];
    for (const { query, variables } of attempts) {
      stack.sandbox.requests.clear();
      const res = await postQuery(stack.gateway.graphqlUrl, query, variables, client);
      expect(codesOf(res.body.errors), res.raw).toEqual(['FORBIDDEN']);
      expect(stack.sandbox.requests.count(), query).toBe(0);
    }
  });

  it.each(FIELDS.map((f) => [f.label, f] as const))(
    'is FORBIDDEN %s on anything but its own charge, with no upstream call',
    async (_label, entry) => {
      stack.sandbox.requests.clear();
      const { result } = await run(entry, client);
      expect(codesOf(result.errors)).toEqual(['FORBIDDEN']);
      expect(stack.sandbox.requests.count()).toBe(0);
    },
  );

  it('submits the OTP of its own charge; merchant-only fields of the paid charge stay null for it (confirmation IPs too)', async () => {
    const submitted = await postQuery<{ submitChargeOtp: { __typename: string; charge: { status: string } } }>(
      stack.gateway.graphqlUrl,
      SUBMIT_OTP,
      { input: { chargeReference: own.reference, otp: '123456' } },
      client,
    );
    expect(submitted.body.data?.submitChargeOtp, submitted.raw).toMatchObject({
      __typename: 'SubmitChargeOtpPayload',
      charge: { status: 'SUCCESS' },
    });

    const staff = (await readCharge(own.reference, bearer(stack.staffToken))).body.data!.charge!;
    expect(staff.operatorId).toEqual(expect.any(String));
    expect(staff.confirmationAttempts.length).toBeGreaterThan(0);
    for (const attempt of staff.confirmationAttempts) expect(attempt.ipAddress).toEqual(expect.any(String));

    const mine = (await readCharge(own.reference, client)).body.data!.charge!;
    expect(mine).toMatchObject({ status: 'SUCCESS', extId: null, ipAddress: null, operatorId: null });
    expect(mine.confirmationAttempts.map((a) => a.ipAddress)).toEqual(staff.confirmationAttempts.map(() => null));
  });

  it('expired, is refused with 401 before anything runs (the same token unexpired is accepted)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const valid = await signClientToken(own.reference, now + 600);
    const accepted = await readCharge(own.reference, bearer(valid));
    expect(accepted.body.data?.charge?.reference, accepted.raw).toBe(own.reference);

    // Past the verifier's 30 s clock tolerance.
    const expired = await signClientToken(own.reference, now - 120);
    stack.sandbox.requests.clear();
    const refused = await readCharge(own.reference, bearer(expired));
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer');
    expect(codesOf(refused.body.errors)).toEqual(['UNAUTHENTICATED']);
    expect(refused.raw).not.toContain(expired);
    expect(stack.sandbox.requests.count()).toBe(0);
  });
});

describe('a checkout client token', () => {
  let chk: string;
  let uuid: string;
  let client: Record<string, string>;
  let otherChk: string;
  let otherUuid: string;

  const initialize = async () => {
    const input = {
      amount: 5000,
      successUrl: 'https://shop.example/ok',
      cancelUrl: 'https://shop.example/ko',
      idempotencyKey: randomUUID(),
    };
    const res = await postQuery<{ initializeCheckout: { __typename: string; reference: string; clientToken: string } }>(
      stack.gateway.graphqlUrl,
      INITIALIZE_CHECKOUT,
      { input },
      bearer(stack.staffToken),
    );
    expect(res.body.data?.initializeCheckout.__typename, res.raw).toBe('InitializeCheckoutPayload');
    const { reference, clientToken } = res.body.data!.initializeCheckout;
    const staff = await postQuery<{ checkout: { reference: string } }>(
      stack.gateway.graphqlUrl,
      CHECKOUT,
      { reference },
      bearer(stack.staffToken),
    );
    return { chk: reference, uuid: staff.body.data!.checkout.reference, clientToken };
  };

  beforeAll(async () => {
    const own = await initialize();
    ({ chk, uuid } = own);
    client = bearer(own.clientToken);
    ({ chk: otherChk, uuid: otherUuid } = await initialize());
  });

  it('reads its checkout by either reference form, and by node(id)', async () => {
    expect(chk).toMatch(/^chk_/);
    expect(uuid).not.toBe(chk);
    for (const reference of [chk, uuid]) {
      const res = await postQuery<{ checkout: { id: string; reference: string; amount: number } }>(
        stack.gateway.graphqlUrl,
        CHECKOUT,
        { reference },
        client,
      );
      expect(res.body.errors, res.raw).toBeUndefined();
      expect(res.body.data!.checkout).toMatchObject({ reference: uuid, amount: 5000 });
      const byNode = await postQuery(stack.gateway.graphqlUrl, NODE, { id: res.body.data!.checkout.id }, client);
      expect(byNode.body.errors, byNode.raw).toBeUndefined();
      expect(byNode.body.data).toEqual({ node: { __typename: 'Checkout', reference: uuid } });
    }
  });

  it('is FORBIDDEN a charge, the balance and the lists', async () => {
    const queries = [
      '{ charge(reference: "ch_any") { reference } }',
      '{ balance { currency } }',
      '{ checkouts(first: 1) { totalCount } }',
      '{ charges(first: 1) { totalCount } }',
      '{ transfers(first: 1) { totalCount } }',
    ];
    for (const query of queries) {
      stack.sandbox.requests.clear();
      const res = await postQuery(stack.gateway.graphqlUrl, query, {}, client);
      expect(codesOf(res.body.errors), query).toEqual(['FORBIDDEN']);
      expect(stack.sandbox.requests.count(), query).toBe(0);
    }
  });

  it('is FORBIDDEN another checkout in either form', async () => {
    for (const reference of [otherChk, otherUuid]) {
      const res = await postQuery(stack.gateway.graphqlUrl, CHECKOUT, { reference }, client);
      expect(codesOf(res.body.errors), reference).toEqual(['FORBIDDEN']);
    }
  });

  // Fails at the time of writing (reported): isOwnResource (src/schema/access.ts) loads the asked checkout too.
  // A refusal reaches nothing (issue 8 §1). Telling the two forms of a checkout apart needs the token's own
  // checkout at most; the checkout asked for belongs to someone else and is none of this caller's business.
  it('never makes the gateway fetch another checkout for it (the refusal reaches nothing of the other checkout)', async () => {
    for (const reference of [otherChk, otherUuid]) {
      stack.sandbox.requests.clear();
      await postQuery(stack.gateway.graphqlUrl, CHECKOUT, { reference }, client);
      const fetchedOther = stack.sandbox.requests
        .all()
        .filter((r) => r.path.includes(otherChk) || r.path.includes(otherUuid))
        .map((r) => `${r.method} ${r.path}`);
      expect(fetchedOther, reference).toEqual([]);
    }
  });
});

// Deny by default. The real builder (root types and their never-granted rule included) gets one more
// field per root type without an access rule, and one with a rule; the schema is rebuilt from it. This
// runs last: the gateway above was started from the schema built before these fields existed.
describe('deny by default: a root field that declares no access rule', () => {
  let extended: GraphQLSchema;
  const allScopes: Principal = { kind: 'staff', subject: 'probe', scopes: new Set(SCOPES), expiresAt: new Date(Date.now() + 3_600_000) };
  const contextValue = { principal: allScopes, log: silentLogger, requestId: 'probe', clientIp: null };

  beforeAll(() => {
    builder.queryField('probeWithoutRule', (t) => t.string({ nullable: true, resolve: () => 'ran' }));
    builder.queryField('probeWithRule', (t) => t.string({ ...access({ scope: 'payments:read' }), nullable: true, resolve: () => 'ran' }));
    builder.mutationField('probeWithoutRule', (t) => t.string({ nullable: true, resolve: () => 'ran' }));
    builder.subscriptionField('probeWithoutRule', (t) =>
      t.string({
        nullable: true,
        subscribe: async function* () {
          yield 'ran';
        },
        resolve: (value: string) => value,
      }),
    );
    extended = builder.toSchema({ sortSchema: false });
  });

  it('is refused (FORBIDDEN, no scope named) even to a token with every scope, and its resolver never runs', async () => {
    for (const operation of ['query { probeWithoutRule }', 'mutation { probeWithoutRule }']) {
      const result = await execute({ schema: extended, source: operation, contextValue });
      expect(result.data?.probeWithoutRule ?? null, operation).toBeNull();
      expect(
        result.errors?.map((e) => ({ code: e.extensions.code, requiredScope: e.extensions.requiredScope })),
        operation,
      ).toEqual([{ code: 'FORBIDDEN', requiredScope: null }]);
    }
  });

  it('is refused as a subscription too', async () => {
    const result = await subscribe({ schema: extended, document: parse('subscription { probeWithoutRule }'), contextValue });
    expect(Symbol.asyncIterator in result).toBe(false);
    const errors = (result as { errors?: Array<{ extensions: Record<string, unknown> }> }).errors;
    expect(errors?.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);
  });

  it('while a field with a rule next to it runs for that scope', async () => {
    const result = await execute({ schema: extended, source: '{ probeWithRule }', contextValue });
    expect(result).toEqual({ data: { probeWithRule: 'ran' } });
  });
});
