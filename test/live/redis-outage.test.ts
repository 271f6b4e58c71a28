// Redis goes away while webhooks keep coming. Two replicas on a redis-server
// of the test's own (append-only file, as the README recommends), subscribers
// on both, and a sender that behaves like a payment service: it retries every
// webhook until it gets a 2xx. Redis is killed (SIGKILL) in the middle of the
// stream and restarted once the sender has been refused a number of times:
// the outage is real and lasts as long as it takes to refuse those webhooks
// (the 15 s is scaled down to that, so the test stays fast; what
// matters is that requests arrive, are refused, and are retried across it).
// Every acknowledged webhook must reach every subscriber exactly once, and a
// chargeUpdated opened during the outage must still get its SUCCESS and complete.
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { signBody } from '../../src/inbound-webhooks/signature.js';
import { startStack, testKey, type TestStack } from '../helpers/gateway.js';
import { startRedisServer, type TestRedisServer } from '../helpers/redis-server.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ResumableEvents } from './event-documents.js';
import { ChargeUpdated, createOtpCharge, submitOtp } from './documents.js';
import { disposeAllClients, probeBus, staffClient, subscribe, waitFor, withTimeout, type BusProbe } from './helpers.js';

const WEBHOOKS = 500;
const SENDERS = 10;
const KILL_AFTER_ACKS = 150;
const REFUSALS_DURING_OUTAGE = 400;
const KIND = 'outage.test';

let server: TestRedisServer;
let sandbox: Sandbox;
const stacks: TestStack[] = [];

afterAll(async () => {
  await disposeAllClients();
  for (const stack of stacks) await stack.close();
  await sandbox?.close();
  await server?.stop();
});

