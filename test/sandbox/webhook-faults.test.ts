// Webhook delivery faults: duplicate, late, out of order, dropped; each checked
// at a real HTTP receiver that records the bytes and signatures that arrive.
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, startSandbox, type ManualClock, type Sandbox } from '../../src/sandbox/index.js';
import { Api, newKey } from './helpers.js';
import { hmacHex, startRecorder, type Recorder } from './webhook-recorder.js';

const SECRET = 'whsec_delivery_faults';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Setup {
  recorder: Recorder;
  sandbox: Sandbox;
  api: Api;
}

async function setup(clock?: ManualClock): Promise<Setup> {
  const recorder = await startRecorder();
  const sandbox = await startSandbox({
    ...(clock ? { clock } : {}),
    webhook: { url: recorder.url, secret: SECRET, scheme: 'hmac-sha256-hex' },
  });
  const api = new Api(sandbox.url, newKey('wh_faults'));
  cleanups.push(
    () => recorder.close(),
    () => sandbox.close(),
    () => api.close(),
  );
  return { recorder, sandbox, api };
}

/** Emits exactly one event, checkout.pending. */
async function checkout(api: Api): Promise<string> {
  const res = await api.post('/v1/payment/checkouts/initialize/', {
    amount: 500,
    success_url: 'http://shop.test/ok',
    cancel_url: 'http://shop.test/ko',
  });
  expect(res.status).toBe(201);
  return (await api.get(`/v1/payment/checkouts/${res.body.data.reference}`)).body.data.reference as string;
}

function expectSigned(recorder: Recorder): void {
  expect(recorder.arrivals.length).toBeGreaterThan(0);
  for (const a of recorder.arrivals) expect(a.signature).toBe(hmacHex(a.body, SECRET));
}

describe('duplicate', () => {
  it('delivers the event twice: the same bytes and signature, each copy a first attempt', async () => {
    const clock = manualClock();
    const { recorder, sandbox, api } = await setup(clock);
    sandbox.webhookFaults.add({ kind: 'duplicate', event: 'charge.success' });
    const ref = await api.paidCharge();
    await clock.advance(0);

    expect(recorder.order()).toEqual([`charge.success ${ref}`, `charge.success ${ref}`]);
    const [first, copy] = recorder.arrivals;
    expect(copy!.body.equals(first!.body)).toBe(true);
    expect(copy!.signature).toBe(first!.signature);
    expectSigned(recorder);
    expect(first!.data).toEqual((await api.get(`/v1/payment/charges/${ref}`)).body.data);
    expect(sandbox.webhooks.all().map((d) => [d.event, d.attempt, d.ok])).toEqual([
      ['charge.success', 1, true],
      ['charge.success', 1, true],
    ]);

    // times defaults to 1: the next event is delivered once.
    expect(sandbox.webhookFaults.list()).toEqual([]);
    const next = await api.paidCharge();
    await clock.advance(0);
    expect(recorder.order().slice(2)).toEqual([`charge.success ${next}`]);
  });
});

describe('delay', () => {
  it('until: nothing arrives before the manual clock reaches the time; then the event, signed', async () => {
    const clock = manualClock();
    const { recorder, sandbox, api } = await setup(clock);
    const due = clock.now() + 60_000;
    sandbox.webhookFaults.add({ kind: 'delay', event: 'charge.success', until: due });
    const ref = await api.paidCharge();

    await clock.advance(59_999);
    expect(recorder.arrivals).toEqual([]);
    expect(sandbox.webhooks.all()).toEqual([]);

    await clock.advance(1);
    expect(recorder.order()).toEqual([`charge.success ${ref}`]);
    expectSigned(recorder);
    expect(sandbox.webhooks.all()).toMatchObject([{ event: 'charge.success', attempt: 1, ok: true, at: due }]);
    // The payload is the resource as it was when the event happened.
    expect(recorder.arrivals[0]!.data.status).toBe('success');
  });

  it('ms on the manual clock: other events go out meanwhile; the late one arrives when its time comes', async () => {
    const clock = manualClock();
    const { recorder, sandbox, api } = await setup(clock);
    sandbox.webhookFaults.add({ kind: 'delay', event: 'checkout.pending', ms: 5_000 });
    const late = await checkout(api);
    const onTime = await checkout(api);
    await clock.advance(4_999);
    expect(recorder.order()).toEqual([`checkout.pending ${onTime}`]);
    await clock.advance(1);
    expect(recorder.order()).toEqual([`checkout.pending ${onTime}`, `checkout.pending ${late}`]);
    expectSigned(recorder);
  });

  it('ms on the real clock: not on the wire when the API answers, arrives afterwards, after a later event', async () => {
    const { recorder, sandbox, api } = await setup();
    sandbox.webhookFaults.add({ kind: 'delay', event: 'checkout.pending', ms: 1_000 });
    const late = await checkout(api);
    await sandbox.webhooks.idle();
    expect(recorder.arrivals).toEqual([]);

    const onTime = await checkout(api);
    await recorder.arrived(2);
    expect(recorder.order()).toEqual([`checkout.pending ${onTime}`, `checkout.pending ${late}`]);
    expectSigned(recorder);
  });
});

