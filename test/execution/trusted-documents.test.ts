// Trusted documents against a real gateway in front of the sandbox, over HTTP
// and over WebSocket (a real graphql-ws client), with raw requests and with
// Apollo Client and urql set up as the README shows: `enforce` runs only the
// manifest's documents (the client kit's and a merchant's own), sent by hash;
// `allow` runs those and any text.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'graphql';
import { createClient, type Client, type FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import {
  BalanceDocument,
  ChargeUpdatedDocument,
  ChargesDocument,
  CreateChargeDocument,
  SubmitChargeOtpDocument,
} from '../../client/generated/graphql.js';
import manifest from '../../client/generated/persisted-documents.json' with { type: 'json' };
import { ConfigError, loadConfig } from '../../src/config.js';
import { loadTrustedDocuments } from '../../src/execution/trusted-documents.js';
import { apolloClient, documentHashOf, urqlClient } from '../client/clients.js';
import { startStack, type TestStack } from '../helpers/gateway.js';
import { post } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
const BALANCE = documentHashOf(BalanceDocument);

interface HttpAnswer {
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: { code?: string } }> };
}

/** A GraphQL request over HTTP with the staff token: its status and parsed body. */
async function postAsStaff(stack: TestStack, body: Record<string, unknown>): Promise<HttpAnswer> {
  const res = await post(stack.gateway.graphqlUrl, body, { authorization: `Bearer ${stack.staffToken}` });
  return { status: res.status, body: JSON.parse(res.raw) as HttpAnswer['body'] };
}

/** One operation over a real graphql-ws connection: every result until it completes. */
function overWebSocket(
  client: Client,
  payload: { query: string; variables?: Record<string, unknown>; extensions?: Record<string, unknown> },
) {
  return new Promise<FormattedExecutionResult<Record<string, unknown>, unknown>[]>((resolve, reject) => {
    const results: FormattedExecutionResult<Record<string, unknown>, unknown>[] = [];
    client.subscribe(payload, {
      next: (result) => void results.push(result),
      error: (err) => (Array.isArray(err) ? resolve([...results, { errors: err }]) : reject(err)),
      complete: () => resolve(results),
    });
  });
}

const codesOf = (result: { errors?: ReadonlyArray<{ extensions?: Record<string, unknown> }> }) =>
  (result.errors ?? []).map((e) => e.extensions?.code);

