// A noisy merchant's flood sent by wrk (bench/lib/flood.lua), whose C client costs a small part of what a Node
// client does per request (bench/lib/flood-client.ts: about 150 µs of CPU each on this 2-core machine, a quarter
// of a core at 50 times a budget): on one machine the flood's sender competes for the cores with the gateway it
// floods, where a real neighbour's traffic comes from elsewhere. Started on `start`, stopped by SIGINT on `stop`
// (wrk then prints its Lua `done` line); the counts of every period add up.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { endsWithThisProcess } from './processes.js';
import { ROOT } from './stack.js';

/** The flood's answers by kind, and how long it ran. */
export interface FloodCounts {
  ok: number;
  rateLimited: number;
  other: number;
  seconds: number;
}

/** The flood's answers by the tenth of a second they came in (wall clock: Date.now() / 100). */
export type AnswersByTenth = Map<number, number>;

/** Answers per second over [fromMs, toMs) (Date.now() times), from their count by tenth of a second. */
export function answerRate(answered: AnswersByTenth, fromMs: number, toMs: number): number {
  let count = 0;
  for (let tenth = Math.ceil(fromMs / 100); tenth < Math.floor(toMs / 100); tenth++) count += answered.get(tenth) ?? 0;
  const tenths = Math.floor(toMs / 100) - Math.ceil(fromMs / 100);
  return tenths > 0 ? (count * 10) / tenths : 0;
}

/**
 * A flood of `query` at `rate` requests per second over up to `connections` kept-alive connections (an open-loop
 * schedule, bench/lib/flood.lua: the rate holds while fewer than `connections` requests wait for their answer at
 * once; the figures print the one measured).
 */
export function wrkFlood(url: string, bearer: string, query: string, rate: number, connections: number, accept?: string) {
  const totals: FloodCounts = { ok: 0, rateLimited: 0, other: 0, seconds: 0 };
  const answered: AnswersByTenth = new Map();
  let running: { child: ChildProcess; output: string[]; t0: number } | null = null;
  return {
    totals,
    answered,
    async start() {
      const child = spawn('wrk', ['-t1', `-c${connections}`, '-d3600s', '-s', join(ROOT, 'bench/lib/flood.lua'), url], {
        env: {
          PATH: process.env.PATH ?? '',
          FLOOD_BODY: JSON.stringify({ query }),
          FLOOD_BEARER: bearer,
          ...(accept ? { FLOOD_ACCEPT: accept } : {}),
          FLOOD_RATE: String(rate),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      endsWithThisProcess(child);
      const output: string[] = [];
      child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      running = { child, output, t0: performance.now() };
    },
    async stop() {
      if (!running) return;
      const { child, output, t0 } = running;
      running = null;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
      totals.seconds += (performance.now() - t0) / 1000;
      const line = output.join('').match(/^counts (\{.*\})$/m);
      if (!line) throw new Error(`wrk printed no counts: ${output.join('')}`);
      const counts = JSON.parse(line[1]!) as Omit<FloodCounts, 'seconds'> & { answered: Record<string, number> };
      for (const [tenth, n] of Object.entries(counts.answered)) answered.set(Number(tenth), (answered.get(Number(tenth)) ?? 0) + n);
      totals.ok += counts.ok;
      totals.rateLimited += counts.rateLimited;
      totals.other += counts.other;
    },
  };
}
