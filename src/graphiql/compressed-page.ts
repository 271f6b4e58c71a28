// GraphiQL's page (megabytes of inlined assets) goes out compressed: brotli or
// gzip as the browser accepts, each compressed once per process and reused.
// Not yoga's useContentEncoding (@whatwg-node/server), whose rules differ from ours: it also inflates
// request bodies sent with Content-Encoding (a gzip bomb would pass MAX_BODY_BYTES, counted on the wire),
// recompresses every response on each request instead of this one page once, ignores q=0 and sends no Vary.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'graphql-yoga';

type Encoding = 'br' | 'gzip';

// On libuv's thread pool: compressing megabytes must not hold the event loop (and /health) meanwhile.
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export function preferredEncoding(acceptEncoding: string | null): Encoding | null {
  const accepted = (acceptEncoding ?? '')
    .toLowerCase()
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
    .map(([name]) => name);
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return null;
}

/** The yoga plugin that sends GraphiQL's page brotli- or gzip-compressed, compressed once. */
export function useCompressedHtml(): Plugin {
  const cache = new Map<string, Buffer>();
  return {
    onResponse: async ({ request, response, setResponse, fetchAPI }) => {
      if (!response.headers.get('content-type')?.startsWith('text/html') || response.headers.has('content-encoding')) return;
      const encoding = preferredEncoding(request.headers.get('accept-encoding'));
      const html = Buffer.from(await response.arrayBuffer());
      const headers = new fetchAPI.Headers(response.headers);
      headers.append('vary', 'Accept-Encoding');
      headers.delete('content-length');
      if (!encoding) {
        setResponse(new fetchAPI.Response(html, { status: response.status, headers }));
        return;
      }
      const cacheKey = `${encoding}:${createHash('sha256').update(html).digest('hex')}`;
      let body = cache.get(cacheKey);
      if (!body) {
        body =
          encoding === 'br'
            ? await brotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: html.length } })
            : await gzipAsync(html, { level: 6 });
        // One page per gateway in each encoding: a few entries are all there is to keep.
        if (cache.size >= 4) cache.delete(cache.keys().next().value!);
        cache.set(cacheKey, body);
      }
      headers.set('content-encoding', encoding);
      setResponse(new fetchAPI.Response(new Uint8Array(body) as Uint8Array<ArrayBuffer>, { status: response.status, headers }));
    },
  };
}
