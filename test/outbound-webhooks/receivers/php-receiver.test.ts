// The webhook guide's PHP receiver (plain PHP: hash_hmac and hash_equals, no Composer package), run as written under
// Debian's php-cli (`php -S 127.0.0.1:<port> receiver.php`): it accepts what the gateway signs, during a rotation
// too, and refuses everything else. Where php is not installed the tests are skipped, and say why.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';
import {
  SCRATCH,
  newSecret,
  guideSnippet,
  refusedDeliveries,
  rotationDeliveries,
  send,
  signedDelivery,
  startReceiver,
  type RunningReceiver,
} from './guide-receivers.js';

const hasPhp = spawnSync('php', ['--version'], { stdio: 'ignore' }).status === 0;
const MISSING = 'php is not installed: the webhook guide’s PHP receiver is not run (Debian: apt-get install php-cli; .ci/run installs it)';

if (!hasPhp) {
  process.stderr.write(`SKIPPED: ${MISSING}\n`);
  describe('the webhook guide’s PHP receiver', () => {
    it.skip(MISSING, () => undefined);
  });
}

describe.runIf(hasPhp)('the webhook guide’s PHP receiver, run as written under php-cli', () => {
  const secret = newSecret();
  let folder: string;
  let receiver: RunningReceiver;

  beforeAll(async () => {
    mkdirSync(SCRATCH, { recursive: true });
    folder = mkdtempSync(path.join(SCRATCH, 'php-receiver-'));
    writeFileSync(path.join(folder, 'receiver.php'), guideSnippet('**PHP** (no Composer package', 'php'));
    const port = await closedPort();
    receiver = await startReceiver('php', ['-S', `127.0.0.1:${port}`, 'receiver.php'], folder, `http://127.0.0.1:${port}/`, {
      GATEWAY_WEBHOOK_SECRET: secret,
    });
  }, 30_000);
  afterAll(async () => {
    await receiver?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('accepts a delivery signed with its secret, reads the event and pads its position for comparison', async () => {
    const delivery = signedDelivery([secret], { reference: 'ch_valid', status: 'SUCCESS', amount: 2500, sequence: '1764230400123-9' });
    expect(await send(receiver.url, delivery)).toBe(204);
    await waitFor(
      () => receiver.output().includes('webhook charge.success ch_valid SUCCESS 0001764230400123-0000000000000009'),
      'the receiver’s log line',
    );
  });

  it.each(refusedDeliveries(secret))('refuses a delivery %s (400) and reads nothing', async (_name, delivery) => {
    expect(await send(receiver.url, delivery)).toBe(400);
    expect(receiver.output()).not.toContain('ch_refused');
  });

  it.each(rotationDeliveries(secret))('accepts both signatures of a rotation, %s', async (_name, delivery) => {
    expect(await send(receiver.url, delivery)).toBe(204);
    const reference = (JSON.parse(delivery.body) as { data: { reference: string } }).data.reference;
    await waitFor(() => receiver.output().includes(`webhook charge.success ${reference} SUCCESS`), 'the receiver’s log line');
  });

  it('refuses a request that is not a POST', async () => {
    const res = await request(receiver.url, { method: 'GET' });
    await res.body.dump();
    expect(res.statusCode).toBe(400);
  });
});
