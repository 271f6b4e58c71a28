// `npm run doc-coverage`: how many of the declarations src/ exports carry a doc comment (`/** … */`), per folder
// and in all, read with the TypeScript compiler's own parser. Exported interfaces, types, functions, classes, enums
// and variables count; re-exports do not (their declaration counts where it is). Two figures: every exported
// declaration, and those another folder imports (its public face). Both must stay at or above the bar (80%, held by
// test/docs.test.ts). The sandbox is a program of its own and is left out. `--min <percent>` exits 1 when either
// share is below it; `--missing` lists every exported declaration without a doc comment, those another folder
// imports marked `(imported)`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface Declaration {
  file: string;
  name: string;
  documented: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'sandbox' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const exported = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** Whether a `/** … *\/` comment sits right before the node (what editors show on hover). */
function hasDocComment(node: ts.Node, text: string): boolean {
  return (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []).some((c) => text.slice(c.pos, c.pos + 3) === '/**');
}

/**
 * A typed error is documented by its declaration's `description` (printed into schema.graphql, shown by GraphiQL):
 * `export const XError = typedError({ name, description, … })`, and the `export type XError = InstanceType<…>` beside it.
 */
function declaresDescribedTypedError(node: ts.VariableStatement): boolean {
  return node.declarationList.declarations.some((d) => {
    const init = d.initializer;
    if (!init || !ts.isCallExpression(init) || init.expression.getText() !== 'typedError') return false;
    const options = init.arguments[0];
    return !!options && ts.isObjectLiteralExpression(options) && options.properties.some((p) => p.name?.getText() === 'description');
  });
}

/** The exported declarations of one file, each documented or not. */
export function declarationsOf(file: string, text = readFileSync(file, 'utf8')): Declaration[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Declaration[] = [];
  const relative = path.relative(root, file);
  const describedErrors = new Set(
    source.statements
      .filter((n): n is ts.VariableStatement => ts.isVariableStatement(n) && declaresDescribedTypedError(n))
      .flatMap((n) => n.declarationList.declarations.map((d) => d.name.getText(source))),
  );
  for (const node of source.statements) {
    if (!exported(node)) continue;
    const companion = ts.isTypeAliasDeclaration(node) && describedErrors.has(node.name.getText(source));
    const described = ts.isVariableStatement(node) && declaresDescribedTypedError(node);
    const documented = hasDocComment(node, text) || described || companion;
    if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) found.push({ file: relative, name: d.name.getText(source), documented });
    } else if (
      ts.isFunctionDeclaration(node) ||
      ts.isClassDeclaration(node) ||
      ts.isInterfaceDeclaration(node) ||
      ts.isTypeAliasDeclaration(node) ||
      ts.isEnumDeclaration(node)
    ) {
      found.push({ file: relative, name: node.name?.getText(source) ?? 'default', documented });
    }
  }
  return found;
}

/** The folder of a file of src/ (`src/auth`), or the file itself at the root of src/ (`src/config.ts`). */
const folderOf = (relative: string) => relative.split(path.sep).slice(0, 2).join('/');

/**
 * `file:name` of every declaration a file of another folder imports by name. An import of a folder's index.ts (a
 * barrel of `export *`) is matched to the file of that folder that declares the name.
 */
function importedAcrossFolders(files: string[], declared: Declaration[]): Set<string> {
  const declaring = new Map<string, string[]>();
  for (const d of declared)
    declaring.set(`${folderOf(d.file)}:${d.name}`, [...(declaring.get(`${folderOf(d.file)}:${d.name}`) ?? []), d.file]);
  const used = new Set<string>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const from = folderOf(path.relative(root, file));
    for (const node of source.statements) {
      if (!ts.isImportDeclaration(node) && !(ts.isExportDeclaration(node) && node.moduleSpecifier)) continue;
      const spec = (node.moduleSpecifier as ts.StringLiteral).text;
      if (!spec.startsWith('.')) continue;
      const target = path.relative(root, path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
      if (folderOf(target) === from) continue;
      const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
      if (!bindings || !(ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) continue;
      for (const element of bindings.elements) {
        const name = (element.propertyName ?? element.name).text;
        const files = target.endsWith('index.ts') ? (declaring.get(`${folderOf(target)}:${name}`) ?? []) : [target];
        for (const f of files) used.add(`${f}:${name}`);
      }
    }
  }
  return used;
}

/** Every exported declaration of src/ (the sandbox aside), and those another folder imports. */
export function docCoverage(): { all: Declaration[]; shared: Declaration[] } {
  const files = sourceFiles(path.join(root, 'src'));
  const all = files.flatMap((file) => declarationsOf(file));
  // Imports from tests and scripts do not make a declaration public; only src/'s own folders do.
  const used = importedAcrossFolders(files, all);
  return { all, shared: all.filter((d) => used.has(`${d.file}:${d.name}`)) };
}

/** The share of `list` that carries a doc comment, in percent. */
export const documentedShare = (list: readonly Declaration[]) =>
  list.length === 0 ? 100 : (100 * list.filter((d) => d.documented).length) / list.length;

function main(): void {
  const { values } = parseArgs({ options: { min: { type: 'string' }, missing: { type: 'boolean', default: false } } });
  const { all, shared } = docCoverage();
  const byFolder = new Map<string, Declaration[]>();
  for (const d of all) {
    const folder = folderOf(d.file);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), d]);
  }
  const share = documentedShare;
  for (const [folder, list] of [...byFolder].sort()) {
    process.stdout.write(
      `${folder.padEnd(28)} ${String(list.filter((d) => d.documented).length).padStart(4)} / ${String(list.length).padEnd(4)} ${share(list).toFixed(0)}%\n`,
    );
  }
  const total = share(shared);
  process.stdout.write(
    `doc comments: ${all.filter((d) => d.documented).length} of ${all.length} exported declarations, ${share(all).toFixed(1)}%\n`,
  );
  process.stdout.write(
    `doc comments on what another folder imports: ${shared.filter((d) => d.documented).length} of ${shared.length}, ${total.toFixed(1)}%\n`,
  );
  if (values.missing) {
    for (const d of all.filter((x) => !x.documented)) {
      process.stdout.write(`  missing: ${d.file} ${d.name}${shared.includes(d) ? ' (imported)' : ''}\n`);
    }
  }
  if (values.min !== undefined && Math.min(total, share(all)) < Number(values.min)) {
    process.stderr.write(`below ${values.min}%\n`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
