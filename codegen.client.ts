// GraphQL Code Generator: the client kit. From the project's own operations
// (client/operations/*.graphql) and the committed schema.graphql it writes, in
// client/generated/ (committed, like schema.graphql; `npm run codegen` rewrites it
// and test/client/generated.test.ts fails when it drifts):
// - graphql.ts: a TypedDocumentNode per operation, its hash in `__meta__.hash`;
// - persisted-documents.json: the trusted-documents manifest (hash -> document)
//   the gateway loads for TRUSTED_DOCUMENTS=allow|enforce;
// - possible-types.ts: the union and interface members Apollo Client's cache
//   needs, without which it drops `... on PaymentError { ... }` inside a union.
import { createHash } from 'node:crypto';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { addTypenameSelectionDocumentTransform, preset as clientPreset } from '@graphql-codegen/client-preset';

export const CLIENT_OPERATIONS = 'client/operations/*.graphql';
/** The back office's own documents (console/): typed and in the manifest like the kit's, so it runs under TRUSTED_DOCUMENTS=enforce. */
export const CONSOLE_OPERATIONS = 'console/operations/*.graphql';
export const CLIENT_GENERATED_DIR = 'client/generated/';

/**
 * The hash clients send as extensions.persistedQuery.sha256Hash: the bare hex
 * sha256 of the document text, as automatic persisted queries use it (the
 * preset's own 'sha256' would prefix it with "sha256:").
 */
export const documentHash = (document: string): string => createHash('sha256').update(document).digest('hex');

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: [CLIENT_OPERATIONS, CONSOLE_OPERATIONS],
  ignoreNoDocuments: false,
  emitLegacyCommonJSImports: false,
  generates: {
    [CLIENT_GENERATED_DIR]: {
      // The preset itself, not its name: the CLI and the drift test (which runs codegen in-process)
      // would otherwise each resolve 'client' to a different installed copy.
      preset: clientPreset as never, // the preset's and the CLI's copies of plugin-helpers' types differ
      // Apollo and urql add __typename to what they send; adding it here keeps the
      // manifest's documents exactly what the clients run (and their caches need it).
      documentTransforms: [addTypenameSelectionDocumentTransform],
      presetConfig: {
        fragmentMasking: false,
        persistedDocuments: { mode: 'embedHashInDocument', hashPropertyName: 'hash', hashAlgorithm: documentHash },
      },
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { DateTime: 'string', Date: 'string', JSON: 'unknown' },
      },
    },
    [`${CLIENT_GENERATED_DIR}possible-types.ts`]: {
      plugins: ['fragment-matcher'],
      // Sorted, so the committed file changes only when the schema does.
      config: { deterministic: true },
    },
  },
};

export default config;
