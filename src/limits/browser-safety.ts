// A web page of another site can send, without a CORS preflight, only GETs
// and POSTs of a form (urlencoded, multipart) or of text/plain. None of them
// may run an operation here: such POSTs are refused outright (415), whatever
// headers they carry, and a GET must carry a header no browser adds
// cross-site without a preflight (yoga's CSRF prevention).
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import type { Plugin } from 'graphql-yoga';
import { topLevelErrorBody } from '../errors/top-level.js';

/**
 * Headers that a browser never adds to a cross-site request without a preflight: a request carrying one was
 * either preflighted (and CORS-checked) or not sent by a browser. Every operation with data needs `authorization`.
 */
export const CSRF_HEADERS = ['authorization', 'x-graphql-yoga-csrf', 'apollo-require-preflight', 'x-apollo-operation-name'];

const SIMPLE_BODY_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/**
 * The yoga plugin refusing what a page of another site could send without a preflight (form posts, GETs without a
 * header of ours).
 */
export function useBrowserSafety(): Plugin[] {
  const refuseSimpleBodies: Plugin = {
    onRequest: ({ request, endResponse, fetchAPI }) => {
      if (request.method !== 'POST') return;
      const type = (request.headers.get('content-type') ?? '').toLowerCase();
      if (!SIMPLE_BODY_TYPES.some((simple) => type.startsWith(simple))) return;
      endResponse(
        new fetchAPI.Response(JSON.stringify({ errors: [topLevelErrorBody('UNSUPPORTED_MEDIA_TYPE', undefined)] }), {
          status: 415,
          headers: { 'content-type': 'application/json' },
        }),
      );
    },
  };
  return [refuseSimpleBodies, useCSRFPrevention({ requestHeaders: CSRF_HEADERS }) as Plugin];
}
