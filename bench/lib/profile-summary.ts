// Prints the functions with the most self time in a .cpuprofile (node --cpu-prof), grouped
// by function and file: the quick look before opening the profile in DevTools.
//   npx tsx bench/lib/profile-summary.ts <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}
const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
const top = Number(process.argv[3] ?? 40);
const total = profile.samples.length;
const byKey = new Map<string, number>();
for (const node of profile.nodes) {
  const url = node.callFrame.url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/.*\/dist\//, 'dist/');
  const key = `${node.callFrame.functionName || '(anonymous)'}  ${url}:${node.callFrame.lineNumber + 1}`;
  byKey.set(key, (byKey.get(key) ?? 0) + node.hitCount);
}
const byPackage = new Map<string, number>();
for (const [key, hits] of byKey) {
  const url = key.split('  ')[1] ?? '';
  const pkg = url.startsWith('~/')
    ? url
        .slice(2)
        .split('/')
        .slice(0, url.startsWith('~/@') ? 2 : 1)
        .join('/')
    : url.startsWith('dist/')
      ? url.split(':')[0]!
      : url.split(':')[0] || '(native)';
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
}
const pct = (n: number) => `${((n / total) * 100).toFixed(1)}%`.padStart(6);
console.log(`${total} samples\n\nby package or file:`);
for (const [pkg, hits] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${pct(hits)}  ${pkg}`);
console.log('\nby function (self):');
for (const [key, hits] of [...byKey].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(hits)}  ${key}`);