describe('out_of_order', () => {
  it('holds the event and sends it right after the next delivery', async () => {
    const clock = manualClock();
    const { recorder, sandbox, api } = await setup(clock);
    sandbox.webhookFaults.add({ kind: 'out_of_order', event: 'charge.success' });
    const first = await api.paidCharge();
    await clock.advance(60_000);
    expect(recorder.arrivals).toEqual([]);

    const second = await api.paidCharge();
    await clock.advance(0);
    expect(recorder.order()).toEqual([`charge.success ${second}`, `charge.success ${first}`]);
    expectSigned(recorder);
    expect(recorder.arrivals[1]!.data).toMatchObject({ reference: first, status: 'success' });
  });

  it('release() sends what is held when no other event follows', async () => {
    const clock = manualClock();
    const { recorder, sandbox, api } = await setup(clock);
    sandbox.webhookFaults.add({ kind: 'out_of_order', event: 'checkout.pending', times: 2 });
    const a = await checkout(api);
    const b = await checkout(api);
    await clock.advance(0);
    expect(recorder.arrivals).toEqual([]);

    expect(sandbox.webhookFaults.release()).toBe(2);
    await sandbox.webhooks.idle();
    expect(recorder.order()).toEqual([`checkout.pending ${a}`, `checkout.pending ${b}`]);
    expectSigned(recorder);
    expect(sandbox.webhookFaults.release()).toBe(0);
  });
});

describe('drop', () => {
  it('never delivers the event, nor retries it; later events go out', async () => {
    const clock = manualClock();
    const { recorder, sandbox, api } = await setup(clock);
    sandbox.webhookFaults.add({ kind: 'drop', event: 'charge.success' });
    await api.paidCharge();
    await clock.advance(60_000);
    expect(recorder.arrivals).toEqual([]);
    expect(sandbox.webhooks.all()).toEqual([]);

    const next = await api.paidCharge();
    await clock.advance(0);
    expect(recorder.order()).toEqual([`charge.success ${next}`]);
    expectSigned(recorder);
  });

  it('matches one resource by reference, any number of times', async () => {
    const clock = manualClock();
    const { recorder, sandbox, api } = await setup(clock);
    const lost = (await api.post('/v1/payment/transfers/', { amount: 500, recipient_phone: '76123456' })).body.data.reference as string;
    const kept = (await api.post('/v1/payment/transfers/', { amount: 500, recipient_phone: '76123457' })).body.data.reference as string;
    const id = sandbox.webhookFaults.add({ kind: 'drop', reference: lost, times: 'unlimited' });
    await clock.advance(sandbox.delays.transferMs);
    expect(recorder.order()).toEqual([`transfer.success ${kept}`]);
    expect(sandbox.webhookFaults.list()).toMatchObject([{ id, remaining: Infinity }]);
  });
});

describe('the programmatic API', () => {
  it('refuses malformed specs with a TypeError naming the problem', async () => {
    const { sandbox } = await setup(manualClock());
    expect(() => sandbox.webhookFaults.add({ kind: 'explode' } as never)).toThrow(/kind must be one of/);
    expect(() => sandbox.webhookFaults.add({ kind: 'drop', event: 'charge.sucess' })).toThrow(/event must be one of/);
    expect(() => sandbox.webhookFaults.add({ kind: 'delay' } as never)).toThrow(/exactly one of ms or until/);
    expect(() => sandbox.webhookFaults.add({ kind: 'delay', ms: 1, until: 2 } as never)).toThrow(/exactly one of ms or until/);
    expect(() => sandbox.webhookFaults.add({ kind: 'delay', ms: -1 })).toThrow(/ms/);
    expect(() => sandbox.webhookFaults.add({ kind: 'drop', times: 0 })).toThrow(/times/);
    expect(sandbox.webhookFaults.list()).toEqual([]);
  });

  it('first matching fault applies; remove() and clear()', async () => {
    const clock = manualClock();
    const { recorder, sandbox, api } = await setup(clock);
    const drop = sandbox.webhookFaults.add({ kind: 'drop', event: /^checkout\./ });
    sandbox.webhookFaults.add({ kind: 'duplicate' });
    await checkout(api); // dropped: the first fault matches
    const twice = await checkout(api); // the drop is used up: duplicated
    await clock.advance(0);
    expect(recorder.order()).toEqual([`checkout.pending ${twice}`, `checkout.pending ${twice}`]);
    expect(sandbox.webhookFaults.remove(drop)).toBe(false);

    sandbox.webhookFaults.add({ kind: 'drop', times: 'unlimited' });
    sandbox.webhookFaults.clear();
    const once = await checkout(api);
    await clock.advance(0);
    expect(recorder.order().slice(2)).toEqual([`checkout.pending ${once}`]);
  });
});

