// The import graphs of src/ and of the back office (console/src/) have no circle, counting `import type` and
// `export ... from` too: a type-only circle is still two modules that must change together. This test is the only
// cycle rule (ESLint's import-x/no-cycle, which skips type imports, cost three quarters of the lint's rule time).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** file -> the files of the same tree it imports (every kind of import, type-only included). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((f) => f.fileName)
      .filter((spec) => spec.startsWith('.'))
      // `./x.js` is the source `./x.ts` (NodeNext), or `./x.tsx` in the back office.
      .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '')))
      .flatMap((base) => [base, `${base}.ts`, `${base}.tsx`].filter((target) => known.has(target)));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every strongly connected component of more than one module, or of one that imports itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return found;
}

/**
 * The imports of `from`, direct and indirect, that are not leaves: a module config.ts reads must import
 * nothing of src/ itself, or config.ts (which every layer reads) would sit above a floor it serves.
 */
function upwardImports(graph: Map<string, string[]>, from: string): string[] {
  const reached = new Set<string>();
  const walk = (file: string) => {
    for (const target of graph.get(file) ?? []) {
      if (reached.has(target)) continue;
      reached.add(target);
      walk(target);
    }
  };
  walk(from);
  return [...reached].filter((file) => (graph.get(file) ?? []).length > 0 || file === from).sort();
}

describe('the import graph of src/', () => {
  it('config.ts imports only leaves (modules that import nothing of src/): 0 upward imports', () => {
    const files = sourceFiles(join(root, 'src'));
    const config = join(root, 'src/config.ts');
    // The error base (src/errors/internal-error.ts) imports nothing and every layer may extend it: an import of it
    // puts nothing above config.ts, so it is left out of the walk (it is a leaf: checked here).
    const base = join(root, 'src/errors/internal-error.ts');
    expect(importGraph(files).get(base)).toEqual([]);
    const graph = new Map([...importGraph(files)].map(([file, targets]) => [file, targets.filter((t) => t !== base)]));
    // It does read some leaves (the proxy-trust and duration parsers, the project's files): the walk is not vacuous.
    expect((graph.get(config) ?? []).map((f) => relative(root, f)).sort()).toEqual(
      expect.arrayContaining(['src/config-values/duration.ts', 'src/config-values/proxy-trust.ts']),
    );
    expect(upwardImports(graph, config).map((f) => relative(root, f))).toEqual([]);
  });

  it('finds an upward import of config.ts, direct or through a leaf that is not one (the check itself works)', () => {
    const leafOnly = new Map([
      ['config.ts', ['duration.ts', 'files.ts']],
      ['duration.ts', []],
      ['files.ts', []],
    ]);
    expect(upwardImports(leafOnly, 'config.ts')).toEqual([]);
    const upward = new Map([
      ['config.ts', ['duration.ts', 'client-address.ts']],
      ['duration.ts', []],
      ['client-address.ts', ['caller.ts']],
      ['caller.ts', ['config.ts']],
    ]);
    expect(upwardImports(upward, 'config.ts')).toEqual(['caller.ts', 'client-address.ts', 'config.ts']);
  });

  it.each([
    ['src', 50],
    ['console/src', 20],
  ])('has no circle in %s/, type-only imports included', (tree, atLeast) => {
    const files = sourceFiles(join(root, tree));
    expect(files.length).toBeGreaterThan(atLeast);
    const graph = importGraph(files);
    // The graph is read, not empty: most modules import another of the same tree.
    expect([...graph.values()].filter((targets) => targets.length > 0).length).toBeGreaterThan(files.length / 3);
    const found = circles(graph).map((c) => c.map((f) => relative(root, f)));
    expect(found).toEqual([]);
  });

  it('finds a circle made only of type imports (the check itself works)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    // And on real text: `import type` is read like any other import.
    const { importedFiles } = ts.preProcessFile("import type { X } from './x.js';\nexport type { Y } from './y.js';", true, true);
    expect(importedFiles.map((f) => f.fileName)).toEqual(['./x.js', './y.js']);
  });
});
