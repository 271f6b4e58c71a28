// Prints where a .cpuprofile (node --cpu-prof) spent its busy time: idle samples and module loading
// (the start) are left out, so that the shares are those of serving requests, whatever the load of
// the machine was. Native frames (a socket write, a file write) are charged to the module that called
// them. The quick look before opening the profile in Chrome's DevTools. A frame in the production bundle
// (dist/bundle/, scripts/bundle.mjs) is charged to the module esbuild's marker above its line names
// (`// node_modules/<package>/...` or `// dist/src/...`), so the shares read as they would unbundled.
//   npx tsx bench/lib/profile-summary.ts <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
const top = Number(process.argv[3] ?? 40);

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const ancestors = function* (id: number) {
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) yield byId.get(at)!;
};

/** Per bundle file, the line of each module marker and the module's path, in order. */
const markers = new Map<string, Array<[number, string]>>();
function markersOf(url: string): Array<[number, string]> {
  let found = markers.get(url);
  if (!found) {
    found = [];
    const lines = readFileSync(fileURLToPath(url), 'utf8').split('\n');
    lines.forEach((line, at) => {
      const marker = /^\/\/ ((?:node_modules|dist\/src)\/\S+)$/.exec(line);
      if (marker) found!.push([at, marker[1]!]);
    });
    markers.set(url, found);
  }
  return found;
}
/** A bundle frame's url made that of the module it came from (the last marker at or above its line). */
function unbundled(callFrame: ProfileNode['callFrame']): void {
  if (!/\/dist\/bundle\/.*\.mjs$/.test(callFrame.url)) return;
  const list = markersOf(callFrame.url);
  let low = 0;
  let high = list.length - 1;
  let best = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (list[mid]![0] <= callFrame.lineNumber) [best, low] = [mid, mid + 1];
    else high = mid - 1;
  }
  // Above the first marker: esbuild's own helpers (module wrappers, the getters of re-exported bindings).
  if (best < 0) return void (callFrame.url = '(esbuild runtime)');
  callFrame.url = `file:///${list[best]![1]}`;
  // The line within the bundled module (its marker is the line above its first): near, not the source's own.
  callFrame.lineNumber -= list[best]![0] + 1;
}
for (const node of profile.nodes) unbundled(node.callFrame);

const shortUrl = (url: string) => url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/.*?\/?dist\//, 'dist/');
/** The package (node_modules), the compiled file (dist/), or the Node module (node:...). */
function moduleOf(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  return shortUrl(url).replace(/:\d+$/, '');
}
const isLoading = (node: ProfileNode) => /internal\/modules\/(esm|cjs)/.test(node.callFrame.url);

const hitsOf = new Map<number, number>();
for (const id of profile.samples) hitsOf.set(id, (hitsOf.get(id) ?? 0) + 1);
let busy = 0;
let loading = 0;
let idle = 0;
const byModule = new Map<string, number>();
const byFunction = new Map<string, number>();
const add = (map: Map<string, number>, key: string, hits: number) => map.set(key, (map.get(key) ?? 0) + hits);
for (const [id, hits] of hitsOf) {
  const node = byId.get(id)!;
  if (node.callFrame.functionName === '(idle)') {
    idle += hits;
    continue;
  }
  if ([...ancestors(id)].some(isLoading)) {
    loading += hits;
    continue;
  }
  busy += hits;
  // A native frame (no url) is charged to its nearest caller with a url.
  const caller = [...ancestors(id)].find((n) => n.callFrame.url !== '');
  const frame = caller?.callFrame;
  add(byModule, frame ? moduleOf(frame.url) : node.callFrame.functionName, hits);
  const own = node.callFrame;
  const name = own.url
    ? `${own.functionName || '(anonymous)'}  ${shortUrl(own.url)}:${own.lineNumber + 1}`
    : `[${own.functionName}]${frame ? ` in ${frame.functionName || '(anonymous)'}  ${shortUrl(frame.url)}:${frame.lineNumber + 1}` : ''}`;
  add(byFunction, name, hits);
}

const pct = (n: number) => `${((n / busy) * 100).toFixed(1)}%`.padStart(6);
console.log(`${profile.samples.length} samples: ${idle} idle, ${loading} loading modules, ${busy} busy (the shares below)`);
console.log('\nby package, compiled file or Node module (self time):');
for (const [key, hits] of [...byModule].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${pct(hits)}  ${key}`);
console.log('\nby function (self):');
for (const [key, hits] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(hits)}  ${key}`);
