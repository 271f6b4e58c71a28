// Tokens over HTTP and SSE, against a gateway that checks issuer and audience:
// every kind of bad token is turned away whole (401, `WWW-Authenticate:
// Bearer`, UNAUTHENTICATED) before anything reaches the payment service; an
// anonymous operation is refused the same way unless it only introspects. Then
// the audit trail of money-moving mutations, run and refused, and the promise
// that no log line carries a token, the API key or a secret.
import { randomUUID } from 'node:crypto';
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, deriveClientTokenSecret, mintStaffToken, type Scope } from '../../src/auth/index.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { bearer, codesOf, openSse, postQuery } from '../schema/auth-support.js';

const ISSUER = 'https://id.shop.example/';
const AUDIENCE = 'momo-gateway-tests';
const OTHER_SECRET = 'a-different-secret-that-is-long-enough-0123456789';

let stack: TestStack;
/** Every token this file sends: none may ever appear in a log line. */
const sentTokens = new Set<string>();

beforeAll(async () => {
  stack = await startStack({ env: { AUTH_ISSUER: ISSUER, AUTH_AUDIENCE: AUDIENCE, SUBSCRIPTION_POLL_MS: '0' } });
});
afterAll(async () => {
  await stack?.close();
});

interface Claims {
  scopes?: Iterable<Scope>;
  subject?: string;
  ttlSeconds?: number;
  secret?: string;
  issuer?: string | null;
  audience?: string | null;
  now?: Date;
}

/** A staff token for this gateway (its issuer and audience) unless the claims say otherwise. */
async function token(claims: Claims = {}): Promise<string> {
  const minted = await mintStaffToken({
    secret: claims.secret ?? stack.jwtSecret,
    scopes: claims.scopes ?? SCOPES,
    subject: claims.subject ?? 'back-office',
    ttlSeconds: claims.ttlSeconds ?? 3600,
    issuer: claims.issuer === undefined ? ISSUER : claims.issuer,
    audience: claims.audience === undefined ? AUDIENCE : claims.audience,
    now: claims.now,
  });
  sentTokens.add(minted.token);
  return minted.token;
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const inOneHour = () => Math.floor(Date.now() / 1000) + 3600;
const claimsOf = (sub: string) => ({ sub, iss: ISSUER, aud: AUDIENCE, exp: inOneHour(), scope: SCOPES.join(' ') });

const BALANCE = '{ balance { currency } }';
const CREATE_TRANSFER = `mutation ($input: CreateTransferInput!) {
  createTransfer(input: $input) { __typename ... on CreateTransferPayload { transfer { reference status } } ... on PaymentError { code message } }
}`;
const transferInput = (amount: number) => ({ amount, recipientPhone: '70000000', idempotencyKey: randomUUID() });

describe('a valid token is accepted (the control for the refusals below)', () => {
  it('with this issuer and audience', async () => {
    const res = await postQuery(stack.gateway.graphqlUrl, BALANCE, {}, bearer(await token()));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { balance: { currency: 'XOF' } } });
  });
});

