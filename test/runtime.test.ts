// The production Node is one line (the Dockerfile's ARG NODE_VERSION) that everything else follows:
// `engines` must accept it, both stages of the image must run it, and .ci/run must test that very
// release (it reads the line). A bump that breaks one of these fails here, not in production.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const dockerfile = read('Dockerfile');
const productionNode = /^ARG NODE_VERSION=(\d+)\.(\d+)\.(\d+)$/m.exec(dockerfile);

/** Whether `engines.node` (caret ranges joined by `||`, as package.json writes it) accepts a version. */
function enginesAccept(range: string, version: number[]): boolean {
  return range.split('||').some((part) => {
    const [major, minor, patch] = part.trim().replace(/^\^/, '').split('.').map(Number);
    if (version[0] !== major) return false;
    return version[1]! > minor! || (version[1] === minor && version[2]! >= patch!);
  });
}

it('runs the image on a pinned even-numbered (LTS) Node that engines accepts, and engines refuses the untested lines', () => {
  expect(productionNode, 'Dockerfile: ARG NODE_VERSION=<major>.<minor>.<patch>').not.toBeNull();
  const version = productionNode!.slice(1).map(Number);
  expect(version[0]! % 2).toBe(0);
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
  expect(enginesAccept(engines, version)).toBe(true);
  // The machine's Node 20 line (development only), and nothing CI does not run.
  expect(enginesAccept(engines, [20, 19, 0])).toBe(true);
  expect(enginesAccept(engines, [20, 18, 9])).toBe(false);
  expect(enginesAccept(engines, [22, 12, 0])).toBe(false);
  expect(enginesAccept(engines, [version[0]! + 2, 0, 0])).toBe(false);
});

it('builds and runs both stages of the image on that Node, and CI tests that very release', () => {
  const stages = [...dockerfile.matchAll(/^FROM (\S+) AS (\w+)$/gm)].map((m) => [m[2], m[1]]);
  expect(stages).toEqual([
    ['build', 'node:${NODE_VERSION}-bookworm-slim'],
    ['runtime', 'node:${NODE_VERSION}-bookworm-slim'],
  ]);
  const ci = read('.ci/run');
  expect(ci).toContain(`sed -n 's/^ARG NODE_VERSION=//p' Dockerfile`);
  expect(ci).toMatch(/npx -y -p "node@\$prod_version"/);
  // The tests run a second time on that binary (SECOND_NODE: vitest.config.ts).
  expect(ci).toMatch(/PATH="\$prod_bin:\$PATH" SECOND_NODE=1 run_tests "the production node" node node_modules\/vitest\/vitest\.mjs run/);
});
