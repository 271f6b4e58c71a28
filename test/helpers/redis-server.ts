// A real redis-server of the test's own, on a spare port, that the test can
// kill (SIGKILL, by PID), restart on the same port, fill to its maxmemory, or
// configure with an eviction policy and persistence of its choice.
// Every server started here is killed when the test process exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServerOptions {
  /** e.g. '2mb'. Default: no limit. */
  maxmemory?: string;
  /** Default 'noeviction'. */
  maxmemoryPolicy?: string;
  /** 'none' (default): an empty server after restart; 'aof': every write kept across restarts; 'rdb': snapshot settings on (only on shutdown/explicit SAVE). */
  persistence?: 'none' | 'aof' | 'rdb';
  requirePass?: string;
  /** More `redis-server` arguments, e.g. `['--replicaof', '127.0.0.1', '6380']` or `['--cluster-enabled', 'yes']`. */
  extraArgs?: string[];
}

export interface TestRedisServer {
  readonly port: number;
  /** redis://[:password@]127.0.0.1:port */
  readonly url: string;
  readonly pid: number | undefined;
  /** SIGKILL by PID; resolves once the process is gone (its port then refuses connections). */
  kill(): Promise<void>;
  /** Kills the running process (if any) and starts a new one on the same port, with the same options. */
  restart(): Promise<void>;
  /** Kills it and removes its directory. Idempotent. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startRedisServer(options: RedisServerOptions = {}): Promise<TestRedisServer> {
  const port = await sparePort();
  const dir = mkdtempSync(join(tmpdir(), 'test-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--daemonize',
    'no',
    '--save',
    options.persistence === 'rdb' ? '3600 1' : '',
    '--appendonly',
    options.persistence === 'aof' ? 'yes' : 'no',
    '--appendfsync',
    'always',
    '--maxmemory-policy',
    options.maxmemoryPolicy ?? 'noeviction',
  ];
  if (options.maxmemory) args.push('--maxmemory', options.maxmemory);
  if (options.requirePass) args.push('--requirepass', options.requirePass);
  if (options.extraArgs) args.push(...options.extraArgs);

  let child: ChildProcess | null = null;
  const launch = async () => {
    child = await launchRedis(args);
  };
  const kill = async () => {
    const current = child;
    child = null;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    process.kill(current.pid!, 'SIGKILL');
    await exited;
    running.delete(current);
  };
  await launch();
  let stopped = false;
  return {
    port,
    url: `redis://${options.requirePass ? `:${encodeURIComponent(options.requirePass)}@` : ''}127.0.0.1:${port}`,
    get pid() {
      return (child as ChildProcess | null)?.pid;
    },
    kill,
    async restart() {
      await kill();
      await launch();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts `redis-server <args>` and resolves once its log shows `ready` (a data node's "Ready to accept connections" by default). */
export function launchRedis(args: string[], ready = /Ready to accept connections/): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        child.stdout!.off('data', onData);
        // Keep draining so a chatty server never blocks on a full pipe.
        child.stdout!.resume();
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.resume();
    child.once('exit', (code) => {
      running.delete(child);
      reject(new Error(`redis-server exited (${code}) before it was ready: ${output.slice(-500)}`));
    });
    child.once('error', reject);
  });
}

/** A port that was free a moment ago (the OS picks it; redis-server then binds it). */
export function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
