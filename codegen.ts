// GraphQL Code Generator: typed documents for the operations the tests send,
// generated from the committed schema.graphql. The output (test/gql/) is not
// committed: `npm test` regenerates it first (pretest), so a schema change
// that breaks an operation breaks the typecheck on every run, CI included.
// The client kit (client/generated/, committed) has its own config: codegen.client.ts;
// `npm run codegen` runs both.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['test/**/*.ts', '!test/gql/**'],
  ignoreNoDocuments: false,
  // ESM with NodeNext resolution: generated relative imports need their .js extension.
  emitLegacyCommonJSImports: false,
  generates: {
    'test/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { DateTime: 'string', Date: 'string', JSON: 'unknown' },
      },
    },
  },
};

export default config;
