// The one way the suites start a sandbox of the payment service: in this
// process, over real HTTP, on a free port of 127.0.0.1.
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, host: '127.0.0.1', ...options });
}
