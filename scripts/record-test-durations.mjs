// Writes test/file-durations.json from a vitest JSON report (`npm test -- --reporter=json --outputFile=F`, then
// `node scripts/record-test-durations.mjs F`): each test file's wall time, in seconds, for files of a second or more.
// test/sequencer.ts starts the longest files first when vitest has no timings of its own (a fresh clone, CI).
// Take the report from a run on a fresh clone of the 2-core machine, so that the order matches the runs it serves.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [reportPath] = process.argv.slice(2);
if (!reportPath) {
  console.error('usage: node scripts/record-test-durations.mjs <vitest-json-report>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const durations = Object.fromEntries(
  report.testResults
    .map((file) => [
      path.relative(process.cwd(), file.name).split(path.sep).join('/'),
      Math.round((file.endTime - file.startTime) / 100) / 10,
    ])
    .filter(([, seconds]) => seconds >= 1)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)),
);
writeFileSync(path.join('test', 'file-durations.json'), JSON.stringify(durations, null, 2) + '\n');
console.log(`test/file-durations.json: ${Object.keys(durations).length} files of a second or more`);
