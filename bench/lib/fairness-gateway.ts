// The platform-mode gateway of bench/platform-fairness.ts in a process of its own, so that its event loop carries
// the gateway's work only (as in production), not the sandbox's, the receivers' or the measuring client's. Its
// settings come as one JSON argument; commands on stdin, one line each, each answered by one line:
//   publish <event record JSON>  → `published <id>` (logged as the merchant's webhook route would)
//   purge                        → `purged <ms>` (offboarded merchants whose grace is over)
//   cpu                          → `cpu <µs>` (this process's user + system CPU so far)
//   profile                      → `profiling` (a CPU profile starts, bench/lib/in-process-profile.ts)
//   profiled <file>              → `profiled` (the profile, written to the file)
//   loop                         → `loop <ms>` (the longest event-loop delay since the last `loop`; then reset)
//   exit                         → closes the gateway, then the process ends
//
//   node --import tsx bench/lib/fairness-gateway.ts '<env JSON>' <redis namespace>
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/config.js';
import type { PaymentEventRecord } from '../../src/events/payment-event.js';
import { startGateway } from '../../src/gateway.js';
import { silentLogger } from '../../src/logger.js';
import { startProfiler } from './in-process-profile.js';

const [env, namespace] = process.argv.slice(2) as [string, string];
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
let profiler: Awaited<ReturnType<typeof startProfiler>> | null = null;
const gateway = await startGateway(loadConfig(JSON.parse(env) as Record<string, string>), silentLogger, { redisNamespace: namespace });

createInterface({ input: process.stdin }).on('line', (line) => {
  void (async () => {
    const [command, ...rest] = line.split(' ');
    if (command === 'publish') {
      const record = JSON.parse(rest.join(' ')) as PaymentEventRecord;
      await gateway.bus.publishPaymentEventOnce(record, 3_600_000);
      process.stdout.write(`published ${record.id} .\n`);
    } else if (command === 'purge') {
      const t0 = performance.now();
      await gateway.merchants!.purgeDue();
      process.stdout.write(`purged ${performance.now() - t0}\n`);
    } else if (command === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.stdout.write(`cpu ${user + system}\n`);
    } else if (command === 'profile') {
      profiler = await startProfiler();
      process.stdout.write('profiling\n');
    } else if (command === 'profiled') {
      await profiler?.stop(rest.join(' '));
      process.stdout.write('profiled\n');
    } else if (command === 'loop') {
      process.stdout.write(`loop ${loopDelay.max / 1e6}\n`);
      loopDelay.reset();
    } else if (command === 'exit') {
      await gateway.close();
      process.exit(0);
    }
  })();
});
process.stdout.write(`fairness gateway ready ${gateway.graphqlUrl}\n`);
