// maskUnexpected, yoga's maskError: what escapes execution (a plugin, the request parser, a stream) goes out
// through the same entry point as every error (toClientError), masked unless it is a GraphQL error of its own. Whatever the kind of error behind a GraphQLError, the
// client gets "Unexpected error." with a request id and the log has the detail once.
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { maskUnexpected, toClientError } from '../../src/errors/error-masking.js';
import { withRequestId } from '../../src/errors/traceable-errors.js';

const DETAIL = 'connect ECONNREFUSED 10.0.0.7:6379 (internal detail)';

function capture() {
  const lines: string[] = [];
  const log = createLogger('debug', { write: (l) => lines.push(l) });
  return { log, errors: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.level === 'error') };
}

describe('maskUnexpected', () => {
  it('masks every kind of error behind a GraphQLError, and a bare one, with the request id', () => {
    const originals = [new Error(DETAIL), new TypeError(DETAIL), new RangeError(DETAIL), new SyntaxError(DETAIL)];
    for (const original of originals) {
      for (const thrown of [new GraphQLError(`Unexpected: ${DETAIL}`, { originalError: original }), original]) {
        const { log, errors } = capture();
        const masked = withRequestId('req-trace-1', () => maskUnexpected(log)(thrown)) as GraphQLError;
        const what = `${thrown.constructor.name} of ${original.name}`;
        expect(masked.message, what).toBe('Unexpected error.');
        expect(masked.extensions, what).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', requestId: 'req-trace-1' });
        expect(JSON.stringify(masked.toJSON()), what).not.toContain('ECONNREFUSED');
        expect(errors(), what).toHaveLength(1);
        expect(JSON.stringify(errors()[0]), what).toContain('ECONNREFUSED');
      }
    }
  });

  it('keeps a GraphQL error of its own (nothing behind it, or another GraphQL error)', () => {
    const { log, errors } = capture();
    const own = new GraphQLError('Must provide query string.', { extensions: { http: { status: 400 } } });
    // Kept, with the code and French every error leaves with (the one entry point, src/errors/error-masking.ts).
    expect((maskUnexpected(log)(own) as GraphQLError).toJSON()).toEqual({
      message: 'Must provide query string.',
      extensions: {
        code: 'BAD_REQUEST',
        messageFr: 'La requête doit contenir un document GraphQL (champ « query »).',
        http: { status: 400 },
      },
    });
    const wrapped = new GraphQLError('Variable "$n" got invalid value.', { originalError: new GraphQLError('Int expected.') });
    expect((maskUnexpected(log)(wrapped) as GraphQLError).message).toBe('Variable "$n" got invalid value.');
    expect(errors()).toEqual([]);
  });
});

describe('one shape for every unexpected error', () => {
  it("a field's error (error-masking) and one outside execution (maskError) differ only in where they stand", () => {
    const { log } = capture();
    const inField = toClientError(new GraphQLError(DETAIL, { path: ['charge', 'amount'], originalError: new RangeError(DETAIL) }), {
      requestId: 'req-shape',
      log,
      stage: 'execution',
    });
    const outside = withRequestId('req-shape', () => maskUnexpected(log)(new Error(DETAIL))) as GraphQLError;
    const { path, ...fieldShape } = inField.toJSON();
    expect(path).toEqual(['charge', 'amount']);
    const { http, ...outsideExtensions } = outside.extensions as Record<string, unknown>;
    // HTTP 500 only when the error is the whole answer (yoga reads it; it is not sent).
    expect(http).toEqual({ status: 500 });
    expect(inField.extensions).not.toHaveProperty('http');
    expect(fieldShape).toEqual({ message: outside.message, extensions: outsideExtensions });
    expect(fieldShape).toEqual({
      message: 'Unexpected error.',
      extensions: {
        code: 'INTERNAL_SERVER_ERROR',
        messageFr: expect.stringContaining('requestId'),
        retryable: false,
        requestId: 'req-shape',
      },
    });
  });

  it('always carries a request id, one made up when no request is at hand', () => {
    const { log, errors } = capture();
    const masked = maskUnexpected(log)(new Error(DETAIL)) as GraphQLError;
    const requestId = masked.extensions.requestId as string;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(errors()[0])).toContain(requestId);
  });
});
