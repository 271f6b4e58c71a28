// The architecture rules live in eslint.config.js; these tests make sure the
// config really catches what it claims to (a resolver that silently fails to
// follow `.js` -> `.ts` imports would make every layering rule pass vacuously),
// and that the webhook signature check stays constant-time.
import nodeCrypto from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signBody, verifySignature } from '../src/inbound-webhooks/signature.js';

/**
 * Counts calls of crypto.timingSafeEqual while the signature tests run. Node's own way to replace a
 * built-in's export: change the module object, then syncBuiltinESMExports() updates what `import {
 * timingSafeEqual } from 'node:crypto'` sees (no module mock, so this file shares its worker's modules).
 */
const crypto = { calls: 0 };
const { timingSafeEqual } = nodeCrypto;
function countTimingSafeEqual(on: boolean) {
  nodeCrypto.timingSafeEqual = on
    ? (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
        crypto.calls++;
        return timingSafeEqual(a, b);
      }
    : timingSafeEqual;
  syncBuiltinESMExports();
}

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });
// The layering checks run without import-x/no-cycle, which walks the whole import graph behind the file
// linted (seconds for ../schema/index.js) and decides nothing they assert; the cycle checks use the full config.
const eslintWithoutCycles = new ESLint({ cwd: root, overrideConfig: { rules: { 'import-x/no-cycle': 'off' } } });

/** Rule ids reported for `code` as if it were the file at `path` (relative to the repo root). */
async function rulesHit(path: string, code: string, linter = eslint): Promise<string[]> {
  const [result] = await linter.lintText(code, { filePath: `${root}${path}` });
  const fatal = result!.messages.filter((m) => m.fatal);
  expect(fatal).toEqual([]);
  return result!.messages.map((m) => m.ruleId ?? '');
}

const LAYERING = 'import-x/no-restricted-paths';
const layeringHit = (path: string, code: string) => rulesHit(path, code, eslintWithoutCycles);

