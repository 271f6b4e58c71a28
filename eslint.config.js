// Lint: typescript-eslint's recommended rules (syntax only, no type information,
// so a run stays fast on 2 cores) plus the architecture of src/ as rules.
//
// Layering is checked on RESOLVED paths (import-x/no-restricted-paths), not on
// import strings, so `../x.js` and `../../x.js` are judged by the file they
// reach. The resolver maps the `.js` suffix of our relative imports to the
// `.ts` source (NodeNext convention) without eslint-import-resolver-typescript.
// An import the resolver cannot follow would silently escape those rules, so
// import-x/no-unresolved is on as well.
import { defineConfig } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The base of every internal error (src/errors/internal-error.ts) imports nothing: every folder may extend it, the
 * bottom layer and the leaves included.
 */
const INTERNAL_ERROR = './errors/internal-error.ts';

/** Allowed imports of one folder, as a zone: everything in src/ is forbidden to `target` except `allow`. */
function layer(target, allow, message) {
  return { target, from: './src', except: [target.replace(/^\.\/src\//, './'), INTERNAL_ERROR, ...allow], message };
}

const layering = [
  layer('./src/upstream', ['./config.ts', './logger.ts'], 'upstream/ is the bottom layer: it may import only config and logger.'),
  layer('./src/errors', ['./upstream', './logger.ts'], 'errors/ may import upstream/ and the logger only (masking logs what it hides).'),
  layer('./src/redis', ['./logger.ts', './config.ts'], 'redis/ may import logger and config only.'),
  layer(
    './src/idempotency',
    ['./upstream', './errors', './redis', './logger.ts', './config.ts'],
    'idempotency/ may import upstream, errors, redis, logger, config.',
  ),
  layer('./src/events', ['./upstream', './redis', './logger.ts', './files'], 'events/ may import upstream, redis, logger, files.'),
  layer(
    './src/ext-id-index',
    ['./upstream', './redis', './logger.ts', './files'],
    'ext-id-index/ (the ext_id index of charges seen) may import upstream, redis, logger, files.',
  ),
  layer(
    './src/inbound-webhooks',
    ['./events', './redis', './upstream', './logger.ts', './config.ts'],
    'inbound-webhooks/ may import events, redis, upstream, logger.',
  ),
  layer('./src/live', ['./events', './upstream', './errors', './logger.ts'], 'live/ may import events, upstream, errors, logger.'),
  layer(
    './src/reconcile',
    ['./events', './live', './upstream', './redis', './logger.ts'],
    'reconcile/ may import events, live, upstream, redis, logger.',
  ),
  layer(
    './src/payout-batches',
    ['./idempotency', './events', './upstream', './errors', './redis', './audit', './logger.ts', './config.ts'],
    'payout-batches/ may import idempotency, events, upstream, errors, redis, audit, logger, config.',
  ),
  layer(
    './src/merchants',
    ['./redis', './files'],
    'merchants/ (platform mode: the registry, its stores and the key ring) may import redis and files only.',
  ),
  // The one writer of audit lines, below every layer that has something to record.
  layer('./src/audit', ['./logger.ts'], 'audit/ (the one audit writer) may import the logger only.'),
  layer(
    './src/outbound-webhooks',
    [
      './events',
      './redis',
      './upstream',
      './observability',
      './logger.ts',
      './config.ts',
      './config-values',
      './files',
      './relay',
      './payout-batches/event-kinds.ts',
    ],
    'outbound-webhooks/ may import events, redis, upstream (its normalized shapes), observability, logger, config, relay ids and the payout-batch event kinds (never schema/ or http/).',
  ),
  layer(
    './src/auth',
    ['./config.ts', './config-values', './logger.ts', './upstream', './errors/token-problems.ts'],
    'auth/ may import config, logger, upstream types and what a refused token is told (errors/token-problems.ts).',
  ),
  // Observability sits beside the server: lower layers report to it through callbacks handed in by gateway.ts.
  layer(
    './src/observability',
    ['./config.ts', './logger.ts', './upstream'],
    'observability/ may import config, logger and upstream (its observation types); lower layers hand it callbacks.',
  ),
  layer(
    './src/limits',
    ['./config.ts', './logger.ts', './redis', './upstream', './auth', './errors'],
    'limits/ may import config, logger, redis, upstream, auth and errors (the catalogue; never schema/ or the server).',
  ),
  {
    target: './src/schema',
    from: [
      './src/http',
      './src/execution',
      './src/graphiql',
      './src/health',
      './src/gateway.ts',
      './src/assembly',
      './src/main.ts',
      './src/sandbox',
      './src/inbound-webhooks',
      './src/observability',
    ],
    message: 'schema/ never imports the HTTP surface, its plugins, gateway, main, sandbox, webhooks or observability.',
  },
  // Below everything: files/ and config-values/ are read by config.ts, so they import nothing of src/.
  layer('./src/relay', [], 'relay/ (Relay global ids) imports nothing from the rest of src/: every layer may use it.'),
  layer(
    './src/files',
    [],
    'files/ (where the project files lie) imports nothing from the rest of src/ but the error base: config reads it.',
  ),
  layer(
    './src/config-values',
    [],
    'config-values/ (durations, proxy trust) imports nothing from the rest of src/ but the error base: config reads it.',
  ),
  {
    // config.ts is read by every layer: it imports only the leaves below it, never a floor above.
    target: './src/config.ts',
    from: './src',
    except: ['./config.ts', './files', './config-values', INTERNAL_ERROR],
    message: 'config.ts may import only files/, config-values/ and the error base (leaves that import nothing of src/).',
  },
  layer('./src/health', ['./upstream', './logger.ts'], 'health/ (the probes) may import upstream and logger.'),
  layer('./src/graphiql', ['./files'], 'graphiql/ (the page, its tabs and live panel) may import files/ only.'),
  layer(
    './src/console',
    [],
    'console/ (serving the back office build) imports nothing from the rest of src/: http/ and gateway.ts hand it what it needs.',
  ),
  // The yoga plugins around execution: masking, request ids, trusted documents, shared event execution.
  layer(
    './src/execution',
    ['./errors', './upstream', './files', './config.ts', './logger.ts'],
    'execution/ may import errors, upstream, files, config and logger (never schema/, http/ or the assembly).',
  ),
  // The HTTP surface, on top of everything the gateway serves; only gateway.ts and main.ts stand above it.
  layer(
    './src/http',
    [
      './schema',
      './auth',
      './errors',
      './limits',
      './observability',
      './execution',
      './graphiql',
      './console',
      './health',
      './config.ts',
      './config-values',
      './logger.ts',
    ],
    'http/ may import schema, auth, errors, limits, observability, execution, graphiql, console, health, config(-values) and logger.',
  ),
  {
    // The sandbox stands in for the payment service: only its own entry point may read our config and logger.
    target: ['./src/sandbox/!(main).ts', './src/sandbox/*/**'],
    from: './src',
    except: ['./sandbox'],
    message: 'sandbox/ is a separate program: it imports nothing from the rest of src/.',
  },
  {
    target: './src/sandbox/main.ts',
    from: './src',
    except: ['./sandbox', './config.ts', './logger.ts'],
    message: 'sandbox/main.ts may import only sandbox/, config and logger.',
  },
  // The assembly's steps stand beside gateway.ts, above every other folder: they may import any of them, never the
  // file that runs them or the entry point.
  {
    target: './src/assembly',
    from: ['./src/gateway.ts', './src/main.ts'],
    message: 'assembly/ holds the steps gateway.ts runs: it imports neither gateway.ts nor main.ts.',
  },
  // Only src/main.ts may start the sandbox: the gateway itself never depends on the simulator.
  { target: './src/!(main).ts', from: './src/sandbox', message: 'Only src/main.ts imports the sandbox.' },
  { target: './src/!(sandbox)/**', from: './src/sandbox', message: 'Only src/main.ts imports the sandbox.' },
  { target: './src', from: ['./test', './bench', './scripts'], message: 'src/ never imports tests, benchmarks or scripts.' },
];

/**
 * Top-level GraphQL errors are built only through the catalogue (src/errors/top-level.ts: topLevelError and its
 * helpers), so every code's English, French, `retryable` and HTTP status come from its one declaration.
 */
/** Internal errors extend the one base, with a stable code (src/errors/internal-error.ts). */
const internalErrorsOnly = [
  {
    selector: "ThrowStatement > NewExpression[callee.name='Error']",
    message: 'Throw an InternalError subclass with a stable code (src/errors/internal-error.ts), not a bare Error.',
  },
  {
    selector: ':matches(ClassDeclaration, ClassExpression)[superClass.name=/^(Error|TypeError|RangeError)$/]',
    message: 'An internal error extends InternalError (src/errors/internal-error.ts) and declares its stable code.',
  },
];

const catalogueOnly = {
  selector: "NewExpression[callee.name='GraphQLError'], CallExpression[callee.name='createGraphQLError']",
  message: 'Raise top-level errors with topLevelError(code, params) from src/errors/top-level.ts (declare a new code there).',
};

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'test/gql/', 'client/generated/', '.scratch/', 'node_modules/'] },
  {
    files: ['**/*.ts', '**/*.js'],
    extends: [tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x builds no module map of .ts files.
      'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/ignore': ['node_modules'],
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.node'],
          extensionAlias: { '.js': ['.ts', '.js'] },
          conditionNames: ['import', 'types', 'require', 'node', 'default'],
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'import-x/no-unresolved': 'error',
      // Cycles: test/import-graph.test.ts is the rule (src/ and console/src/, type imports included).
      'import-x/no-self-import': 'error',
    },
  },
  {
    // The back office's React components (console/, built by Vite): TypeScript's recommended rules too.
    files: ['console/**/*.tsx'],
    extends: [tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } },
    rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }] },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layering }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/test/**', '**/bench/**', '**/scripts/**'], message: 'src/ never imports tests, benchmarks or scripts.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/errors/**', 'src/sandbox/**'],
    rules: { 'no-restricted-syntax': ['error', catalogueOnly, ...internalErrorsOnly] },
  },
  {
    // The catalogue and the bases live here: no bare throw, but its base classes extend Error.
    files: ['src/errors/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', internalErrorsOnly[0]] },
  },
  {
    // The simulator is a program of its own (the payment service's stand-in), outside the gateway's error classes.
    files: ['src/sandbox/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', catalogueOnly] },
  },
  {
    // A function fits on a screen (issue 28). Tests are out: a describe() callback holds a whole suite by design.
    files: ['src/**/*.ts', 'scripts/**/*.{ts,js,mjs}', 'bench/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // auth/ needs the shapes of upstream data, never the client that calls the service.
    files: ['src/auth/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/upstream/**'], allowTypeImports: true, message: 'auth/ may import upstream types only (import type).' }],
        },
      ],
    },
  },
  {
    // Signature checks compare secrets-derived digests: only crypto.timingSafeEqual may compare them.
    files: ['src/inbound-webhooks/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        catalogueOnly,
        ...internalErrorsOnly,
        {
          selector: "CallExpression[callee.property.name='equals']",
          message: 'Compare digests and signatures with crypto.timingSafeEqual, never Buffer#equals (not constant-time).',
        },
        {
          selector:
            "CallExpression[callee.object.name='Buffer'][callee.property.name='compare'], CallExpression[callee.property.name='localeCompare']",
          message: 'Compare digests and signatures with crypto.timingSafeEqual (constant-time).',
        },
        {
          // Names in camelCase only: SCREAMING constants such as DIGEST_BYTES are public lengths, not digests.
          selector:
            'BinaryExpression[operator=/^[!=]==?$/] > :matches(CallExpression[callee.property.name=/^(digest|toString|signBody)$/], Identifier[name=/[dD]igest|[sS]ignature|[hH]mac|[hH]ash|[eE]xpected|[cC]andidate|[rR]eceived/])',
          message: 'Compare digests and signatures with crypto.timingSafeEqual, never ==/=== (not constant-time).',
        },
      ],
    },
  },
);
