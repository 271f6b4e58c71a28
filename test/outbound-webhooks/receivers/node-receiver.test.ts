// The webhook guide's Node receiver (verified with the `standardwebhooks` library), run as written with `node
// receiver.mjs`: it accepts what the gateway signs, during a rotation too, refuses everything else, and applies
// each event once and never a stale one.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';
import {
  SCRATCH,
  newSecret,
  guideSnippet,
  refusedDeliveries,
  rotationDeliveries,
  send as post,
  signedDelivery,
  startReceiver,
  type RunningReceiver,
} from './guide-receivers.js';

describe('the webhook guide’s Node receiver, run as written', () => {
  const secret = newSecret();
  let folder: string;
  let receiver: RunningReceiver;

  beforeAll(async () => {
    // Inside the project, so `standardwebhooks` resolves from its node_modules as from a merchant's (.scratch/ is gitignored).
    mkdirSync(SCRATCH, { recursive: true });
    folder = mkdtempSync(path.join(SCRATCH, 'node-receiver-'));
    writeFileSync(path.join(folder, 'receiver.mjs'), guideSnippet('**Node** (`npm install standardwebhooks`', 'js'));
    const port = await closedPort();
    receiver = await startReceiver(process.execPath, ['receiver.mjs'], folder, `http://127.0.0.1:${port}/`, {
      PORT: String(port),
      GATEWAY_WEBHOOK_SECRET: secret,
    });
  }, 30_000);
  afterAll(async () => {
    await receiver?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('accepts a delivery signed with its secret and applies it', async () => {
    const delivery = signedDelivery([secret], { reference: 'ch_valid', status: 'SUCCESS', amount: 2500, currency: 'XOF' });
    expect(await post(receiver.url, delivery)).toBe(204);
    await waitFor(() => receiver.output().includes('apply charge.success ch_valid SUCCESS\n'), 'the applied line');
  });

  it.each(refusedDeliveries(secret))('refuses a delivery %s (400) and applies nothing', async (_name, delivery) => {
    expect(await post(receiver.url, delivery)).toBe(400);
    expect(receiver.output()).not.toContain('ch_refused');
  });

  it.each(rotationDeliveries(secret))('accepts both signatures of a rotation, %s', async (_name, delivery) => {
    expect(await post(receiver.url, delivery)).toBe(204);
    const reference = (JSON.parse(delivery.body) as { data: { reference: string } }).data.reference;
    await waitFor(() => receiver.output().includes(`apply charge.success ${reference} SUCCESS\n`), 'the applied line');
  });

  it('applies a webhook-id once: a second delivery of it is answered 2xx and ignored', async () => {
    const delivery = signedDelivery([secret], { reference: 'ch_twice', status: 'SUCCESS' });
    expect(await post(receiver.url, delivery)).toBe(204);
    expect(await post(receiver.url, delivery)).toBe(204);
    await waitFor(() => receiver.output().includes(`duplicate ${delivery.id}\n`), 'the duplicate line');
    expect(receiver.output().match(/apply charge\.success ch_twice /g)).toHaveLength(1);
  });

  it('drops an update older than the one applied for the reference, comparing <ms>-<n> as two integers', async () => {
    // "…-10" is newer than "…-9", though a plain string comparison says otherwise; a later ms is newer still.
    const send = async (sequence: string, status: string, kind: string) => {
      const delivery = signedDelivery([secret], { reference: 'ch_order', status, sequence }, new Date(), kind);
      expect(await post(receiver.url, delivery)).toBe(204);
    };
    await send('1764230400123-10', 'SEND_OTP', 'charge.send_otp');
    await send('1764230400123-9', 'PENDING', 'charge.pending');
    await send('1764230400124-0', 'SUCCESS', 'charge.success');
    await send('1764230400123-11', 'FAILED', 'charge.failed');
    await waitFor(() => receiver.output().includes('stale charge.failed ch_order FAILED\n'), 'the last stale line');
    const lines = receiver
      .output()
      .split('\n')
      .filter((line) => line.includes(' ch_order '));
    expect(lines).toEqual([
      'apply charge.send_otp ch_order SEND_OTP',
      'stale charge.pending ch_order PENDING',
      'apply charge.success ch_order SUCCESS',
      'stale charge.failed ch_order FAILED',
    ]);
  });
});