describe('layering rules', () => {
  it.each([
    ['src/upstream/x.ts', '../schema/index.js'],
    ['src/upstream/x.ts', '../inbound-webhooks/signature.js'],
    ['src/sandbox/x.ts', '../logger.js'],
    ['src/sandbox/sub/x.ts', '../../config.js'],
    ['src/sandbox/main.ts', '../gateway.js'],
    ['src/errors/x.ts', '../redis/index.js'],
    ['src/redis/x.ts', '../upstream/types.js'],
    ['src/idempotency/x.ts', '../schema/index.js'],
    ['src/events/x.ts', '../inbound-webhooks/receiver.js'],
    ['src/inbound-webhooks/x.ts', '../live/index.js'],
    ['src/live/x.ts', '../schema/index.js'],
    ['src/auth/x.ts', '../http/server.js'],
    ['src/schema/x.ts', '../http/server.js'],
    ['src/schema/x.ts', '../execution/trusted-documents.js'],
    ['src/schema/x.ts', '../inbound-webhooks/signature.js'],
    ['src/http/server.ts', '../sandbox/index.js'],
    ['src/http/x.ts', '../inbound-webhooks/receiver.js'],
    ['src/http/x.ts', '../gateway.js'],
    ['src/config-values/x.ts', '../http/caller.js'],
    ['src/config-values/x.ts', '../config.js'],
    ['src/config.ts', './http/client-address.js'],
    ['src/config.ts', './auth/index.js'],
    ['src/config.ts', './logger.js'],
    ['src/execution/x.ts', '../schema/index.js'],
    ['src/execution/x.ts', '../http/caller.js'],
    ['src/graphiql/x.ts', '../http/server.js'],
    ['src/health/x.ts', '../http/server.js'],
    ['src/files/x.ts', '../config.js'],
    ['src/limits/x.ts', '../graphiql/compressed-page.js'],
    ['src/gateway.ts', './sandbox/index.js'],
    ['src/live/x.ts', '../sandbox/index.js'],
    ['src/audit/x.ts', '../schema/index.js'],
    ['src/audit/x.ts', '../payout-batches/model.js'],
  ])('%s may not import %s', async (file, target) => {
    expect(await layeringHit(file, `import * as m from '${target}';\nexport { m };\n`)).toContain(LAYERING);
  });

  it.each([
    ['src/upstream/x.ts', '../config.js'],
    ['src/upstream/x.ts', '../logger.js'],
    ['src/upstream/x.ts', './types.js'],
    ['src/sandbox/x.ts', './clock.js'],
    ['src/sandbox/main.ts', '../logger.js'],
    ['src/main.ts', './sandbox/index.js'],
    ['src/errors/x.ts', '../upstream/types.js'],
    ['src/errors/x.ts', '../logger.js'],
    ['src/live/x.ts', '../events/bus.js'],
    ['src/schema/x.ts', '../upstream/types.js'],
    ['src/idempotency/x.ts', '../config.js'],
    ['src/http/x.ts', '../schema/index.js'],
    ['src/http/x.ts', '../errors/error-masking.js'],
    ['src/http/x.ts', '../health/readiness.js'],
    ['src/execution/x.ts', '../errors/top-level.js'],
    ['src/graphiql/x.ts', '../files/project-files.js'],
    ['src/health/x.ts', '../upstream/types.js'],
    ['src/config.ts', './config-values/proxy-trust.js'],
    ['src/config.ts', './files/project-files.js'],
    ['src/http/x.ts', '../config-values/proxy-trust.js'],
    ['src/payout-batches/x.ts', '../audit/audit-lines.js'],
    ['src/schema/x.ts', '../audit/audit-lines.js'],
  ])('%s may import %s', async (file, target) => {
    const hits = await layeringHit(file, `import * as m from '${target}';\nexport { m };\n`);
    expect(hits).not.toContain(LAYERING);
    expect(hits).not.toContain('import-x/no-unresolved');
  });

  it.each([
    ['src/upstream/x.ts', '../errors/internal-error.js'],
    ['src/files/x.ts', '../errors/internal-error.js'],
    ['src/config.ts', './errors/internal-error.js'],
    ['src/auth/x.ts', '../errors/token-problems.js'],
  ])('%s may import the error base %s (a leaf)', async (file, target) => {
    const hits = await layeringHit(file, `import * as m from '${target}';\nexport { m };\n`);
    expect(hits).not.toContain(LAYERING);
    expect(hits).not.toContain('import-x/no-unresolved');
  });

  it('auth/ imports upstream types only', async () => {
    expect(await layeringHit('src/auth/x.ts', `import { x } from '../upstream/types.js';\nexport { x };\n`)).toContain(
      '@typescript-eslint/no-restricted-imports',
    );
    const typeOnly = await layeringHit('src/auth/x.ts', `import type { x } from '../upstream/types.js';\nexport type { x };\n`);
    expect(typeOnly).not.toContain('@typescript-eslint/no-restricted-imports');
    expect(typeOnly).not.toContain(LAYERING);
  });

  it('src/ never imports tests or benchmarks, at any relative depth', async () => {
    expect(await layeringHit('src/x.ts', `import '../test/helpers/gateway.js';\n`)).toContain(LAYERING);
    expect(await layeringHit('src/live/x.ts', `import '../../bench/run.js';\n`)).toContain(LAYERING);
  });

  it('an import that does not resolve is an error, not a silent pass', async () => {
    expect(await layeringHit('src/upstream/x.ts', `import '../schema/nope.js';\n`)).toContain('import-x/no-unresolved');
  });
});

describe('one source for each fact', () => {
  /** The files of src/ (the sandbox aside) whose text matches `pattern`, relative to the repository. */
  const filesMatching = (pattern: RegExp): string[] => {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = `${dir}/${entry.name}`;
        if (entry.isDirectory() && entry.name !== 'sandbox') walk(full);
        else if (entry.name.endsWith('.ts') && pattern.test(readFileSync(full, 'utf8'))) found.push(full.slice(root.length));
      }
    };
    walk(`${root}src`);
    return found.sort();
  };

  it('Relay global ids are encoded in one module', () => {
    expect(filesMatching(/Buffer\.from\(`[^`]*:\$\{[^`]*`[^)]*\)\.toString\('base64url'\)/)).toEqual(['src/relay/global-id.ts']);
  });

  it('the payout-batch event kinds are listed in one module, which webhook endpoints read', () => {
    // payout-batches/ publishes them by name, each checked by tsc against the list (PayoutBatchEventKind).
    const naming = filesMatching(/payout_batch\.(queued|awaiting_approval|approved|running|progress|paused|completed|cancell)/);
    expect(naming.filter((file) => !file.startsWith('src/payout-batches/'))).toEqual([]);
    expect(naming).toContain('src/payout-batches/event-kinds.ts');
  });

  it('the service’s words are read in one module', () => {
    expect(
      filesMatching(/\/[^/\n]*(not found|insufficient|invalid api key|payment account|already exists|not registered)[^/\n]*\/i/),
    ).toEqual(['src/upstream/service-messages.ts']);
  });
});

