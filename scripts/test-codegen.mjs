// `npm test`'s first step: the tests' typed documents (test/gql/, codegen.ts) generated from schema.graphql and
// the operations in test/. Generating them parses every test file (two seconds of CPU on this machine); when
// none of what goes in has changed since the last generation, and the output is still what that generation
// wrote, the step is skipped. What goes in: schema.graphql, codegen.ts, every file codegen reads documents
// from (test/**/*.ts but test/gql/), and package-lock.json (the generator's own version).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const stamp = path.join('node_modules', '.cache', 'test-codegen.json');

function files(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const file = path.join(dir, entry.name);
      return entry.isDirectory() ? files(file) : [file];
    })
    .sort();
}

function digest(list) {
  const hash = createHash('sha256');
  for (const file of list) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const inputs = () =>
  digest([
    'schema.graphql',
    'codegen.ts',
    'package-lock.json',
    ...files('test').filter((f) => f.endsWith('.ts') && !f.startsWith(path.join('test', 'gql') + path.sep)),
  ]);
const outputs = () => (existsSync(path.join('test', 'gql')) ? digest(files(path.join('test', 'gql'))) : 'none');

const before = inputs();
const last = existsSync(stamp) ? JSON.parse(readFileSync(stamp, 'utf8')) : undefined;
if (last?.inputs === before && last.outputs === outputs()) {
  console.log('test/gql/ is current (schema.graphql, codegen.ts and the test documents unchanged): codegen skipped');
  process.exit(0);
}
const run = spawnSync('npx', ['graphql-codegen', '--config', 'codegen.ts'], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
mkdirSync(path.dirname(stamp), { recursive: true });
writeFileSync(stamp, JSON.stringify({ inputs: before, outputs: outputs() }));