describe('Redis killed while webhooks are posted', () => {
  it(
    `every one of ${WEBHOOKS} acknowledged webhooks reaches every subscriber on both replicas exactly once`,
    { timeout: 60_000 },
    async () => {
      server = await startRedisServer({ persistence: 'aof' });
      sandbox = await startTestSandbox();
      const secret = `whsec_${randomBytes(12).toString('hex')}`;
      const apiKey = testKey('outage');
      const probes: BusProbe[] = [];
      for (let i = 0; i < 2; i++) {
        const stack = await startStack({
          sharedSandbox: sandbox,
          apiKey,
          webhookSecret: secret,
          redisNamespace: 'outage',
          env: { REDIS_URL: server.url, SUBSCRIPTION_POLL_MS: '0', RATE_LIMIT_PER_MINUTE: '100000' },
        });
        stacks.push(stack);
        probes.push(probeBus(stack.gateway.bus));
      }
      // Two subscribers on each replica, each on its own connection.
      const subs = stacks.flatMap((stack) => [0, 1].map(() => subscribe(staffClient(stack), ResumableEvents, { kinds: [KIND] })));
      await waitFor(() => probes.every((p) => p.paymentEventsAttached() >= 2), 'every subscription to be live');

      // The sender: SENDERS workers, each retrying its webhook until a 2xx (any other answer, or none, is retried).
      let acknowledged = 0;
      let refused = 0;
      let next = 0;
      const acked = new Set<string>();
      const send = async (n: number) => {
        const body = JSON.stringify({ id: `dlv_${n}`, event: KIND, data: { reference: `ref_${n}` } });
        const headers = { 'content-type': 'application/json', 'x-webhook-hash': signBody(body, secret, 'hmac-sha256-hex') };
        for (let attempt = 0; ; attempt++) {
          const target = stacks[(n + attempt) % 2]!.gateway.webhookUrl!;
          const status = await request(target, { method: 'POST', headers, body }).then(
            async (res) => (await res.body.dump(), res.statusCode),
            () => 0,
          );
          if (status >= 200 && status < 300) {
            acknowledged += 1;
            acked.add(`ref_${n}`);
            return;
          }
          refused += 1;
          // Retried on the next turn of the event loop: the sender's pace is the gateway's answers, not a timer.
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      const sender = Promise.all(
        Array.from({ length: SENDERS }, async () => {
          while (next < WEBHOOKS) await send(next++);
        }),
      );

      const charge = await createOtpCharge(stacks[0]!); // needs Redis (its idempotency key): made before the outage
      await waitFor(() => acknowledged >= KILL_AFTER_ACKS, `${KILL_AFTER_ACKS} webhooks acknowledged`, 20_000);
      await server.kill();
      const killedAt = Date.now();
      const refusedAtKill = refused;
      await waitFor(() => refused >= refusedAtKill + REFUSALS_DURING_OUTAGE, 'webhooks refused while Redis is down', 20_000);
      const acknowledgedDuringOutage = acknowledged;
      // A chargeUpdated opened while Redis is down: the current state comes from the service, and it is live.
      const updates = subscribe(staffClient(stacks[1]!), ChargeUpdated, { reference: charge });
      expect((await updates.next(5_000, 'the current state during the outage')).chargeUpdated.status).toBe('SEND_OTP');
      await server.restart();
      process.stderr.write(`redis-outage: Redis down ${Date.now() - killedAt} ms, ${refused} refusals retried\n`);
      await sender;

      expect(acknowledged).toBe(WEBHOOKS);
      expect(refused).toBeGreaterThanOrEqual(REFUSALS_DURING_OUTAGE);
      // Nothing was acknowledged while Redis was down except what was already on its way: a 200 means logged.
      expect(acknowledgedDuringOutage).toBeLessThan(WEBHOOKS);

      const references = (sub: (typeof subs)[number]) => sub.results.map((r) => r.data?.paymentEvents.reference);
      await waitFor(() => subs.every((s) => s.results.length >= WEBHOOKS), 'every subscriber to receive every event', 20_000);
      for (const sub of subs) {
        expect(sub.results.every((r) => !r.errors)).toBe(true);
        expect(new Set(references(sub))).toEqual(acked);
        expect(sub.isEnded).toBe(false);
      }
      // The charge is paid after the outage; its webhook goes to the other replica: the subscription opened during
      // the outage gets SUCCESS and completes.
      await submitOtp(stacks[0]!, charge);
      const paid = JSON.stringify({ event: 'charge.success', data: { reference: charge, status: 'success' } });
      const paidReply = await request(stacks[0]!.gateway.webhookUrl!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-hash': signBody(paid, secret, 'hmac-sha256-hex') },
        body: paid,
      });
      await paidReply.body.dump();
      expect(paidReply.statusCode).toBe(200);
      expect((await updates.next(5_000, 'SUCCESS after the outage')).chargeUpdated).toMatchObject({ reference: charge, status: 'SUCCESS' });
      expect(await withTimeout(updates.ended, 3_000, 'the stream to complete')).toEqual({ kind: 'complete' });

      // Each replica's reader saw the outage and read on from where it stopped.
      for (const stack of stacks) expect(stack.logLines.some((l) => l.includes('event log reading resumed'))).toBe(true);
      // One order, the log's, for everyone.
      for (const sub of subs.slice(1)) expect(references(sub)).toEqual(references(subs[0]!));

      // A barrier: a last webhook is the next event everyone gets, so none got a second copy of anything.
      const body = JSON.stringify({ id: 'dlv_marker', event: KIND, data: { reference: 'ref_marker' } });
      const res = await request(stacks[0]!.gateway.webhookUrl!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-hash': signBody(body, secret, 'hmac-sha256-hex') },
        body,
      });
      await res.body.dump();
      expect(res.statusCode).toBe(200);
      await waitFor(() => subs.every((s) => s.results.length > WEBHOOKS), 'the marker everywhere');
      for (const sub of subs) {
        expect(sub.results).toHaveLength(WEBHOOKS + 1);
        expect(references(sub).at(-1)).toBe('ref_marker');
      }
    },
  );
});