describe('types', () => {
  it('no `as never` cast in src/', () => {
    const casts: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.ts') && /\bas never\b(?=[\s,;)\]])/.test(readFileSync(full, 'utf8').replace(/\/\/.*$/gm, '')))
          casts.push(full.slice(root.length));
      }
    };
    walk(`${root}src`);
    expect(casts).toEqual([]);
  });
});

describe('internal errors', () => {
  const RESTRICTED = 'no-restricted-syntax';
  it('a bare throw new Error is refused in src/, the catalogue included, and allowed in the sandbox and tests', async () => {
    const bare = `export function f(): never {\n  throw new Error('x');\n}\n`;
    expect(await layeringHit('src/live/x.ts', bare)).toContain(RESTRICTED);
    expect(await layeringHit('src/errors/x.ts', bare)).toContain(RESTRICTED);
    expect(await layeringHit('src/sandbox/x.ts', bare)).not.toContain(RESTRICTED);
    expect(await layeringHit('test/x.test.ts', bare)).not.toContain(RESTRICTED);
  });

  it('an error class extends InternalError outside src/errors/, never Error itself', async () => {
    const direct = `export class OopsError extends Error {}\n`;
    expect(await layeringHit('src/upstream/x.ts', direct)).toContain(RESTRICTED);
    expect(await layeringHit('src/inbound-webhooks/x.ts', direct)).toContain(RESTRICTED);
    expect(await layeringHit('src/errors/x.ts', direct)).not.toContain(RESTRICTED);
    const based = `import { InternalError } from '../errors/internal-error.js';\nexport class OopsError extends InternalError {\n  readonly code = 'OOPS';\n}\n`;
    expect(await layeringHit('src/upstream/x.ts', based)).toEqual([]);
  });
});