describe('webhook fault control over HTTP (/_sandbox/webhook-faults)', () => {
  it('POST adds (snake_case), GET lists, DELETE /:id and DELETE clear; no key needed', async () => {
    const clock = manualClock();
    const { sandbox, api } = await setup(clock);
    const admin = (method: string, path: string, body?: unknown) =>
      api.call(method, `/_sandbox/webhook-faults${path}`, body, { key: null });

    const a = await admin('POST', '', { kind: 'duplicate', event_pattern: '^transfer\\.', times: 'unlimited' });
    expect(a.status).toBe(201);
    const b = await admin('POST', '', { kind: 'delay', event: 'charge.success', until: '2025-01-15T10:00:00Z' });
    const c = await admin('POST', '', { kind: 'delay', reference: 'ch_x', ms: 2_000, times: 3 });
    const listed = await admin('GET', '');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { id: a.body.data.id, kind: 'duplicate', event: '/^transfer\\./', reference: null, remaining: 'unlimited' },
      { id: b.body.data.id, kind: 'delay', event: 'charge.success', reference: null, until: '2025-01-15T10:00:00.000Z', remaining: 1 },
      { id: c.body.data.id, kind: 'delay', event: null, reference: 'ch_x', ms: 2_000, remaining: 3 },
    ]);

    expect((await admin('DELETE', `/${a.body.data.id}`)).status).toBe(200);
    expect((await admin('DELETE', `/${a.body.data.id}`)).status).toBe(404);
    expect(sandbox.webhookFaults.list()).toHaveLength(2);
    expect((await admin('DELETE', '')).status).toBe(200);
    expect(sandbox.webhookFaults.list()).toEqual([]);
  });

  it('each mode works when set over HTTP: duplicate, delay until an ISO time, out_of_order + release, drop', async () => {
    const clock = manualClock();
    const { recorder, api } = await setup(clock);
    const admin = (method: string, path: string, body?: unknown) =>
      api.call(method, `/_sandbox/webhook-faults${path}`, body, { key: null });

    await admin('POST', '', { kind: 'drop', event: 'checkout.pending' });
    await checkout(api);
    await clock.advance(0);
    expect(recorder.arrivals).toEqual([]);

    await admin('POST', '', { kind: 'duplicate', event: 'checkout.pending' });
    const twice = await checkout(api);
    await clock.advance(0);
    expect(recorder.order()).toEqual([`checkout.pending ${twice}`, `checkout.pending ${twice}`]);

    await admin('POST', '', { kind: 'delay', event: 'checkout.pending', until: new Date(clock.now() + 10_000).toISOString() });
    const late = await checkout(api);
    await clock.advance(9_999);
    expect(recorder.arrivals).toHaveLength(2);
    await clock.advance(1);
    expect(recorder.order().at(-1)).toBe(`checkout.pending ${late}`);

    await admin('POST', '', { kind: 'out_of_order', event: 'checkout.pending' });
    const held = await checkout(api);
    await clock.advance(0);
    expect(recorder.arrivals).toHaveLength(3);
    const released = await admin('POST', '/release');
    expect(released.body).toEqual({ status: true, message: 'Held webhooks released', data: { released: 1 } });
    await clock.advance(0);
    expect(recorder.order().at(-1)).toBe(`checkout.pending ${held}`);
    expect(recorder.arrivals).toHaveLength(4);
    expectSigned(recorder);
  });

  it('a bad spec is a 400 envelope with the reason', async () => {
    const { api } = await setup(manualClock());
    const post = (body: unknown) => api.post('/_sandbox/webhook-faults', body, { key: null });
    const bad = await post({ kind: 'late' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: false, error_code: 'INVALID_DATA' });
    expect(bad.body.message).toMatch(/kind must be one of duplicate, delay, out_of_order, drop/);
    expect((await post({ kind: 'delay', until: 'tomorrow' })).body.message).toMatch(/until/);
    expect((await post({ kind: 'delay' })).body.message).toMatch(/ms or until/);
    expect((await post({ kind: 'drop', event_pattern: '(' })).body.message).toMatch(/event_pattern/);
    expect((await post([1])).status).toBe(400);
  });
});
