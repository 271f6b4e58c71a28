// The declaration of each upstream operation is the one place its facts live:
// these tests prove a missing or incomplete declaration is a type error (so a new
// operation cannot be half-declared), and that the failure classifier and the
// idempotency runner read it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { mayHaveReachedService } from '../../src/idempotency/run.js';
import { UpstreamCallError, type UpstreamErrorCode as ErrorCode } from '../../src/upstream/call-error.js';
import { readEnvelope } from '../../src/upstream/envelope.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import { mapFailure } from '../../src/upstream/failure.js';
import {
  OPERATIONS,
  OPERATION_NAMES,
  endpointOf,
  isRefusal,
  type Operation,
  type OperationDeclaration,
} from '../../src/upstream/operations.js';
import { repoRoot } from '../helpers/npm-start.js';

const typesFile = path.join(repoRoot, 'src/upstream/types.ts');
const operationsFile = path.join(repoRoot, 'src/upstream/operations.ts');

const config = ts.getParsedCommandLineOfConfigFile(
  path.join(repoRoot, 'tsconfig.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
);
const options: ts.CompilerOptions = { ...config!.options, noEmit: true };
const host = ts.createCompilerHost(options);
/** Parsed once for the three programs below (lib and node typings are most of the work). */
const parsed = new Map<string, ts.SourceFile | undefined>();
const readSource = host.getSourceFile.bind(host);

/** The type errors of src/upstream/operations.ts once `edit` changed one of its sources (in memory). */
function typeErrorsOfOperations(file: string, edit: (source: string) => string): string[] {
  const edited = edit(readFileSync(file, 'utf8'));
  const program = ts.createProgram([operationsFile], options, {
    ...host,
    getSourceFile: (name, language, ...rest) => {
      if (path.resolve(name) === file) return ts.createSourceFile(name, edited, language);
      if (!parsed.has(name)) parsed.set(name, readSource(name, language, ...rest));
      return parsed.get(name);
    },
  });
  const source = program.getSourceFile(operationsFile)!;
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  );
}

describe('one declaration per upstream operation', () => {
  it('compiles as it is (the baseline of the two checks below)', () => {
    expect(typeErrorsOfOperations(typesFile, (s) => s)).toEqual([]);
  });

  it('a client operation without a declaration fails the type check', () => {
    const errors = typeErrorsOfOperations(typesFile, (s) => {
      const grown = s.replace(
        '  close(): Promise<void>;',
        '  exampleWithoutDeclaration(reference: string): Promise<Charge>;\n  close(): Promise<void>;',
      );
      expect(grown).not.toBe(s);
      return grown;
    });
    expect(errors.join('\n')).toMatch(/exampleWithoutDeclaration/);
  });

  it('a money-moving declaration without its refusals fails the type check', () => {
    const errors = typeErrorsOfOperations(operationsFile, (s) => {
      const at = s.indexOf('  createSettlement: {');
      const cut = s.slice(0, at) + s.slice(at).replace(/\n {4}refusals: \[[^\]]*\],/, '');
      expect(cut).not.toBe(s);
      return cut;
    });
    expect(errors.join('\n')).toMatch(/refusals/);
  });

  it('makes one client method of each declaration, each with its own route template', async () => {
    const client = createUpstreamClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      timeoutMs: 1000,
      pageParam: 'page',
      pageSizeParam: 'page_size',
      pageSize: 20,
    });
    expect(Object.keys(client).sort()).toEqual([...OPERATION_NAMES, 'close'].sort());
    expect(new Set(OPERATION_NAMES.map(endpointOf)).size).toBe(OPERATION_NAMES.length);
    expect(endpointOf('fetchCharge')).toBe('GET /v1/payment/charges/{reference}');
    expect(endpointOf('cancelSettlement')).toBe('GET /v1/payment/settlements/{reference}/cancel/');
    await client.close();
  });

  it('a code an operation declares a refusal releases the key, whichever operation answered it', () => {
    const failed = (code: ErrorCode) => new UpstreamCallError({ code, message: 'no', httpStatus: 400 });
    expect(OPERATIONS.cancelSettlement.refusals).toContain('SETTLEMENT_NOT_CANCELLABLE');
    expect(mayHaveReachedService(failed('SETTLEMENT_NOT_CANCELLABLE'))).toBe(false);
    expect(OPERATIONS.createSettlement.refusals).toContain('PAYMENT_ACCOUNT_MISSING');
    expect(mayHaveReachedService(failed('PAYMENT_ACCOUNT_MISSING'))).toBe(false);
    expect(isRefusal('VALIDATION_FAILED')).toBe(true);
    // Declared by no operation: the call may have been carried out.
    expect(isRefusal('INTERNAL_ERROR')).toBe(false);
    expect(mayHaveReachedService(failed('INTERNAL_ERROR'))).toBe(true);
  });

  it('the failure classifier reads its message rules from the declaration', () => {
    const redact = (t: string) => t;
    const envelope = (message: string) => {
      const reading = readEnvelope(JSON.stringify({ status: false, message }));
      if (!reading.ok) throw new Error('not an envelope');
      return reading.envelope;
    };
    const cancel = mapFailure(envelope('Settlement is not in processing'), { operation: 'cancelSettlement', httpStatus: 400, redact });
    expect(cancel.code).toBe('SETTLEMENT_NOT_CANCELLABLE');
    const fetch = mapFailure(envelope('Transfer not found'), { operation: 'fetchTransfer', httpStatus: 404, redact });
    expect(fetch.code).toBe('NOT_FOUND');
    // fetchCharge declares no not-found message rule: the service's CHARGE_NOT_FOUND wording is the one read.
    expect(mapFailure(envelope('Transfer not found'), { operation: 'fetchCharge', httpStatus: 404, redact }).code).toBe('UNKNOWN_ERROR');
  });
});

// Checked by `tsc` (test/ is part of the typecheck): an incomplete declaration is a type error.
export const typeLevel: Array<OperationDeclaration<'createSettlement'> | OperationDeclaration<'fetchBalance'>> = [
  // @ts-expect-error a money-moving operation must say what a lost answer means
  { ...OPERATIONS.createSettlement, lostAnswer: undefined },
  // @ts-expect-error the normalizer must return the client method's result type
  { ...OPERATIONS.fetchBalance, read: () => 'not a balance' },
];
export const missingOne = (({ fetchBalance: _left, ...rest }) => rest)(OPERATIONS);
// @ts-expect-error a table without fetchBalance's declaration is not the table of every operation
export const incomplete: { [K in Operation]: OperationDeclaration<K> } = missingOne;