describe('rooms', () => {
  const src = `${root}src`;

  it('src/ root holds only the entry point, the assembly, config and logger; everything else lives in a folder', () => {
    const loose = readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.endsWith('.ts'));
    expect(loose.map((entry) => entry.name).sort()).toEqual(['config.ts', 'gateway.ts', 'logger.ts', 'main.ts']);
  });

  it('an index.ts only re-exports: what a folder does lives in files named for it', () => {
    const indexes = readdirSync(src, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${src}/${entry.name}/index.ts`)
      .filter((file) => existsSync(file));
    expect(indexes.length).toBeGreaterThan(5);
    const statements = (file: string) =>
      readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
        .split(';')
        .map((statement) => statement.trim())
        .filter(Boolean);
    const doing = indexes.flatMap((file) =>
      statements(file)
        .filter((statement) => !/^export (type )?(\*|\{[^}]*\}) from '[^']+'$/.test(statement))
        .map((statement) => `${file.slice(root.length)}: ${statement.slice(0, 60)}`),
    );
    expect(doing).toEqual([]);
  });

  it('no class of outgoing webhooks is over 150 lines: the engine reads as its story, each part in a module of its own', () => {
    const dir = `${src}/outbound-webhooks`;
    const classes = readdirSync(dir)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) => {
        const lines = readFileSync(`${dir}/${name}`, 'utf8').split('\n');
        return lines.flatMap((line, i) => {
          if (!/^(export )?class /.test(line)) return [];
          const end = lines.findIndex((l, j) => j > i && l === '}');
          return [{ where: `${name}:${i + 1}`, lines: end - i }];
        });
      });
    expect(classes.length).toBeGreaterThan(3);
    expect(classes.filter((c) => c.lines > 150)).toEqual([]);
  });

  it('every folder of src/ has a lint zone saying what it may import', async () => {
    const config = (await eslint.calculateConfigForFile(`${src}/upstream/x.ts`)) as {
      rules: Record<string, [unknown, { zones: { target: string | string[] }[] }]>;
    };
    const targets = config.rules[LAYERING]![1].zones.flatMap((zone) => [zone.target].flat());
    const folders = readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.length).toBeGreaterThan(10);
    const zoneless = folders
      .map((entry) => entry.name)
      .filter((name) => !targets.some((target) => target === `./src/${name}` || target.startsWith(`./src/${name}/`)));
    expect(zoneless).toEqual([]);
  });

  it("test/ mirrors src/: each of its folders is a folder of src/ or one of the tests' own", () => {
    // helpers and fixtures serve every test, gql is generated, client tests the client kit, security probes across layers.
    const testsOwn = ['client', 'fixtures', 'gql', 'helpers', 'security'];
    const srcFolders = readdirSync(src, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const stray = readdirSync(`${root}test`, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !srcFolders.includes(entry.name) && !testsOwn.includes(entry.name))
      .map((entry) => entry.name);
    expect(stray).toEqual([]);
  });
});

describe('top-level errors come from the catalogue', () => {
  const raise =
    "import { GraphQLError } from 'graphql';\nexport const e = new GraphQLError('Too many requests.', { extensions: { code: 'RATE_LIMITED' } });\n";
  const yogaRaise =
    "import { createGraphQLError } from 'graphql-yoga';\nexport const e = createGraphQLError('No.', { extensions: { code: 'X' } });\n";

  it.each(['src/limits/x.ts', 'src/schema/x.ts', 'src/execution/x.ts', 'src/http/x.ts', 'src/inbound-webhooks/x.ts'])(
    'a hand-written GraphQLError in %s fails the lint',
    async (file) => {
      expect(await rulesHit(file, raise, eslintWithoutCycles)).toContain('no-restricted-syntax');
      expect(await rulesHit(file, yogaRaise, eslintWithoutCycles)).toContain('no-restricted-syntax');
    },
  );

  it('the catalogue itself (src/errors/) builds them', async () => {
    expect(await rulesHit('src/errors/x.ts', raise, eslintWithoutCycles)).not.toContain('no-restricted-syntax');
  });
});

describe('webhook signatures are compared in constant time', () => {
  const source = readFileSync(new URL('../src/inbound-webhooks/signature.ts', import.meta.url), 'utf8');
  const comparison = 'timingSafeEqual(received, expected)';

  it('the current source passes the constant-time lint rule', async () => {
    expect(source).toContain(comparison);
    expect(await rulesHit('src/inbound-webhooks/signature.ts', source)).not.toContain('no-restricted-syntax');
  });

  it.each([
    ['Buffer#equals', 'received.equals(expected)'],
    ['=== on hex strings', "received.toString('hex') === expected.toString('hex')"],
    ['Buffer.compare', 'Buffer.compare(received, expected) === 0'],
  ])('replacing timingSafeEqual by %s fails the lint', async (_name, replacement) => {
    const changed = source.replace(comparison, replacement);
    expect(changed).not.toBe(source);
    expect(await rulesHit('src/inbound-webhooks/signature.ts', changed)).toContain('no-restricted-syntax');
  });

  beforeAll(() => countTimingSafeEqual(true));
  afterAll(() => countTimingSafeEqual(false));
  beforeEach(() => {
    crypto.calls = 0;
  });

  it.each(['hmac-sha256-hex', 'sha256-base64'] as const)(
    'verifySignature(%s) decides through crypto.timingSafeEqual, valid or not',
    (scheme) => {
      const body = Buffer.from('{"event":"charge.succeeded"}');
      const good = signBody(body, 'whsec', scheme);
      expect(verifySignature(body, good, 'whsec', scheme)).toBe(true);
      expect(crypto.calls).toBe(1);
      const wrong = signBody(body, 'other-secret', scheme);
      expect(verifySignature(body, wrong, 'whsec', scheme)).toBe(false);
      expect(crypto.calls).toBe(2);
    },
  );
});
