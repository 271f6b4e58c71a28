// A CPU profile of this process over a stretch of a benchmark (not its start), written as a .cpuprofile that
// bench/lib/profile-summary.ts summarises and Chrome's DevTools opens.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/** Starts sampling this process's CPU; `stop(file)` writes the profile there. */
export async function startProfiler(intervalUs = 200): Promise<{ stop(file: string): Promise<void> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
