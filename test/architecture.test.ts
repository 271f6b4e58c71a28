// The architecture rules live in eslint.config.js; these tests make sure the
// config really catches what it claims to (a resolver that silently fails to
// follow `.js` -> `.ts` imports would make every layering rule pass vacuously),
// and that the webhook signature check stays constant-time.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const crypto = vi.hoisted(() => ({ calls: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return {
    ...actual,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      crypto.calls++;
      return actual.timingSafeEqual(a, b);
    },
  };
});

const { signBody, verifySignature } = await import('../src/webhooks/signature.js');

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** Rule ids reported for `code` as if it were the file at `path` (relative to the repo root). */
async function rulesHit(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  const fatal = result!.messages.filter((m) => m.fatal);
  expect(fatal).toEqual([]);
  return result!.messages.map((m) => m.ruleId ?? '');
}

const LAYERING = 'import-x/no-restricted-paths';

describe('layering rules', () => {
  it.each([
    ['src/upstream/x.ts', '../schema/index.js'],
    ['src/upstream/x.ts', '../webhooks/signature.js'],
    ['src/sandbox/x.ts', '../logger.js'],
    ['src/sandbox/sub/x.ts', '../../config.js'],
    ['src/sandbox/main.ts', '../gateway.js'],
    ['src/errors/x.ts', '../logger.js'],
    ['src/redis/x.ts', '../upstream/types.js'],
    ['src/idempotency/x.ts', '../schema/index.js'],
    ['src/events/x.ts', '../webhooks/receiver.js'],
    ['src/webhooks/x.ts', '../live/index.js'],
    ['src/live/x.ts', '../schema/index.js'],
    ['src/auth/x.ts', '../server.js'],
    ['src/schema/x.ts', '../server.js'],
    ['src/schema/x.ts', '../webhooks/signature.js'],
    ['src/server.ts', './sandbox/index.js'],
    ['src/gateway.ts', './sandbox/index.js'],
    ['src/live/x.ts', '../sandbox/index.js'],
  ])('%s may not import %s', async (file, target) => {
    expect(await rulesHit(file, `import * as m from '${target}';\nexport { m };\n`)).toContain(LAYERING);
  });

  it.each([
    ['src/upstream/x.ts', '../config.js'],
    ['src/upstream/x.ts', '../logger.js'],
    ['src/upstream/x.ts', './types.js'],
    ['src/sandbox/x.ts', './clock.js'],
    ['src/sandbox/main.ts', '../logger.js'],
    ['src/main.ts', './sandbox/index.js'],
    ['src/errors/x.ts', '../upstream/types.js'],
    ['src/live/x.ts', '../events/bus.js'],
    ['src/schema/x.ts', '../upstream/types.js'],
    ['src/idempotency/x.ts', '../config.js'],
  ])('%s may import %s', async (file, target) => {
    const hits = await rulesHit(file, `import * as m from '${target}';\nexport { m };\n`);
    expect(hits).not.toContain(LAYERING);
    expect(hits).not.toContain('import-x/no-unresolved');
  });

  it('auth/ imports upstream types only', async () => {
    expect(await rulesHit('src/auth/x.ts', `import { x } from '../upstream/types.js';\nexport { x };\n`)).toContain(
      '@typescript-eslint/no-restricted-imports',
    );
    const typeOnly = await rulesHit('src/auth/x.ts', `import type { x } from '../upstream/types.js';\nexport type { x };\n`);
    expect(typeOnly).not.toContain('@typescript-eslint/no-restricted-imports');
    expect(typeOnly).not.toContain(LAYERING);
  });

  it('src/ never imports tests or benchmarks, at any relative depth', async () => {
    expect(await rulesHit('src/x.ts', `import '../test/helpers/gateway.js';\n`)).toContain(LAYERING);
    expect(await rulesHit('src/live/x.ts', `import '../../bench/run.js';\n`)).toContain(LAYERING);
  });

  it('an import that does not resolve is an error, not a silent pass', async () => {
    expect(await rulesHit('src/upstream/x.ts', `import '../schema/nope.js';\n`)).toContain('import-x/no-unresolved');
  });
});

describe('import cycles', () => {
  // test/logger.test.ts imports src/logger.ts by value, so src/logger.ts importing it back closes a cycle.
  it('a runtime cycle fails the lint', async () => {
    expect(await rulesHit('src/logger.ts', `import '../test/logger.test.js';\n`)).toContain('import-x/no-cycle');
  });

  it('a type-only import back is not a cycle (it is erased at runtime)', async () => {
    const hits = await rulesHit('src/logger.ts', `import type * as T from '../test/logger.test.js';\nexport type X = typeof T;\n`);
    expect(hits).not.toContain('import-x/no-cycle');
  });
});

describe('webhook signatures are compared in constant time', () => {
  const source = readFileSync(new URL('../src/webhooks/signature.ts', import.meta.url), 'utf8');
  const comparison = 'timingSafeEqual(received, expected)';

  it('the current source passes the constant-time lint rule', async () => {
    expect(source).toContain(comparison);
    expect(await rulesHit('src/webhooks/signature.ts', source)).not.toContain('no-restricted-syntax');
  });

  it.each([
    ['Buffer#equals', 'received.equals(expected)'],
    ['=== on hex strings', "received.toString('hex') === expected.toString('hex')"],
    ['Buffer.compare', 'Buffer.compare(received, expected) === 0'],
  ])('replacing timingSafeEqual by %s fails the lint', async (_name, replacement) => {
    const changed = source.replace(comparison, replacement);
    expect(changed).not.toBe(source);
    expect(await rulesHit('src/webhooks/signature.ts', changed)).toContain('no-restricted-syntax');
  });

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
