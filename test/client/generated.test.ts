// The client kit as a published artefact: client/generated/ is committed (a
// frontend imports it, and the gateway loads its manifest at start), so it must
// be exactly what `npm run codegen` makes of client/operations/ and the
// committed schema.graphql, as schema.graphql must be what the code prints.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '@graphql-codegen/cli';
import { Kind, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import clientKitConfig, { CLIENT_GENERATED_DIR, documentHash } from '../../codegen.client.js';
import * as generated from '../../client/generated/graphql.js';
import manifest from '../../client/generated/persisted-documents.json' with { type: 'json' };
import { documentHashOf } from './clients.js';

const repoRoot = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
// The kit's own documents and the back office's (console/operations/), which the same codegen types and lists.
const operationsDirs = [path.join(repoRoot, 'client', 'operations'), path.join(repoRoot, 'console', 'operations')];

function operationsInFiles(): OperationDefinitionNode[] {
  return operationsDirs
    .flatMap((dir) => readdirSync(dir).flatMap((name) => (name.endsWith('.graphql') ? [path.join(dir, name)] : [])))
    .flatMap((file) => parse(readFileSync(file, 'utf8')).definitions)
    .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
}

describe('client/generated', () => {
  it('is exactly what codegen makes of client/operations and schema.graphql', async () => {
    const outputs = await generate({ ...clientKitConfig, cwd: repoRoot, silent: true }, false);
    const stale: string[] = [];
    for (const output of outputs) {
      let committed: string | null = null;
      try {
        committed = readFileSync(path.resolve(repoRoot, output.filename), 'utf8');
      } catch {
        committed = null;
      }
      if (committed !== output.content) stale.push(output.filename);
    }
    const expected = new Set(outputs.map((o: { filename: string }) => path.basename(o.filename)));
    const extra = readdirSync(path.join(repoRoot, CLIENT_GENERATED_DIR)).filter((name) => !expected.has(name));
    expect(stale, `out of date: ${stale.join(', ')}; run \`npm run codegen\` and commit client/generated/`).toEqual([]);
    expect(extra, 'files left in client/generated/ that codegen no longer writes').toEqual([]);
  });

  it('has one manifest entry per operation, keyed by the sha256 of its document', () => {
    const names = operationsInFiles().map((op) => op.name?.value);
    expect(names.every(Boolean), 'every operation is named').toBe(true);
    expect(new Set(names).size, 'operation names are unique').toBe(names.length);

    const entries = Object.entries(manifest);
    expect(entries).toHaveLength(names.length);
    for (const [hash, document] of entries) expect(hash).toBe(documentHash(document));
    const manifestNames = entries.map(([, document]) => operationOf(document).name?.value);
    expect(new Set(manifestNames)).toEqual(new Set(names));
  });

  it('gives each typed document the hash of its own operation’s manifest entry', () => {
    const documents = Object.entries(generated).filter(([name]) => name.endsWith('Document'));
    expect(documents).toHaveLength(Object.keys(manifest).length);
    for (const [name, document] of documents) {
      const text = manifest[documentHashOf(document as DocumentNode) as keyof typeof manifest];
      expect(text, name).toBeDefined();
      expect(operationOf(text).name?.value, name).toBe(name.replace(/Document$/, ''));
    }
  });
});

/** The operation of a manifest document (which carries the fragments it spreads beside it). */
function operationOf(document: string): OperationDefinitionNode {
  return parse(document).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
}