describe('TRUSTED_DOCUMENTS=enforce', () => {
  let stack: TestStack;
  let ws: Client;
  let dir: string;
  // A merchant's own operation, in its own manifest (TRUSTED_DOCUMENTS_MANIFEST).
  const MERCHANT_DOCUMENT = 'query BackOfficeWallets { balance { wallets { wallet available } } }';
  // One alias over MAX_ALIASES (15 by default): trusted, it still meets every validation limit.
  const OVER_ALIASES = `query ManyBalances { ${Array.from({ length: 16 }, (_, i) => `b${i}: balance { currency }`).join(' ')} }`;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'trusted-'));
    const merchantManifest = path.join(dir, 'merchant.json');
    writeFileSync(
      merchantManifest,
      JSON.stringify({ [sha256(MERCHANT_DOCUMENT)]: MERCHANT_DOCUMENT, [sha256(OVER_ALIASES)]: OVER_ALIASES }),
    );
    stack = await startStack({
      env: { TRUSTED_DOCUMENTS: 'enforce', TRUSTED_DOCUMENTS_MANIFEST: merchantManifest },
      sandboxWebhooks: true,
    });
    ws = createClient({
      url: stack.gateway.graphqlUrl.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${stack.staffToken}` },
      retryAttempts: 0,
    });
  });
  afterAll(async () => {
    await ws?.dispose();
    await stack?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a document sent as text, over HTTP and WebSocket, before anything reaches the service', async () => {
    // The charge list: nothing else (the readiness probe reads the balance) asks the service for it.
    const chargeListCalls = () => stack.sandbox.requests.count({ path: /\/charges/ });
    // Even the text of a manifest document: only its hash is trusted.
    const text = manifest[documentHashOf(ChargesDocument) as keyof typeof manifest];
    const variables = { first: 5 };

    const http = await postAsStaff(stack, { query: text, variables });
    expect(http.status).toBe(400);
    expect(codesOf(http.body)).toEqual(['TRUSTED_DOCUMENT_REQUIRED']);
    expect(http.body.errors?.[0]?.message).toMatch(/trusted documents only.*sha256Hash/);
    expect(http.body.data).toBeUndefined();

    const overWs = await overWebSocket(ws, { query: text, variables });
    expect(overWs).toHaveLength(1);
    expect(codesOf(overWs[0]!)).toEqual(['TRUSTED_DOCUMENT_REQUIRED']);

    expect(chargeListCalls()).toBe(0);
    // The same document by hash does reach it: the count above could have moved.
    const byHash = await postAsStaff(stack, { variables, extensions: persisted(documentHashOf(ChargesDocument)) });
    expect(byHash.body.errors).toBeUndefined();
    expect(chargeListCalls()).toBeGreaterThan(0);
  });

  it('runs a manifest document sent by hash, over HTTP and WebSocket', async () => {
    const http = await postAsStaff(stack, { extensions: persisted(BALANCE) });
    expect(http.status).toBe(200);
    expect(http.body.errors).toBeUndefined();
    expect(http.body.data).toMatchObject({ balance: { currency: 'XOF' } });

    // graphql-ws requires a query string: a persisted operation sends an empty one.
    const overWs = await overWebSocket(ws, { query: '', extensions: persisted(BALANCE) });
    expect(overWs).toEqual([{ data: expect.objectContaining({ balance: expect.objectContaining({ currency: 'XOF' }) }) }]);
  });

  it('applies to subscriptions over SSE too: a text refused, a hash streams', async () => {
    const sse = (body: Record<string, unknown>) =>
      fetch(stack.gateway.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${stack.staffToken}` },
        body: JSON.stringify(body),
      });
    const text = manifest[documentHashOf(ChargeUpdatedDocument) as keyof typeof manifest];
    const refused = await sse({ query: text, variables: { reference: 'ch_0' } });
    expect(await refused.text()).toContain('TRUSTED_DOCUMENT_REQUIRED');

    const created = await postAsStaff(stack, {
      variables: { input: { amount: 1300, phone: '76000000', provider: 'OPA_BF', idempotencyKey: randomUUID() } },
      extensions: persisted(documentHashOf(CreateChargeDocument)),
    });
    const reference = (created.body.data as { createCharge: { reference: string } }).createCharge.reference;
    const controller = new AbortController();
    const stream = await fetch(stack.gateway.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${stack.staffToken}` },
      body: JSON.stringify({ variables: { reference }, extensions: persisted(documentHashOf(ChargeUpdatedDocument)) }),
      signal: controller.signal,
    });
    try {
      expect(stream.headers.get('content-type')).toContain('text/event-stream');
      // The first event is the charge's current state.
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      let received = '';
      while (!/^data:.*SEND_OTP/m.test(received)) {
        const chunk = await reader.read();
        if (chunk.done) break;
        received += chunk.value;
      }
      expect(received).toMatch(new RegExp(`^data:.*"reference":"${reference}".*"status":"SEND_OTP"`, 'm'));
    } finally {
      controller.abort();
    }
  });

  it('runs a merchant’s own document from TRUSTED_DOCUMENTS_MANIFEST by hash', async () => {
    const http = await postAsStaff(stack, { extensions: persisted(sha256(MERCHANT_DOCUMENT)) });
    expect(http.body.errors).toBeUndefined();
    expect((http.body.data as { balance: { wallets: unknown[] } }).balance.wallets).toHaveLength(5);
  });

  it('runs a document sent by hash from its parsed form, each time, and still applies every validation limit to it', async () => {
    // The parsed document is kept from the start (loadTrustedDocuments): the first and the next runs answer alike.
    for (let run = 0; run < 2; run++) {
      const http = await postAsStaff(stack, { extensions: persisted(sha256(MERCHANT_DOCUMENT)) });
      expect(http.body.errors).toBeUndefined();
      expect(http.body.data).toMatchObject({ balance: { wallets: expect.any(Array) } });
    }
    for (let run = 0; run < 2; run++) {
      const refused = await postAsStaff(stack, { extensions: persisted(sha256(OVER_ALIASES)) });
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors?.map((e) => e.message)).toEqual([expect.stringMatching(/aliases limit/i)]);
    }
  });

  it('refuses an unknown hash with a final code (clients do not retry it with the text)', async () => {
    const unknown = sha256('query Nope { balance { currency } }');
    const http = await postAsStaff(stack, { extensions: persisted(unknown) });
    expect(http.status).toBe(400);
    expect(codesOf(http.body)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);

    const overWs = await overWebSocket(ws, { query: '', extensions: persisted(unknown) });
    expect(codesOf(overWs[0]!)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);

    // An unknown hash with a text is still a text: refused.
    const withText = await postAsStaff(stack, { query: '{ balance { currency } }', extensions: persisted(unknown) });
    expect(codesOf(withText.body)).toEqual(['TRUSTED_DOCUMENT_REQUIRED']);
  });

  it('runs the manifest’s document when a known hash comes with another text', async () => {
    const http = await postAsStaff(stack, { query: '{ __typename }', extensions: persisted(BALANCE) });
    expect(http.body.data).toMatchObject({ balance: { currency: 'XOF' } });
    const overWs = await overWebSocket(ws, { query: '{ __typename }', extensions: persisted(BALANCE) });
    expect(overWs[0]?.data).toMatchObject({ balance: { currency: 'XOF' } });
  });

  it('serves Apollo Client (PersistedQueryLink) for a mutation and a subscription over graphql-ws', async () => {
    const apollo = apolloClient({ graphqlUrl: stack.gateway.graphqlUrl, token: stack.staffToken, persisted: true });
    try {
      const { data } = await apollo.client.mutate({
        mutation: CreateChargeDocument,
        variables: { input: { amount: 1500, phone: '76000000', provider: 'OPA_BF', idempotencyKey: randomUUID() } },
      });
      const created = data!.createCharge;
      if (created.__typename !== 'CreateChargePayload') throw new Error(`createCharge answered ${created.__typename}`);

      const statuses: string[] = [];
      const errors: unknown[] = [];
      let completed = false;
      const subscription = apollo.client
        .subscribe({ query: ChargeUpdatedDocument, variables: { reference: created.reference } })
        .subscribe({
          next: (result) => (result.error ? errors.push(result.error) : result.data && statuses.push(result.data.chargeUpdated.status)),
          error: (err) => errors.push(err),
          complete: () => (completed = true),
        });
      try {
        await waitFor(() => statuses.length > 0 || errors.length > 0, 'the charge’s current state', 10_000);
        const submitted = await apollo.client.mutate({
          mutation: SubmitChargeOtpDocument,
          variables: { reference: created.reference, otp: '123456' },
        });
        expect(submitted.data?.submitChargeOtp).toMatchObject({ charge: { status: 'SUCCESS' } });
        await waitFor(() => completed || errors.length > 0, 'chargeUpdated to complete', 10_000);
      } finally {
        subscription.unsubscribe();
      }
      expect(errors).toEqual([]);
      expect(statuses).toEqual(['SEND_OTP', 'SUCCESS']);
    } finally {
      await apollo.dispose();
    }
  });

  it('serves urql (persistedExchange) for a query and a subscription over graphql-ws', async () => {
    const urql = urqlClient({ graphqlUrl: stack.gateway.graphqlUrl, token: stack.staffToken, persisted: true });
    try {
      const balance = await urql.client.query(BalanceDocument, {}).toPromise();
      expect(balance.error).toBeUndefined();
      expect(balance.data?.balance.currency).toBe('XOF');

      const created = await urql.client
        .mutation(CreateChargeDocument, { input: { amount: 1700, phone: '76000000', provider: 'OPA_BF', idempotencyKey: randomUUID() } })
        .toPromise();
      const charge = created.data!.createCharge;
      if (charge.__typename !== 'CreateChargePayload') throw new Error(`createCharge answered ${charge.__typename}`);
      const seen: string[] = [];
      const errors: unknown[] = [];
      const { unsubscribe } = urql.client.subscription(ChargeUpdatedDocument, { reference: charge.reference }).subscribe((result) => {
        if (result.error) errors.push(result.error);
        else if (result.data) seen.push(result.data.chargeUpdated.status);
      });
      try {
        await waitFor(() => seen.length > 0 || errors.length > 0, 'the charge’s current state', 10_000);
      } finally {
        unsubscribe();
      }
      expect(errors).toEqual([]);
      expect(seen[0]).toBe('SEND_OTP');
    } finally {
      await urql.dispose();
    }
  });
});

describe('TRUSTED_DOCUMENTS=allow', () => {
  let stack: TestStack;
  let ws: Client;

  beforeAll(async () => {
    stack = await startStack({ env: { TRUSTED_DOCUMENTS: 'allow' } });
    ws = createClient({
      url: stack.gateway.graphqlUrl.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${stack.staffToken}` },
      retryAttempts: 0,
    });
  });
  afterAll(async () => {
    await ws?.dispose();
    await stack?.close();
  });

  it('runs both a text and a manifest hash, over HTTP and WebSocket', async () => {
    const text = await postAsStaff(stack, { query: '{ balance { currency } }' });
    expect(text.body).toEqual({ data: { balance: { currency: 'XOF' } } });
    const byHash = await postAsStaff(stack, { extensions: persisted(BALANCE) });
    expect(byHash.body.data).toMatchObject({ balance: { currency: 'XOF' } });

    expect(await overWebSocket(ws, { query: '{ balance { currency } }' })).toEqual([{ data: { balance: { currency: 'XOF' } } }]);
    const wsByHash = await overWebSocket(ws, { query: '', extensions: persisted(BALANCE) });
    expect(wsByHash[0]?.data).toMatchObject({ balance: { currency: 'XOF' } });
  });

  it('answers an unknown hash with PERSISTED_QUERY_NOT_FOUND, on which Apollo sends the text and it runs', async () => {
    const adHoc = 'query AdHoc { balance { currency } }';
    const http = await postAsStaff(stack, { extensions: persisted(sha256(adHoc)) });
    expect(codesOf(http.body)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);

    // Automatic persisted queries: hash first, then hash and text.
    const apollo = new ApolloClient({
      link: ApolloLink.from([
        new PersistedQueryLink({ sha256 }),
        new HttpLink({ uri: stack.gateway.graphqlUrl, headers: { authorization: `Bearer ${stack.staffToken}` } }),
      ]),
      cache: new InMemoryCache(),
    });
    try {
      const { data } = await apollo.query({ query: parse(adHoc) });
      expect(data).toEqual({ balance: { __typename: 'Balance', currency: 'XOF' } });
    } finally {
      apollo.stop();
    }
  });
});

