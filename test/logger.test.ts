import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';

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
