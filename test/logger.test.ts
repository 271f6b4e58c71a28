import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED } from '../src/logger.js';
import { compiled } from './helpers/compiled.js';

function capture(level: Parameters<typeof createLogger>[0]) {
  const lines: string[] = [];
  const log = createLogger(level, { write: (l) => lines.push(l), now: () => new Date(0) });
  return { log, lines, entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('createLogger', () => {
  it('writes one JSON line per entry at or above the level', () => {
    const { log, entries } = capture('info');
    log.debug('hidden');
    log.info('shown', { a: 1 });
    log.error('bad', { error: new Error('boom') });
    expect(entries()).toEqual([
      { time: '1970-01-01T00:00:00.000Z', level: 'info', msg: 'shown', a: 1 },
      expect.objectContaining({ level: 'error', msg: 'bad', error: expect.objectContaining({ message: 'boom' }) }),
    ]);
  });

  it('prints nothing when silent', () => {
    const { log, lines } = capture('silent');
    log.error('x');
    expect(lines).toEqual([]);
  });

  it('redacts key/secret/authorization-like fields at any depth', () => {
    const { log, lines } = capture('debug');
    log.info('req', {
      apiKey: 'sk_test_SECRET1',
      headers: { 'x-api-key': 'sk_test_SECRET2', Authorization: 'Bearer SECRET3' },
      webhookSecret: 'SECRET4',
      list: [{ password: 'SECRET5', token: 'SECRET6' }],
      ok: 'visible',
    });
    expect(lines.join('')).not.toMatch(/SECRET\d/);
    expect(lines.join('')).toContain('visible');
  });

  it('survives cycles and unserializable values', () => {
    const { log, lines } = capture('debug');
    const a: Record<string, unknown> = { name: 'a' };
    a['self'] = a;
    log.info('cycle', { a });
    log.info('bigint', { n: 10n });
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!).a.self).toBe('[circular]');
  });
});

describe('pino output shape', () => {
  it('writes level label, ISO time and msg, and nothing pino would add by default', () => {
    const { log, lines, entries } = capture('debug');
    log.warn('plain');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/\n/);
    expect(entries()[0]).toEqual({ level: 'warn', time: '1970-01-01T00:00:00.000Z', msg: 'plain' });
  });

  it('drops entries below the level, for every level', () => {
    const order = ['debug', 'info', 'warn', 'error'] as const;
    for (const [i, level] of order.entries()) {
      const { log, entries } = capture(level);
      for (const l of order) log[l](l);
      expect(entries().map((e) => e['level'])).toEqual(order.slice(i));
    }
  });

  it('keeps pino format specifiers in a message literal', () => {
    const { log, entries } = capture('info');
    log.info('100%s of %d', { a: 1 });
    expect(entries()[0]!['msg']).toBe('100%s of %d');
  });

  it('renames fields that would collide with level, time or msg instead of duplicating keys', () => {
    const { log, lines, entries } = capture('info');
    log.info('real', { level: 'fake', msg: 'fake', time: 'fake' });
    expect(lines[0]!.match(/"level":/g)).toHaveLength(1);
    expect(entries()[0]).toMatchObject({ level: 'info', msg: 'real', level_: 'fake', msg_: 'fake', time_: 'fake' });
  });

  it('logs errors as name, message and code, with the cause, and never a stack', () => {
    const { log, lines, entries } = capture('info');
    const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    log.error('call failed', { error: new Error('upstream failed', { cause }), err: cause });
    expect(entries()[0]).toMatchObject({
      error: { name: 'Error', message: 'upstream failed', cause: { name: 'Error', message: 'socket hang up', code: 'ECONNRESET' } },
      err: { name: 'Error', message: 'socket hang up', code: 'ECONNRESET' },
    });
    expect(lines[0]).not.toContain('stack');
    expect(lines[0]).not.toMatch(/\bat .*logger\.test/);
  });

  it('masks secret keys in messages and in values under harmless names', () => {
    const { log, lines } = capture('info');
    log.info('using sk_live_MESSAGE1', { url: 'https://x/?k=sk_test_VALUE2', errors: [new Error('bad key sk_test_ERROR3')] });
    expect(lines[0]).not.toMatch(/MESSAGE1|VALUE2|ERROR3/);
    expect(lines[0]).toContain(REDACTED);
  });

  it('child loggers add their fields to every line, redacted, at the parent level', () => {
    const { log, entries } = capture('info');
    const child = log.child({ requestId: 'req-1', headers: { authorization: 'Bearer SECRET7' } });
    child.debug('hidden');
    child.info('one', { a: 1 });
    child.child({ step: 2 }).warn('two');
    expect(entries()).toEqual([
      { level: 'info', time: '1970-01-01T00:00:00.000Z', msg: 'one', requestId: 'req-1', headers: { authorization: REDACTED }, a: 1 },
      { level: 'warn', time: '1970-01-01T00:00:00.000Z', msg: 'two', requestId: 'req-1', headers: { authorization: REDACTED }, step: 2 },
    ]);
  });

  it('prints an object seen twice side by side (not a cycle) both times, and renders dates and buffers', () => {
    const { log, entries } = capture('info');
    const shared = { id: 7 };
    log.info('x', { a: shared, b: shared, at: new Date(0), body: Buffer.from('secret body') });
    expect(entries()[0]).toMatchObject({ a: { id: 7 }, b: { id: 7 }, at: '1970-01-01T00:00:00.000Z', body: '[11 bytes]' });
  });

  it('never prints a credential-named field, however deep, in objects or arrays', () => {
    const sensitive = fc.constantFrom(
      'apiKey',
      'x-api-key',
      'webhookSecret',
      'Authorization',
      'password',
      'refresh_token',
      'Set-Cookie',
      'X-Webhook-Hash',
      'signature',
    );
    const step = fc.oneof(
      fc.constant<'array'>('array'),
      fc.stringMatching(/^[a-z]{1,8}$/).filter((k) => !/key|secret|auth|pass|token|cookie|hash|signature/i.test(k)),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), sensitive, (path, name) => {
        let value: unknown = { [name]: 'MARKER-SECRET', visible: 'ok' };
        for (const s of [...path].reverse()) value = s === 'array' ? [value] : { [s]: value };
        const { log, lines } = capture('debug');
        log.info('deep', { root: value });
        log.child({ root: value }).info('deep child');
        expect(lines).toHaveLength(2);
        for (const line of lines) expect(line).not.toContain('MARKER-SECRET');
      }),
      { numRuns: 300 },
    );
  });

  it('writes to stderr by default, nothing on stdout, and nothing from silentLogger', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const script = `
      const { createLogger, silentLogger } = await import(${JSON.stringify(pathToFileURL(compiled('src/logger.ts')).href)});
      createLogger('info').info('to stderr', { token: 'SECRET8' });
      silentLogger.error('never');
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n').filter((l) => l.startsWith('{'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', msg: 'to stderr', token: REDACTED });
    expect(result.stderr).not.toContain('SECRET8');
    expect(result.stderr).not.toContain('never');
  });
});
