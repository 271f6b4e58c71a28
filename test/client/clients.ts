// The two frontend clients set up as the README's "Using it from a frontend"
// shows: urql (fetchExchange + graphql-ws subscriptionExchange) and Apollo
// Client (HttpLink + GraphQLWsLink, InMemoryCache with the generated
// possibleTypes), each optionally sending trusted documents by hash.
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, type TypedDocumentNode } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { Client as UrqlClient, cacheExchange, fetchExchange, subscriptionExchange } from '@urql/core';
import { persistedExchange } from '@urql/exchange-persisted';
import type { DocumentNode } from 'graphql';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import possibleTypesResult from '../../client/generated/possible-types.js';

/** The hash the client kit's typed documents carry (codegen's persistedDocuments, embedHashInDocument). */
export function documentHashOf(document: DocumentNode | TypedDocumentNode<unknown, unknown>): string {
  const hash = (document as { __meta__?: { hash?: string } }).__meta__?.hash;
  if (!hash) throw new Error('document has no __meta__.hash: not from client/generated');
  return hash;
}

export interface ClientOptions {
  graphqlUrl: string;
  token: string;
  /** Send documents by hash (TRUSTED_DOCUMENTS=enforce). */
  persisted?: boolean;
}

export interface Disposable {
  /** Closes the WebSocket the client opened, if any. */
  dispose(): Promise<void>;
}

function wsClientFor({ graphqlUrl, token }: ClientOptions): WsClient {
  return createWsClient({
    url: graphqlUrl.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
}

export function urqlClient(options: ClientOptions): { client: UrqlClient } & Disposable {
  const ws = wsClientFor(options);
  const client = new UrqlClient({
    url: options.graphqlUrl,
    // A new request per operation: the tests check what the gateway answers, not a cache.
    requestPolicy: 'network-only',
    fetchOptions: { headers: { authorization: `Bearer ${options.token}` } },
    exchanges: [
      cacheExchange,
      ...(options.persisted
        ? [
            persistedExchange({
              enforcePersistedQueries: true,
              enableForMutation: true,
              enableForSubscriptions: true,
              preferGetForPersistedQueries: false,
              generateHash: async (_query, document) => documentHashOf(document),
            }),
          ]
        : []),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          // graphql-ws requires a query string; a persisted request has none.
          const input = { ...request, query: request.query || '' };
          return { subscribe: (sink) => ({ unsubscribe: ws.subscribe(input, sink) }) };
        },
      }),
    ],
  });
  return { client, dispose: () => ws.dispose() as Promise<void> };
}

export function apolloClient(options: ClientOptions & { possibleTypes?: boolean }): { client: ApolloClient } & Disposable {
  const ws = wsClientFor(options);
  const http = new HttpLink({ uri: options.graphqlUrl, headers: { authorization: `Bearer ${options.token}` } });
  const transport = ApolloLink.split(
    ({ query }) => {
      const definition = getMainDefinition(query);
      return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
    },
    new GraphQLWsLink(ws),
    http,
  );
  const link = options.persisted
    ? new PersistedQueryLink({ generateHash: (document) => documentHashOf(document) }).concat(transport)
    : transport;
  const client = new ApolloClient({
    link,
    cache: new InMemoryCache(options.possibleTypes === false ? {} : { possibleTypes: possibleTypesResult.possibleTypes }),
    defaultOptions: { query: { fetchPolicy: 'network-only' } },
  });
  return {
    client,
    dispose: async () => {
      client.stop();
      await ws.dispose();
    },
  };
}
