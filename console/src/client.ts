// The back office's GraphQL client: urql over HTTP for queries and mutations, graphql-ws for everything live, both
// sending the client kit's documents by hash only (persisted documents), so the console runs under
// TRUSTED_DOCUMENTS=enforce. The token is read at each request from memory (never stored by the page).
import { persistedExchange } from '@urql/exchange-persisted';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { Client, cacheExchange, fetchExchange, mapExchange, subscriptionExchange } from 'urql';
import { isUnauthenticated } from './lib/errors.js';

export interface ConsoleClient {
  client: Client;
  ws: WsClient;
}

const GRAPHQL_PATH = '/graphql';
/** How a platform operator's token names the merchant it acts for (src/schema/platform.ts). */
const MERCHANT_HEADER = 'x-merchant-id';

/**
 * A client for one token and, in platform mode, the merchant an operator's token names (null: none named; a
 * merchant's own token carries its merchant). A new merchant is a new client: no cached answer of one merchant is
 * ever shown while acting for another.
 */
export function createConsoleClient(token: string, namedMerchant: string | null, onUnauthenticated: () => void): ConsoleClient {
  const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${GRAPHQL_PATH}`;
  const ws = createWsClient({
    url: wsUrl,
    lazy: true,
    retryAttempts: 5,
    connectionParams: () => ({ authorization: `Bearer ${token}`, ...(namedMerchant ? { merchantId: namedMerchant } : {}) }),
    // 4403: the gateway closed the socket because the token expired or was refused.
    shouldRetry: (event) => (event as CloseEvent | undefined)?.code !== 4403,
    on: {
      closed: (event) => {
        if ((event as CloseEvent | undefined)?.code === 4403) onUnauthenticated();
      },
    },
  });
  const client = new Client({
    url: GRAPHQL_PATH,
    requestPolicy: 'cache-and-network',
    fetchOptions: () => ({
      headers: { authorization: `Bearer ${token}`, ...(namedMerchant ? { [MERCHANT_HEADER]: namedMerchant } : {}) },
    }),
    exchanges: [
      mapExchange({
        onError(error) {
          if (isUnauthenticated(error)) onUnauthenticated();
        },
      }),
      cacheExchange,
      persistedExchange({
        enforcePersistedQueries: true,
        enableForMutation: true,
        enableForSubscriptions: true,
        // POST: phones and amounts stay out of URLs and logs.
        preferGetForPersistedQueries: false,
        generateHash: async (_query, document) => (document as { __meta__?: { hash: string } }).__meta__!.hash,
      }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query || '' };
          return { subscribe: (sink) => ({ unsubscribe: ws.subscribe(input, sink) }) };
        },
      }),
    ],
  });
  return { client, ws };
}
