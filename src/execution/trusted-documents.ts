// Trusted documents (TRUSTED_DOCUMENTS): the gateway runs documents it knows by
// their hash, sent as extensions.persistedQuery.sha256Hash (what Apollo Client's
// PersistedQueryLink and urql's persistedExchange send). `enforce` runs nothing
// else; `allow` runs arbitrary documents too. The manifest is the client kit's
// (client/generated/persisted-documents.json, written by `npm run codegen`) plus
// the merchant's own files (TRUSTED_DOCUMENTS_MANIFEST), all in the same format:
// a JSON object of hash -> document.
//
// HTTP goes through yoga's persisted-operations plugin, handed the document parsed once at
// start: a request by hash skips the parser and its cache lookup, and yoga's validation
// cache, keyed by that very document object, validates it on its first run only, with every
// rule (the limits of src/limits/ included; the token limit guards the parser, not needed here).
// WebSocket operations do
// not pass through yoga's request pipeline (no onParams): src/http/websocket.ts hands each
// one to yoga's envelop, so the same rules are applied there, in onEnveloped.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { topLevelError } from '../errors/top-level.js';
import { defaultExtractPersistedOperationId, usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { TrustedDocumentsMode } from '../config.js';
import { projectPath } from '../files/project-files.js';
import { InternalError } from '../errors/internal-error.js';

/**
 * The documents a client may send by hash (the client kit's manifest and the deployment's), and the plugins that
 * enforce the mode.
 */
export interface TrustedDocuments {
  mode: Exclude<TrustedDocumentsMode, 'off'>;
  /** hash -> document text. */
  documents: ReadonlyMap<string, string>;
  /** hash -> the same document, parsed at start. */
  parsed: ReadonlyMap<string, DocumentNode>;
}

const BUILT_IN_MANIFEST = ['client', 'generated', 'persisted-documents.json'] as const;

class TrustedDocumentsError extends InternalError {
  override readonly name = 'TrustedDocumentsError';
  readonly code = 'TRUSTED_DOCUMENTS_INVALID';
}

/** Reads and checks the manifests; null when TRUSTED_DOCUMENTS is off. Any problem stops the start. */
export function loadTrustedDocuments(config: { mode: TrustedDocumentsMode; extraManifests: string[] }): TrustedDocuments | null {
  if (config.mode === 'off') return null;
  const documents = new Map<string, string>();
  const parsed = new Map<string, DocumentNode>();
  for (const file of [projectPath(...BUILT_IN_MANIFEST), ...config.extraManifests]) {
    for (const [hash, document, ast] of readManifest(file)) {
      documents.set(hash, document);
      parsed.set(hash, ast);
    }
  }
  return { mode: config.mode, documents, parsed };
}

function readManifest(file: string): Array<[string, string, DocumentNode]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : 'not readable JSON';
    throw new TrustedDocumentsError(`trusted documents manifest ${file}: ${reason}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new TrustedDocumentsError(`trusted documents manifest ${file}: expected a JSON object of hash -> document`);
  }
  return Object.entries(parsed as Record<string, unknown>).map(([hash, document]) => checkedEntry(file, hash, document));
}

function checkedEntry(file: string, hash: string, document: unknown): [string, string, DocumentNode] {
  if (typeof document !== 'string') throw new TrustedDocumentsError(`trusted documents manifest ${file}: ${hash} is not a document string`);
  // A key that is not the document's own sha256 would let a client think it runs one document
  // while the gateway runs another: refuse the manifest. "sha256:<hex>" is the client preset's default form.
  if (hash.replace(/^sha256:/, '') !== createHash('sha256').update(document).digest('hex')) {
    throw new TrustedDocumentsError(`trusted documents manifest ${file}: ${hash} is not the sha256 (hex) of its document`);
  }
  try {
    return [hash, document, parse(document)];
  } catch {
    throw new TrustedDocumentsError(`trusted documents manifest ${file}: the document of ${hash} does not parse`);
  }
}

// The codes Apollo Client and urql act on: PERSISTED_QUERY_NOT_FOUND makes them send the
// full text again (useful in allow mode only); the enforce codes are final.
const refusals = {
  textNotTrusted: () => topLevelError('TRUSTED_DOCUMENT_REQUIRED', undefined),
  unknownHashEnforced: () => topLevelError('PERSISTED_QUERY_NOT_IN_LIST', undefined),
  // The message is the one automatic-persisted-query clients look for, besides the code.
  unknownHashAllowed: () => topLevelError('PERSISTED_QUERY_NOT_FOUND', undefined),
  nothingSent: () => topLevelError('PERSISTED_QUERY_ID_REQUIRED', undefined),
};

type OperationParams = { query?: string; operationName?: string | null; variables?: unknown; extensions?: Record<string, unknown> | null };

/** The yoga plugins, in order; register them all. */
export function useTrustedDocuments(trusted: TrustedDocuments): Plugin[] {
  const { mode, documents, parsed } = trusted;
  // The plugin's own reading of the hash (it looks at params only), for both transports.
  const hashOf = defaultExtractPersistedOperationId as (params: OperationParams) => string | null;

  // A known hash wins over a text sent along with it (Apollo's GraphQLWsLink always sends the
  // text): the manifest's document runs, never the text, so both transports answer the same.
  const knownHashWins: Plugin = {
    onParams({ params, setParams }) {
      const hash = hashOf(params as OperationParams);
      if (params.query && hash !== null && documents.has(hash)) setParams({ ...params, query: undefined });
    },
  };

  const persistedOverHttp = usePersistedOperations({
    getPersistedOperation: (hash) => parsed.get(hash) ?? null,
    allowArbitraryOperations: mode === 'allow',
    customErrors: {
      persistedQueryOnly: refusals.textNotTrusted,
      notFound: mode === 'enforce' ? refusals.unknownHashEnforced : refusals.unknownHashAllowed,
      keyNotFound: refusals.nothingSent,
    },
  }) as Plugin;

  const persistedOverWebSocket: Plugin = {
    onEnveloped({ context }) {
      // HTTP contexts carry the Fetch request and were handled above; a WebSocket operation's
      // context (src/http/websocket.ts) carries its subscribe payload as `params`, whose query the server
      // parses right after: the trusted text is put there before that happens.
      const ctx = context as { request?: unknown; params?: OperationParams } | undefined;
      if (!ctx || ctx.request !== undefined || !ctx.params) return;
      // The same decisions, in the same order, as over HTTP.
      const params = ctx.params;
      const hash = hashOf(params);
      const document = hash === null ? undefined : documents.get(hash);
      if (document !== undefined) params.query = document;
      else if (params.query) {
        if (mode === 'enforce') throw refusals.textNotTrusted();
      } else if (hash === null) throw refusals.nothingSent();
      else throw mode === 'enforce' ? refusals.unknownHashEnforced() : refusals.unknownHashAllowed();
    },
  };

  return [knownHashWins, persistedOverHttp, persistedOverWebSocket];
}
