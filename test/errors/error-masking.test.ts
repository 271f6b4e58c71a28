// toClientError, the line execution errors cross on their way to a client: a GraphQL error we raised on
// purpose (with a code) or an error of the request itself (no path) keeps its message; any other error of a
// field, a GraphQLError without a code included (a library's, graphql's own about the schema), is replaced
// by "Unexpected error." and the request id, with the detail in the log only.
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { toClientError } from '../../src/errors/error-masking.js';
import { createLogger } from '../../src/logger.js';

const DETAIL = 'Abstract type "Node" must resolve to an Object type at runtime; internal detail db01.internal';

function capture() {
  const lines: string[] = [];
  const log = createLogger('debug', { write: (l) => lines.push(l) });
  return { log, errors: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.level === 'error') };
}

const fieldError = (original: Error | undefined, extensions?: Record<string, unknown>) =>
  new GraphQLError(original?.message ?? 'request error', { path: ['charge', 'status'], originalError: original, extensions });

describe('toClientError', () => {
  it('masks a field error whose origin is a GraphQLError without a code, logging the detail under the request id', () => {
    const { log, errors } = capture();
    const masked = toClientError(fieldError(new GraphQLError(DETAIL)), { requestId: 'req-mask-1', log, stage: 'execution' });
    expect(masked.message).toBe('Unexpected error.');
    expect(masked.path).toEqual(['charge', 'status']);
    expect(masked.extensions).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', requestId: 'req-mask-1' });
    expect(JSON.stringify(masked.toJSON())).not.toContain('db01');
    expect(errors()).toHaveLength(1);
    expect(JSON.stringify(errors()[0])).toContain('req-mask-1');
  });

  it('masks any other error of a field (a bug: TypeError, RangeError, a plain Error)', () => {
    for (const original of [new TypeError(DETAIL), new RangeError(DETAIL), new Error(DETAIL)]) {
      const { log, errors } = capture();
      const masked = toClientError(fieldError(original), { requestId: 'req-mask-2', log, stage: 'execution' });
      expect(masked.message, original.name).toBe('Unexpected error.');
      expect(masked.extensions).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', requestId: 'req-mask-2' });
      expect(errors()).toHaveLength(1);
    }
  });

  it('keeps the message of a field error raised on purpose (with a code), and of a request error (no path)', () => {
    const { log, errors } = capture();
    const coded = new GraphQLError('You may not read this charge.', { extensions: { code: 'FORBIDDEN' } });
    const kept = toClientError(fieldError(coded), { requestId: 'req-mask-3', log, stage: 'execution' });
    expect(kept.message).toBe('You may not read this charge.');
    const request = new GraphQLError('Cannot query field "nope" on type "Query".');
    expect(toClientError(request, { requestId: 'req-mask-3', log, stage: 'execution' }).message).toBe(
      'Cannot query field "nope" on type "Query".',
    );
    expect(errors()).toEqual([]);
  });
});
