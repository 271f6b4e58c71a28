// The gateway as `npm start` starts it: src/main.ts in its own process, with
// no configuration but free ports (and, when a test gives one, the sandbox's
// data folder), so every default a newcomer gets applies: the embedded
// sandbox, TRUSTED_DOCUMENTS' default, the development token. Like `npm start`,
// it runs the sources compiled to JavaScript (once per test run: ./compiled.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compiled } from './compiled.js';
import { waitFor } from './wait.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Only what a shell gives any process: none of the gateway's variables leak in from the test run. */
export function bareEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  return { ...env, ...extra };
}

export interface StartedGateway {
  child: ChildProcess;
  graphqlUrl: string;
  /** "Bearer …", as printed. */
  authorization: string;
  output(): string;
  stop(): Promise<void>;
}

export async function startAsNpmStart(env: Record<string, string> = {}): Promise<StartedGateway> {
  const child = spawn(process.execPath, [compiled('src/main.ts')], {
    cwd: repoRoot,
    // No balancer to wait for: SIGTERM drains at once (SHUTDOWN_GRACE_MS is the only default changed).
    env: bareEnv({ PORT: '0', SANDBOX_PORT: '0', SHUTDOWN_GRACE_MS: '0', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => void (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => void (output += c.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${code}:\n${output}`))),
  );
  exited.catch(() => undefined);
  try {
    await Promise.race([waitFor(() => /Authorization: Bearer \S+/.test(output), 'the development token line', 30_000), exited]);
  } catch (error) {
    // A gateway that did not come up in time is stopped here: the caller never gets its handle to stop it, and a
    // leftover process would hold its ports and a core for the rest of the run.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw error;
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  };
  return {
    child,
    graphqlUrl: /GraphQL gateway ready: (\S+)/.exec(output)![1]!,
    authorization: /Authorization: (Bearer \S+)/.exec(output)![1]!,
    output: () => output,
    stop,
  };
}
