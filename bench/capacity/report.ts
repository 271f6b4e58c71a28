// The capacity bench's tables, in Markdown (pasted into docs/performance.md, "Capacity", as printed).
import type { PathCost } from './count.js';
import type { ReplayRow } from './replay.js';
import type { ScaleRow } from './scale.js';

const f = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const int = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');
/**
 * A per-operation figure net of the idle fleet's own traffic: below zero when that traffic (which varies on a loaded
 * machine) outweighed the operations' (few operations, many replicas): then it says so rather than print a number.
 */
const net = (x: number, format: (x: number) => string) => (x < 0 ? 'noise' : format(x));

export function printPathCosts(costs: PathCost[]): void {
  console.log('\nRedis per operation, one replica, one operation at a time (commands a Lua script runs counted in "commands"):\n');
  console.log('| hot path | commands | round trips | commands by name, per operation |');
  console.log('|---|---|---|---|');
  const webhook = costs.find((c) => c.label === 'webhook received (no subscriber)');
  for (const c of costs) {
    const over = c.roundTrips > 3.05 ? ' (over 3: see docs/performance.md, "Capacity")' : '';
    const byName = c.calls.map(([name, n]) => `${name} ${f(n, 2)}`).join(', ');
    console.log(`| ${c.label} | ${f(c.commands, 2)} | ${f(c.roundTrips, 2)}${over} | ${byName} |`);
    if (webhook && c.label.includes('(outgoing)')) {
      const more = (x: number, y: number) => f(x - y, 2);
      console.log(
        `| of which the outgoing delivery alone | ${more(c.commands, webhook.commands)} | ${more(c.roundTrips, webhook.roundTrips)} | (the row above less "webhook received") |`,
      );
    }
  }
}

export function printReplay(rows: Array<ReplayRow & { topology: string }>): void {
  console.log("\nRedis kept busy by the gateway's own store code (no GraphQL/HTTP in front), busiest primary:\n");
  console.log(
    '| kind | Redis | driven, ops/s | busiest primary busy | Redis CPU per operation | of which `INFO` in a script | one primary at 100% of a core |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.kind} | ${r.topology} | ${int(r.perSecond)} | ${f(r.busiestPrimaryShare * 100)}% | ${f(r.cpuUsPerOp)} µs | ${f(r.infoUsPerOp)} µs | ${int(1e6 / r.cpuUsPerOp)} ops/s |`,
    );
  }
}

export function printScale(rows: ScaleRow[], replicaCounts: number[]): void {
  console.log('\nReplicas on this machine (2 cores, shared), load from every replica at once, upstream the fast stub:\n');
  const heads = replicaCounts.map((r) => `${r}`).join(' / ');
  console.log(
    `| kind | Redis | ops/s at ${heads} replicas | commands per op | round trips per op | Redis CPU per 1,000 ops, all nodes (ms) | of which the busiest primary (ms) | p99 at ${replicaCounts.at(-1)} (ms) | failed |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  const groups = new Map<string, ScaleRow[]>();
  for (const r of rows) groups.set(`${r.kind}|${r.topology}`, [...(groups.get(`${r.kind}|${r.topology}`) ?? []), r]);
  for (const [key, group] of groups) {
    const [kind, topology] = key.split('|') as [string, string];
    const at = (pick: (r: ScaleRow) => string) =>
      replicaCounts
        .map((n) => {
          const r = group.find((g) => g.replicas === n);
          return r ? pick(r) : '-';
        })
        .join(' / ');
    const failed = group.reduce((n, r) => n + r.failed, 0);
    const last = group.at(-1)!;
    console.log(
      `| ${kind} | ${topology} | ${at((r) => int(r.perSecond))} | ${at((r) => net(r.commandsPerOp, f))} | ${at((r) => net(r.roundTripsPerOp, (x) => f(x, 2)))} | ${at((r) => net(r.cpuMsPer1000, int))} | ${at((r) => net(r.busiestPrimaryCpuMsPer1000, int))} | ${int(last.p99Ms)} | ${failed} |`,
    );
  }
}
