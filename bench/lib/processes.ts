// Each party of a benchmark runs in its own process (the gateway, the stub of the
// payment service, the load generator), so that none of them measures the others'
// work as its own. A child announces it is ready by printing a line that matches.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface Child {
  process: ChildProcess;
  /** The first match of the ready pattern. */
  ready: RegExpMatchArray;
  /** Milliseconds from spawn to the ready line. */
  startMs: number;
  /** Writes a command line and resolves with the first later output line that starts with `replyPrefix`. */
  ask(command: string, replyPrefix: string): Promise<string>;
  stop(): Promise<void>;
}

/** Children still running, killed when this process exits however it ends (a benchmark that throws included). */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Kills `child` when this process exits, if it is still running then: a crashed benchmark leaves no load behind. */
export function endsWithThisProcess(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
}

export async function startChild(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; ready: RegExp; timeoutMs?: number; label: string },
): Promise<Child> {
  const started = performance.now();
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  endsWithThisProcess(child);
  const stderr: string[] = [];
  const waiting: Array<{ prefix: string; resolve: (line: string) => void }> = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const ready = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${options.label} not ready in time: ${stderr.join('')}`)),
      options.timeoutMs ?? 60_000,
    );
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const waiter = waiting.findIndex((w) => line.startsWith(w.prefix));
      if (waiter >= 0) waiting.splice(waiter, 1)[0]!.resolve(line);
      const match = line.match(options.ready);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${options.label} exited (${code}) before it was ready: ${stderr.join('')}`));
    });
  });
  return {
    process: child,
    ready,
    startMs: performance.now() - started,
    ask: (command, replyPrefix) =>
      new Promise<string>((resolve) => {
        waiting.push({ prefix: replyPrefix, resolve });
        child.stdin!.write(`${command}\n`);
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}
