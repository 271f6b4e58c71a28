// The documentation's own checks: every relative link of README.md, CHANGELOG.md, docs/ and src/**/README.md
// leads to a file that exists (and to a heading of it, for a #fragment), and the architecture guide's map has a
// row for every folder of src/ and none for a folder that is gone. Markdown is read with marked's lexer (links in
// code are not links) and fragments are slugged by github-slugger, as GitHub renders them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { declarationsOf, docCoverage, documentedShare } from '../scripts/doc-coverage.js';
import { repoRoot } from './helpers/npm-start.js';

/** Every Markdown file whose links are checked, relative to the repository. */
function documents(): string[] {
  const found = ['README.md', 'CHANGELOG.md'];
  const walk = (folder: string, keep: (name: string) => boolean) => {
    for (const entry of readdirSync(path.join(repoRoot, folder), { withFileTypes: true })) {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(relative, keep);
      else if (keep(entry.name)) found.push(relative);
    }
  };
  walk('docs', (name) => name.endsWith('.md'));
  walk('src', (name) => name === 'README.md');
  return found;
}

/** The plain text of inline tokens (what GitHub slugs a heading from: code spans without their backticks). */
function plainText(tokens: Token[] | undefined, fallback: string): string {
  if (!tokens) return fallback;
  return tokens.map((t) => ('tokens' in t && t.tokens ? plainText(t.tokens, '') : 'text' in t ? String(t.text) : '')).join('');
}

const tokensOf = new Map<string, Token[]>();
function lex(file: string): Token[] {
  let tokens = tokensOf.get(file);
  if (!tokens) tokensOf.set(file, (tokens = marked.lexer(readFileSync(path.join(repoRoot, file), 'utf8'))));
  return tokens;
}

/** The anchors GitHub gives the headings of a Markdown file. */
function anchors(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const found = new Set<string>();
  marked.walkTokens(lex(file), (t) => {
    if (t.type === 'heading') found.add(slugger.slug(plainText((t as Tokens.Heading).tokens, (t as Tokens.Heading).text)));
  });
  return found;
}

/** The relative links of a file: its own anchors (`#x`) and other files (`guide.md#x`), never URLs. */
function relativeLinks(file: string): string[] {
  const links: string[] = [];
  marked.walkTokens(lex(file), (t) => {
    if (t.type === 'link' && !/^[a-z][a-z0-9+.-]*:/i.test((t as Tokens.Link).href)) links.push((t as Tokens.Link).href);
  });
  return links;
}

describe('the documentation', () => {
  it('has its guides in docs/ and a README of at most 250 lines', () => {
    expect(readFileSync(path.join(repoRoot, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
    expect(documents().filter((f) => f.startsWith('docs/')).length).toBeGreaterThanOrEqual(15);
  });

  it('links only to files and headings that exist (README.md, CHANGELOG.md, docs/, src/**/README.md)', () => {
    const broken: string[] = [];
    for (const file of documents()) {
      for (const link of relativeLinks(file)) {
        const [target = '', fragment] = link.split('#');
        const resolved = target === '' ? file : path.normalize(path.join(path.dirname(file), decodeURIComponent(target)));
        if (!existsSync(path.join(repoRoot, resolved))) broken.push(`${file}: ${link} (no file ${resolved})`);
        else if (fragment && (!resolved.endsWith('.md') || !anchors(resolved).has(fragment))) {
          broken.push(`${file}: ${link} (no heading #${fragment} in ${resolved})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds a broken link and a broken anchor (the check itself)', () => {
    expect(anchors('docs/architecture.md')).toContain('the-map');
    expect(anchors('docs/architecture.md')).not.toContain('the-mapp');
    expect(relativeLinks('README.md')).toContain('docs/architecture.md');
  });

  it('captures a token with `npm run -s token` (without -s, npm writes its banner into the capture)', () => {
    const captures = documents().flatMap((file) =>
      [...readFileSync(path.join(repoRoot, file), 'utf8').matchAll(/\$\(npm run[^)]*\btoken\b/g)].map((m) => `${file}: ${m[0]}`),
    );
    expect(captures.length).toBeGreaterThan(0);
    expect(captures.filter((c) => !c.includes('$(npm run -s token'))).toEqual([]);
  });

  it('doc comments cover at least 80% of the exported declarations of src/, and of those another folder imports (scripts/doc-coverage.ts)', () => {
    const { all, shared } = docCoverage();
    expect(shared.length).toBeGreaterThan(200);
    expect(all.length).toBeGreaterThan(shared.length);
    expect(documentedShare(shared)).toBeGreaterThanOrEqual(80);
    expect(documentedShare(all)).toBeGreaterThanOrEqual(80);
  });

  it('counts a doc comment only where an editor shows one (the counter itself)', () => {
    const text = [
      '/** Documented. */',
      'export function a(): void {}',
      '// A line comment is not a doc comment.',
      'export const b = 1;',
      'export interface C {}',
      'function d(): void {}',
      "export const E = typedError({ name: 'E', description: 'Described where the schema reads it.' });",
      'export type E = InstanceType<typeof E>;',
    ].join('\n');
    expect(declarationsOf(path.join(repoRoot, 'src/x.ts'), text).map((d) => [d.name, d.documented])).toEqual([
      ['a', true],
      ['b', false],
      ['C', false],
      ['E', true],
      ['E', true],
    ]);
  });

  it("the architecture guide's map has one row per folder of src/, and none for a folder that is gone", () => {
    const folders = readdirSync(path.join(repoRoot, 'src'))
      .filter((name) => statSync(path.join(repoRoot, 'src', name)).isDirectory())
      .sort();
    const text = readFileSync(path.join(repoRoot, 'docs/architecture.md'), 'utf8');
    const map = text.slice(text.indexOf('## The map'));
    const rows = [...map.matchAll(/^\| `src\/([a-z0-9-]+)\/` \|/gm)].map((m) => m[1]!).sort();
    expect(rows).toEqual(folders);
  });
});