describe('refused tokens: 401, WWW-Authenticate: Bearer, UNAUTHENTICATED, nothing reaches the payment service', () => {
  const cases: Array<[string, () => Promise<string>]> = [
    // Expired beyond the verifier's 30 s clock tolerance.
    ['expired', () => token({ now: new Date(Date.now() - 2 * 3600_000), ttlSeconds: 3600 })],
    ['signed with another secret', () => token({ secret: OTHER_SECRET })],
    ['alg: none', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claimsOf('back-office'))}.`],
    [
      'alg: none, with the signature of a valid token left on',
      async () => {
        const valid = await token();
        return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claimsOf('back-office'))}.${valid.split('.')[2]}`;
      },
    ],
    [
      'RS256 with a key the gateway never published (no JWKS is configured)',
      async () => {
        const { privateKey } = await generateKeyPair('RS256');
        return new SignJWT(claimsOf('back-office')).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(privateKey);
      },
    ],
    ['from another issuer', () => token({ issuer: 'https://evil.example/' })],
    ['without an issuer', () => token({ issuer: null })],
    ['for another audience', () => token({ audience: 'some-other-api' })],
    ['without an audience', () => token({ audience: null })],
    [
      'without exp',
      async () => {
        const { exp: _never, ...claims } = claimsOf('back-office');
        return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(stack.jwtSecret));
      },
    ],
    [
      'a client token signed with the staff secret instead of the client-token key',
      async () =>
        new SignJWT({ rsc: { k: 'charge', r: 'ch_1' } })
          .setProtectedHeader({ alg: 'HS256', typ: 'client+jwt' })
          .setIssuer('momo-gateway')
          .setAudience('momo-gateway:client')
          .setSubject('client:charge:ch_1')
          .setExpirationTime(inOneHour())
          .sign(new TextEncoder().encode(stack.jwtSecret)),
    ],
    ['not a JWT', async () => 'not-a-jwt'],
  ];

  it.each(cases)('%s', async (_label, make) => {
    const bad = await make();
    sentTokens.add(bad);
    for (const [query, variables] of [
      [BALANCE, {}],
      [CREATE_TRANSFER, { input: transferInput(1000) }],
    ] as const) {
      stack.sandbox.requests.clear();
      const res = await postQuery(stack.gateway.graphqlUrl, query, variables, bearer(bad));
      expect(res.status, query).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(codesOf(res.body.errors)).toEqual(['UNAUTHENTICATED']);
      expect(res.body.data ?? null).toBeNull();
      expect(res.raw).not.toContain(bad.split('.')[1] || bad);
      expect(stack.sandbox.requests.count()).toBe(0);
    }
  });

  it('an Authorization header that is not Bearer', async () => {
    stack.sandbox.requests.clear();
    const res = await postQuery(
      stack.gateway.graphqlUrl,
      BALANCE,
      {},
      { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` },
    );
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(codesOf(res.body.errors)).toEqual(['UNAUTHENTICATED']);
    expect(stack.sandbox.requests.count()).toBe(0);
  });

  it('over SSE too: an expired token cannot start a subscription', async () => {
    const expired = await token({ now: new Date(Date.now() - 2 * 3600_000), ttlSeconds: 3600 });
    const stream = await openSse(stack.gateway.graphqlUrl, 'subscription { paymentEvents { id } }', {}, bearer(expired));
    try {
      expect(stream.status).toBe(401);
      const first = await stream.next();
      expect(codesOf(first?.errors)).toEqual(['UNAUTHENTICATED']);
    } finally {
      stream.close();
    }
  });
});

describe('anonymous', () => {
  it('a query is refused whole: 401, WWW-Authenticate: Bearer, UNAUTHENTICATED, no upstream call', async () => {
    for (const query of [
      BALANCE,
      '{ __typename balance { currency } }',
      '{ __typename: balance { currency } }',
      'query { ...F } fragment F on Query { balance { currency } }',
    ]) {
      stack.sandbox.requests.clear();
      const res = await postQuery(stack.gateway.graphqlUrl, query, {});
      expect(res.status, query).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(codesOf(res.body.errors), query).toEqual(['UNAUTHENTICATED']);
      expect(res.body.data ?? null).toBeNull();
      expect(stack.sandbox.requests.count()).toBe(0);
    }
  });

  it('introspection runs', async () => {
    const typename = await postQuery(stack.gateway.graphqlUrl, '{ __typename }', {});
    expect(typename.status).toBe(200);
    expect(typename.body).toEqual({ data: { __typename: 'Query' } });
    const schema = await postQuery<{ __schema: { mutationType: { name: string } } }>(
      stack.gateway.graphqlUrl,
      '{ __schema { mutationType { name } } }',
      {},
    );
    expect(schema.body.errors).toBeUndefined();
    expect(schema.body.data?.__schema.mutationType.name).toBe('Mutation');
  });
});

// ---------------------------------------------------------------- audit

interface AuditLine {
  msg: string;
  audit: boolean;
  requestId: string;
  subject: string | null;
  principalKind: string | null;
  clientIp: string | null;
  operation: string;
  references: string[];
  amount?: number;
  outcome: string;
}

function auditLinesOf(requestId: string): AuditLine[] {
  return stack.logLines
    .map((line) => JSON.parse(line) as Partial<AuditLine>)
    .filter((line): line is AuditLine => line.msg === 'audit' && line.requestId === requestId);
}

async function transferAs(headers: Record<string, string>, amount: number) {
  const requestId = `audit-${randomUUID()}`;
  const res = await postQuery<{ createTransfer: { __typename: string; transfer?: { reference: string } } }>(
    stack.gateway.graphqlUrl,
    CREATE_TRANSFER,
    { input: transferInput(amount) },
    { ...headers, 'x-request-id': requestId },
  );
  return { requestId, res };
}

describe('audit', () => {
  it('an allowed createTransfer: one line with who, what, how much and the outcome', async () => {
    const { requestId, res } = await transferAs(bearer(await token({ scopes: ['payouts:write'], subject: 'payout-clerk' })), 1200);
    expect(res.body.data?.createTransfer.__typename, res.raw).toBe('CreateTransferPayload');
    const lines = auditLinesOf(requestId);
    expect(lines).toHaveLength(1);
    // Soft: each missing fact is reported on its own.
    expect.soft(lines[0]!.principalKind).toBe('staff');
    expect(lines[0]).toMatchObject({
      audit: true,
      subject: 'payout-clerk',
      operation: 'createTransfer',
      amount: 1200,
      outcome: 'success',
      references: [res.body.data!.createTransfer.transfer!.reference],
    });
    expect(lines[0]!.clientIp).toEqual(expect.any(String));
  });

  it('a createTransfer refused for lack of payouts:write: FORBIDDEN, with who asked and how much', async () => {
    stack.sandbox.requests.clear();
    const { requestId, res } = await transferAs(bearer(await token({ scopes: ['payments:read'], subject: 'reader' })), 1300);
    expect(codesOf(res.body.errors)).toEqual(['FORBIDDEN']);
    expect(stack.sandbox.requests.count()).toBe(0);
    const lines = auditLinesOf(requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ subject: 'reader', operation: 'createTransfer', outcome: 'FORBIDDEN' });
    expect.soft(lines[0]!.principalKind).toBe('staff');
    expect.soft(lines[0]!.amount).toBe(1300);
  });

  it('an anonymous createTransfer: UNAUTHENTICATED, with no subject and the amount asked', async () => {
    stack.sandbox.requests.clear();
    const { requestId, res } = await transferAs({}, 1400);
    expect(res.status).toBe(401);
    expect(stack.sandbox.requests.count()).toBe(0);
    const lines = auditLinesOf(requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ subject: null, operation: 'createTransfer', outcome: 'UNAUTHENTICATED' });
    expect.soft(lines[0]!.principalKind).toBeNull();
    expect.soft(lines[0]!.amount).toBe(1400);
  });

  it('no log line holds a token, the API key or a secret', () => {
    sentTokens.add(stack.staffToken);
    const secrets = [stack.apiKey, stack.jwtSecret, deriveClientTokenSecret(stack.jwtSecret), stack.webhookSecret];
    expect(stack.logLines.length).toBeGreaterThan(0);
    expect(stack.logLines.some((l) => l.includes('"audit"'))).toBe(true);
    for (const line of stack.logLines) {
      for (const secret of secrets) expect(line).not.toContain(secret);
      // Its claims or its signature alone would do to find it in a log (the header is the same in every token).
      for (const sent of sentTokens)
        for (const part of sent
          .split('.')
          .slice(1)
          .filter((p) => p.length > 16))
          expect(line).not.toContain(part);
    }
  });
});