describe('trusted documents configuration', () => {
  const live = { PAYMENT_BASE_URL: 'https://api.example/', PAYMENT_API_KEY: 'sk_live_x', AUTH_JWT_SECRET: 'x'.repeat(32) };

  it('is allow in both modes unless set', () => {
    expect(loadConfig({}).trustedDocuments).toEqual({ mode: 'allow', extraManifests: [] });
    expect(loadConfig(live).trustedDocuments.mode).toBe('allow');
    expect(loadConfig({ ...live, TRUSTED_DOCUMENTS: 'enforce' }).trustedDocuments.mode).toBe('enforce');
    expect(loadConfig({ TRUSTED_DOCUMENTS_MANIFEST: ' a.json, ,b.json ' }).trustedDocuments.extraManifests).toEqual(['a.json', 'b.json']);
  });

  it('refuses an unknown mode with one line naming the variable', () => {
    expect(() => loadConfig({ TRUSTED_DOCUMENTS: 'strict' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUSTED_DOCUMENTS: 'strict' })).toThrow(/^TRUSTED_DOCUMENTS is invalid/);
  });

  it('stops on a manifest that is missing, malformed, or whose key is not its document’s sha256', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'trusted-'));
    try {
      const file = (name: string, content: string) => {
        writeFileSync(path.join(dir, name), content);
        return path.join(dir, name);
      };
      const document = '{ balance { currency } }';
      const load = (extra: string) => () => loadTrustedDocuments({ mode: 'enforce', extraManifests: [extra] });
      expect(load(path.join(dir, 'absent.json'))).toThrow(/absent\.json: file not found/);
      expect(load(file('list.json', '[]'))).toThrow(/list\.json: expected a JSON object/);
      expect(load(file('wrong.json', JSON.stringify({ [sha256('other')]: document })))).toThrow(/wrong\.json: .* is not the sha256/);
      expect(load(file('broken.json', JSON.stringify({ [sha256('query {')]: 'query {' })))).toThrow(/does not parse/);
      // The client preset's default key form, "sha256:<hex>", is accepted as it is.
      const prefixed = loadTrustedDocuments({
        mode: 'enforce',
        extraManifests: [file('prefixed.json', JSON.stringify({ [`sha256:${sha256(document)}`]: document }))],
      });
      expect(prefixed?.documents.get(`sha256:${sha256(document)}`)).toBe(document);
      // The built-in manifest is always there.
      expect(prefixed?.documents.get(BALANCE)).toBe(manifest[BALANCE as keyof typeof manifest]);
      expect(loadTrustedDocuments({ mode: 'off', extraManifests: [] })).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
