// Pure unit tests of the normalizers and of the failure mapping: no HTTP.
import { describe, expect, it } from 'vitest';
import { LONG_BODY, readEnvelope, readEnvelopeInTurns } from '../../src/upstream/envelope.js';
import { mapFailure } from '../../src/upstream/failure.js';
import type { Operation } from '../../src/upstream/operations.js';
import {
  BadBodyError,
  emptyToNull,
  flattenFieldErrors,
  ITEMS_PER_TURN,
  matchBulkFailures,
  normalizeBalance,
  normalizeBulkResult,
  normalizeCharge,
  normalizeCheckout,
  normalizeCreatedCharge,
  normalizeList,
  normalizeLongList,
  normalizePagination,
  normalizeSettlement,
  normalizeTransfer,
  parseAmount,
  parseFeePercent,
  parseProvider,
  parseQueuedCount,
  parseTimestamp,
  parseWallet,
  walletFromBalanceKey,
} from '../../src/upstream/normalize.js';
import type { CreateTransferInput } from '../../src/upstream/types.js';
import { chargeQuery } from '../../src/upstream/request-fields.js';

describe('fees', () => {
  it('reads a float and a decimal string to the same number', () => {
    expect(parseFeePercent(2.5)).toBe(2.5);
    expect(parseFeePercent('2.50')).toBe(2.5);
    expect(parseFeePercent('2')).toBe(2);
    expect(parseFeePercent(0)).toBe(0);
  });
  it.each([['abc'], [''], ['2.5%'], [null], [undefined], [Number.NaN], [Number.POSITIVE_INFINITY], [{}], [true]])(
    'rejects %j as a bad body',
    (v) => {
      expect(() => parseFeePercent(v, 'data.fees')).toThrow(BadBodyError);
    },
  );
  it('names the path but not the value in the error', () => {
    try {
      parseFeePercent('secret-looking-value', 'data.fees');
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).toContain('data.fees');
      expect((e as Error).message).not.toContain('secret-looking-value');
    }
  });
});

describe('amounts', () => {
  it('reads integers and integral numeric strings', () => {
    expect(parseAmount(1000)).toBe(1000);
    expect(parseAmount('1000')).toBe(1000);
    expect(parseAmount(' 250 ')).toBe(250);
    expect(parseAmount('1000.00')).toBe(1000);
  });
  it.each([[1000.5], ['1000.5'], ['10e3'], ['abc'], [''], [null], [Number.NaN], [2 ** 60], [[1000]]])('rejects non-integer %j', (v) => {
    expect(() => parseAmount(v)).toThrow(BadBodyError);
  });
});

describe('timestamps', () => {
  it.each([
    ['2024-05-01T10:20:30Z', '2024-05-01T10:20:30.000Z'],
    ['2024-05-01T10:20:30+00:00', '2024-05-01T10:20:30.000Z'],
    ['2024-05-01T10:20:30.123456Z', '2024-05-01T10:20:30.123Z'],
    ['2024-05-01T10:20:30.123456+00:00', '2024-05-01T10:20:30.123Z'],
    ['2024-05-01T10:20:30.5+00:00', '2024-05-01T10:20:30.500Z'],
    ['2024-05-01T12:20:30+02:00', '2024-05-01T10:20:30.000Z'],
    ['2024-05-01T00:20:30.999999-01:30', '2024-05-01T01:50:30.999Z'],
    ['2024-05-01T10:20:30+0100', '2024-05-01T09:20:30.000Z'],
    ['2024-12-31T23:30:00-01:00', '2025-01-01T00:30:00.000Z'],
    ['2024-05-01 10:20:30+00:00', '2024-05-01T10:20:30.000Z'],
    // No offset: the spec says timestamps are UTC, so not local time.
    ['2024-05-01T10:20:30', '2024-05-01T10:20:30.000Z'],
  ])('%s -> %s', (input, expected) => {
    expect(parseTimestamp(input)).toBe(expected);
  });
  it.each([
    ['not a date'],
    [''],
    ['2024-02-30T10:00:00Z'],
    ['2024-13-01T10:00:00Z'],
    ['2024-05-01T25:00:00Z'],
    ['2024-05-01'],
    [1714558830],
    [null],
  ])('rejects %j', (v) => {
    expect(() => parseTimestamp(v)).toThrow(BadBodyError);
  });
});

describe('empty strings, providers and wallets', () => {
  it('maps empty phone/provider to null', () => {
    expect(emptyToNull('')).toBeNull();
    expect(emptyToNull('  ')).toBeNull();
    expect(emptyToNull(undefined)).toBeNull();
    expect(emptyToNull('76000000')).toBe('76000000');
    expect(parseProvider('')).toBeNull();
    expect(parseProvider(null)).toBeNull();
    expect(parseProvider('opb_bf')).toBe('opb_bf');
  });
  it('rejects an unknown provider token', () => {
    expect(() => parseProvider('opz_bf')).toThrow(BadBodyError);
    expect(() => parseWallet('opc_bf')).toThrow(BadBodyError); // a provider, but no Transfer Balance
    expect(() => emptyToNull(76000000)).toThrow(BadBodyError);
  });
  it('maps balance keys to wallets', () => {
    expect(walletFromBalanceKey('opa_money_bf')).toBe('opa_bf');
    expect(walletFromBalanceKey('ope_money_bj')).toBe('ope_bj');
    expect(walletFromBalanceKey('opc_money_bf')).toBeNull();
    expect(walletFromBalanceKey('total_available')).toBeNull();
    expect(walletFromBalanceKey('xyz_money_bf')).toBeNull();
  });
});

const checkoutRaw = {
  reference: '6f1c1f0e-3c1e-4d7b-9f57-2f0a3c1d9b11',
  email: '',
  charge_reference: null,
  amount: '1500',
  success_url: 'https://shop.example/ok',
  cancel_url: 'https://shop.example/cancel',
  phone: '',
  provider: '',
  live_mode: false,
  created_at: '2024-05-01T10:20:30.123456+00:00',
  updated_at: '2024-05-01T10:20:31Z',
  status: 'pending',
};

describe('checkout', () => {
  it('normalizes a pending checkout with empty phone/provider', () => {
    expect(normalizeCheckout(checkoutRaw)).toEqual({
      reference: checkoutRaw.reference,
      amount: 1500,
      email: null,
      chargeReference: null,
      successUrl: 'https://shop.example/ok',
      cancelUrl: 'https://shop.example/cancel',
      phone: null,
      provider: null,
      status: 'pending',
      liveMode: false,
      createdAt: '2024-05-01T10:20:30.123Z',
      updatedAt: '2024-05-01T10:20:31.000Z',
    });
  });
  it('rejects an unknown provider and a wrong status', () => {
    expect(() => normalizeCheckout({ ...checkoutRaw, provider: 'opx_bf' })).toThrow(/data\.provider/);
    expect(() => normalizeCheckout({ ...checkoutRaw, status: 'done' })).toThrow(/data\.status/);
    expect(() => normalizeCheckout({ ...checkoutRaw, live_mode: 'false' })).toThrow(/data\.live_mode/);
    expect(() => normalizeCheckout([checkoutRaw])).toThrow(BadBodyError);
  });
});

const chargeFetchRaw = {
  reference: 'ch_0a1b2c',
  amount: 1000,
  fees: '2.50',
  currency: 'XOF',
  transaction_date: '2024-05-01T10:00:00+00:00',
  ip_address: '10.0.0.1',
  status: 'success',
  live_mode: false,
  payment_method: 'mobile_money',
  provider: 'opa_bf',
  phone: '76000000',
  ext_id: '',
  operator_id: 'OP123',
  cancelled_at: null,
  cancellation_reason: null,
  created_at: '2024-05-01T10:00:00Z',
  updated_at: '2024-05-01T10:01:00.654321Z',
  confirmation_attempts: [
    { ip_address: '10.0.0.1', attempt_date: '2024-05-01T10:00:30+00:00', confirmation_status: 'failed' },
    { ip_address: '', attempt_date: '2024-05-01T10:00:50Z', confirmation_status: 'success' },
  ],
};

describe('charge', () => {
  it('normalizes the fetch form (fees as decimal string)', () => {
    const c = normalizeCharge(chargeFetchRaw);
    expect(c.feePercent).toBe(2.5);
    expect(c.extId).toBeNull();
    expect(c.updatedAt).toBe('2024-05-01T10:01:00.654Z');
    expect(c.transactionDate).toBe('2024-05-01T10:00:00.000Z');
    expect(c.confirmationAttempts).toEqual([
      { ipAddress: '10.0.0.1', attemptDate: '2024-05-01T10:00:30.000Z', status: 'failed' },
      { ipAddress: null, attemptDate: '2024-05-01T10:00:50.000Z', status: 'success' },
    ]);
  });
  it('normalizes the OTP-submit form (fees as float, no created_at/phone)', () => {
    const { phone: _p, created_at: _c, updated_at: _u, ...submit } = chargeFetchRaw;
    const c = normalizeCharge({ ...submit, fees: 2.5 });
    expect(c.feePercent).toBe(2.5);
    expect(c.phone).toBeNull();
    expect(c.createdAt).toBeNull();
  });
  it('turns wrong types into BadBodyError with a path', () => {
    expect(() => normalizeCharge({ ...chargeFetchRaw, fees: 'two' })).toThrow(/data\.fees/);
    expect(() => normalizeCharge({ ...chargeFetchRaw, amount: 10.5 })).toThrow(/data\.amount/);
    expect(() => normalizeCharge({ ...chargeFetchRaw, provider: '' })).toThrow(/data\.provider/);
    expect(() =>
      normalizeCharge({ ...chargeFetchRaw, confirmation_attempts: [{ attempt_date: 'x', confirmation_status: 'failed' }] }),
    ).toThrow(/confirmation_attempts\[0\]\.attempt_date/);
    expect(() => normalizeCharge({ ...chargeFetchRaw, confirmation_attempts: {} })).toThrow(BadBodyError);
  });
  it('normalizes the create form', () => {
    expect(normalizeCreatedCharge({ reference: 'ch_1', status: 'pay_offline', display_text: 'Dial *144#', live_mode: false })).toEqual({
      reference: 'ch_1',
      status: 'pay_offline',
      displayText: 'Dial *144#',
      liveMode: false,
    });
    expect(() => normalizeCreatedCharge({ reference: 'ch_1', status: 'weird', live_mode: false })).toThrow(BadBodyError);
  });
});

describe('transfer', () => {
  const raw = {
    reference: 'tr_1',
    amount: 5000,
    fees: 1.5,
    recipient_phone: '76000000',
    currency: 'XOF',
    ip_address: '1.2.3.4',
    status: 'pending',
    live_mode: false,
    recipient_wallet: 'opa_bf',
    ext_id: 'ext-1',
    created_at: '2024-05-01T10:00:00.000001+00:00',
  };
  it('normalizes fees from number and from string', () => {
    expect(normalizeTransfer(raw).feePercent).toBe(1.5);
    expect(normalizeTransfer({ ...raw, fees: '1.50' }).feePercent).toBe(1.5);
    expect(normalizeTransfer(raw).createdAt).toBe('2024-05-01T10:00:00.000Z');
  });
  it('rejects an unknown wallet', () => {
    expect(() => normalizeTransfer({ ...raw, recipient_wallet: 'opc_bf' })).toThrow(/recipient_wallet/);
  });
});

describe('settlement', () => {
  const raw = {
    reference: '1b0c2a34-0000-4000-8000-000000000001',
    amount: '20000',
    settlement_fees: 200,
    currency: 'XOF',
    status: 'processing',
    live_mode: false,
    created_at: '2024-05-01T10:00:00Z',
    updated_at: '2024-05-01T10:00:00+00:00',
    account_type: 'bank',
    iban: 'BF00 0000',
    rib: null,
    bank_name: 'Bank',
    bank_address: '',
    account_holder_name: 'Shop SARL',
    account_holder_address: null,
    swift_bic_code: 'ABCDBFBF',
    provider: null,
    phone: null,
    usdt_wallet_address: null,
  };
  it('collects the account fields into account, "" and null as null', () => {
    const s = normalizeSettlement(raw);
    expect(s.amount).toBe(20000);
    expect(s.account).toEqual({
      iban: 'BF00 0000',
      rib: null,
      bankName: 'Bank',
      bankAddress: null,
      accountHolderName: 'Shop SARL',
      accountHolderAddress: null,
      swiftBicCode: 'ABCDBFBF',
      provider: null,
      phone: null,
      usdtWalletAddress: null,
    });
    expect(s.updatedAt).toBe('2024-05-01T10:00:00.000Z');
  });
  it('rejects an unknown account type and non-integer fees', () => {
    expect(() => normalizeSettlement({ ...raw, account_type: 'cash' })).toThrow(/account_type/);
    expect(() => normalizeSettlement({ ...raw, settlement_fees: 1.5 })).toThrow(/settlement_fees/);
    expect(() => normalizeSettlement({ ...raw, settlement_fees: undefined })).toThrow(/settlement_fees/);
  });
});

describe('balance', () => {
  it('collects wallets from every *_money_* key and ignores unknown ones', () => {
    const b = normalizeBalance({
      collection_balances: { available: 1200.5, pending: '300', currency: 'XOF' },
      transfer_balances: {
        total_available: 300000,
        total_pending: 0,
        opd_money_bf: { available: 100000, pending: 0 },
        opa_money_bf: { available: '100000.00', pending: 0 },
        ope_money_bj: { available: 100000, pending: 10 },
        opc_money_bf: { available: 5, pending: 5 },
        xyz_money_zz: { available: 'garbage' },
      },
    });
    expect(b).toEqual({
      currency: 'XOF',
      collection: { available: 1200.5, pending: 300 },
      transferTotal: { available: 300000, pending: 0 },
      wallets: [
        { wallet: 'opa_bf', available: 100000, pending: 0 },
        { wallet: 'opd_bf', available: 100000, pending: 0 },
        { wallet: 'ope_bj', available: 100000, pending: 10 },
      ],
    });
  });
  it('rejects a malformed known wallet', () => {
    expect(() =>
      normalizeBalance({
        collection_balances: { available: 0, pending: 0 },
        transfer_balances: { total_available: 0, total_pending: 0, opa_money_bf: { available: 'x', pending: 0 } },
      }),
    ).toThrow(/opa_money_bf\.available/);
    expect(() => normalizeBalance({ transfer_balances: {} })).toThrow(/collection_balances/);
  });
});

describe('pagination', () => {
  it('reads the service pagination', () => {
    expect(
      normalizePagination(
        { total_records: 45, current_page: 2, total_pages: 3, has_next: true, has_previous: true },
        { page: 2, pageSize: 20, itemCount: 20 },
      ),
    ).toEqual({ totalRecords: 45, currentPage: 2, totalPages: 3, hasNext: true, hasPrevious: true });
  });
  it('synthesizes a conservative one when omitted', () => {
    expect(normalizePagination(undefined, { page: 2, pageSize: 10, itemCount: 10 })).toEqual({
      totalRecords: 20,
      currentPage: 2,
      totalPages: 3,
      hasNext: true,
      hasPrevious: true,
    });
    expect(normalizePagination(null, { page: 1, pageSize: 10, itemCount: 3 })).toEqual({
      totalRecords: 3,
      currentPage: 1,
      totalPages: 1,
      hasNext: false,
      hasPrevious: false,
    });
  });
  it('rejects wrong types', () => {
    expect(() => normalizePagination({ total_records: 'many' }, { page: 1, pageSize: 10, itemCount: 0 })).toThrow(BadBodyError);
  });
});

describe('field errors', () => {
  it('flattens nested objects into paths and keeps non_field_errors at the parent', () => {
    expect(
      flattenFieldErrors({
        amount: ['Ensure this value is greater than or equal to 100.'],
        payment_method_details: { phone: ['Invalid phone.'], non_field_errors: ['Bad details.'] },
        non_field_errors: ['Insufficient balance in opa_bf wallet.'],
      }),
    ).toEqual([
      { path: ['amount'], message: 'Ensure this value is greater than or equal to 100.' },
      { path: ['payment_method_details', 'phone'], message: 'Invalid phone.' },
      { path: ['payment_method_details'], message: 'Bad details.' },
      { path: [], message: 'Insufficient balance in opa_bf wallet.' },
    ]);
  });
  it('indexes lists of item errors', () => {
    expect(flattenFieldErrors({ transfers: [{}, { amount: ['Too small.'] }] })).toEqual([
      { path: ['transfers', '1', 'amount'], message: 'Too small.' },
    ]);
  });
});

describe('bulk transfers', () => {
  const submitted: CreateTransferInput[] = [
    { amount: 1000, recipientPhone: '76000000', recipientWallet: 'opa_bf' },
    { amount: 2000, recipientPhone: '70000000', recipientWallet: 'opb_bf', extId: 'b-2' },
    { amount: 1000, recipientPhone: '76000000', recipientWallet: 'opa_bf' },
    { amount: 3000, recipientPhone: '68000000' },
  ];
  it('matches by ext_id, else by amount+phone+wallet, each item once', () => {
    const res = normalizeBulkResult(
      [
        {
          data: { amount: 2000, recipient_phone: '70000000', recipient_wallet: 'opb_bf', ext_id: 'b-2' },
          errors: { non_field_errors: ['Insufficient balance in opb_bf wallet'] },
        },
        { data: { amount: '1000', recipient_phone: '76000000', recipient_wallet: 'opa_bf' }, errors: { recipient_phone: ['Invalid.'] } },
        { data: { amount: 1000, recipient_phone: '76000000', recipient_wallet: 'opa_bf' }, errors: { non_field_errors: ['x'] } },
        { data: { amount: 1000, recipient_phone: '76000000', recipient_wallet: 'opa_bf' }, errors: { non_field_errors: ['y'] } },
        { data: { amount: 3000, recipient_phone: '68000000', recipient_wallet: 'opd_bf' }, errors: { non_field_errors: ['z'] } },
      ],
      'Bulk transfer processed',
      submitted,
    );
    // Three echoes of an item submitted twice (at 0 and 2): the last two echoes take the two
    // items in order, the first is left unmatched (later identical items are the ones that fail).
    expect(res.failures.map((f) => f.index)).toEqual([1, null, 0, 2, 3]);
    expect(res.failures[0]).toEqual({
      item: { amount: 2000, recipientPhone: '70000000', recipientWallet: 'opb_bf', extId: 'b-2' },
      index: 1,
      nonFieldErrors: ['Insufficient balance in opb_bf wallet'],
      fieldErrors: [],
    });
    // the unmatched echo of the same item keeps its own values
    expect(res.failures[1]!.item.amount).toBe(1000);
    expect(res.failures[1]!.fieldErrors).toEqual([{ path: ['recipient_phone'], message: 'Invalid.' }]);
    // no count in the message: submitted - failures, never negative
    expect(res.queuedCount).toBe(0);
  });
  it('ext_id present but unknown stays unmatched', () => {
    expect(matchBulkFailures([{ amount: 1000, recipientPhone: '76000000', recipientWallet: 'opa_bf', extId: 'nope' }], submitted)).toEqual([
      null,
    ]);
  });
  it('takes queuedCount from the message when it states one', () => {
    const failed = [{ data: { amount: 3000, recipient_phone: '68000000' }, errors: { non_field_errors: ['no'] } }];
    expect(normalizeBulkResult(failed, '2 transfers queued for processing', submitted).queuedCount).toBe(2);
    expect(normalizeBulkResult(failed, 'Bulk transfer accepted', submitted).queuedCount).toBe(3);
    expect(normalizeBulkResult([], 'All transfers queued', submitted).queuedCount).toBe(4);
    expect(normalizeBulkResult(undefined, '4 transfer(s) have been queued', submitted).queuedCount).toBe(4);
  });
  it('parses queued counts only when tied to "queued"', () => {
    expect(parseQueuedCount('3 transfers queued for processing')).toBe(3);
    expect(parseQueuedCount('2 failed, 3 queued')).toBe(3);
    expect(parseQueuedCount('Transfers queued: 7')).toBe(7);
    expect(parseQueuedCount('Batch of 5 received')).toBeNull();
    expect(parseQueuedCount('All transfers queued')).toBeNull();
  });
  it('rejects a malformed failed_transfers', () => {
    expect(() => normalizeBulkResult({}, 'x', submitted)).toThrow(BadBodyError);
    expect(() => normalizeBulkResult(['x'], 'x', submitted)).toThrow(BadBodyError);
  });
});

describe('envelope', () => {
  it('accepts only an object with a boolean status', () => {
    expect(readEnvelope('{"status":true,"message":"ok","data":{}}').ok).toBe(true);
    expect(readEnvelope('')).toEqual({ ok: false, reason: 'empty' });
    expect(readEnvelope('<html>502</html>')).toEqual({ ok: false, reason: 'not_json' });
    expect(readEnvelope('{"status":true,"data":{"ref')).toEqual({ ok: false, reason: 'not_json' });
    expect(readEnvelope('{"status":"true"}')).toEqual({ ok: false, reason: 'not_envelope' });
    expect(readEnvelope('[1,2]')).toEqual({ ok: false, reason: 'not_envelope' });
    expect(readEnvelope('{"status":false,"message":42}')).toEqual({ ok: false, reason: 'not_envelope' });
  });

  it('reads a long body as JSON.parse does, letting the event loop turn between its slices', async () => {
    const body = JSON.stringify({ status: true, message: 'ok', data: transfersData(1_500) });
    expect(body.length).toBeGreaterThan(LONG_BODY);
    const turns = turnCounter();
    const reading = await readEnvelopeInTurns(body);
    const counted = turns.stop();
    expect(reading).toEqual(readEnvelope(body));
    // A 64 KB slice per turn: the body's slices less one, at least.
    expect(counted).toBeGreaterThanOrEqual(Math.ceil(body.length / 65_536) - 1);
  });

  it('tells a long body that is not JSON, or not an envelope, as a short one', async () => {
    const body = JSON.stringify({ status: true, message: 'ok', data: transfersData(1_500) });
    expect(await readEnvelopeInTurns(body.slice(0, -10))).toEqual({ ok: false, reason: 'not_json' });
    expect(await readEnvelopeInTurns(JSON.stringify(transfersData(1_500)))).toEqual({ ok: false, reason: 'not_envelope' });
    expect(await readEnvelopeInTurns('{"status":true,"message":"ok","data":[]}')).toEqual(
      readEnvelope('{"status":true,"message":"ok","data":[]}'),
    );
    expect(await readEnvelopeInTurns('')).toEqual({ ok: false, reason: 'empty' });
  });

  it('reads a long body with a __proto__ key as JSON.parse does: an own property, not a prototype', async () => {
    // The key goes into the item that straddles the first slice's end, after that end, and that item loses its
    // own `reference`: read as JSON.parse reads it, the item has none (the __proto__ key is only an own property).
    const whole = JSON.stringify({ status: true, message: 'ok', data: transfersData(1_500) });
    const end = whole.indexOf('}', 65_536);
    const start = whole.lastIndexOf('{', end);
    const item = whole.slice(start, end).replace(/"reference":"tr_\d+",/, '') + ',"__proto__":{"reference":"tr_forged"}';
    expect(start).toBeLessThan(65_536);
    const body = whole.slice(0, start) + item + whole.slice(end);
    expect(body.length).toBeGreaterThan(LONG_BODY);
    const reading = await readEnvelopeInTurns(body);
    expect(reading).toEqual(readEnvelope(body));
    const data = (reading as { envelope: { data: Array<Record<string, unknown>> } }).envelope.data;
    const straddling = data.find((t) => Object.hasOwn(t, '__proto__'))!;
    expect(Object.getPrototypeOf(straddling)).toBe(Object.prototype);
    expect(() => normalizeTransfer(straddling, 'data[i]')).toThrow(BadBodyError);
  });
});

describe('long lists', () => {
  it('normalizes a long list as normalizeList does, letting the event loop turn every ITEMS_PER_TURN items', async () => {
    const data = transfersData(1_200);
    const turns = turnCounter();
    const items = await normalizeLongList(data, normalizeTransfer);
    expect(turns.stop()).toBeGreaterThanOrEqual(Math.floor(1_200 / ITEMS_PER_TURN));
    expect(items).toEqual(normalizeList(data, normalizeTransfer));
  });

  it('names the bad item of a long list by its index, never its value', async () => {
    const data = transfersData(1_200);
    (data[1_100] as Record<string, unknown>).created_at = '70123456';
    const error = await normalizeLongList(data, normalizeTransfer).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BadBodyError);
    expect((error as Error).message).toContain('data[1100].created_at');
    expect((error as Error).message).not.toContain('70123456');
  });
});

/** `count` transfers as the service lists them. */
function transfersData(count: number): unknown[] {
  return Array.from({ length: count }, (_, i) => ({
    reference: `tr_${String(i).padStart(8, '0')}`,
    amount: 100 + i,
    fees: '1.50',
    currency: 'XOF',
    recipient_phone: `70${String(i).padStart(6, '0')}`,
    recipient_wallet: 'opb_bf',
    status: i % 7 === 0 ? 'failed' : 'success',
    ext_id: `pb_1:${i}`,
    ip_address: '',
    live_mode: false,
    created_at: '2026-11-29T02:20:00.123456+00:00',
  }));
}

/** Counts the turns of the event loop (setImmediate callbacks) until `stop`. */
function turnCounter() {
  let turns = 0;
  let running = true;
  const turn = () => {
    if (!running) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  return {
    stop: () => {
      running = false;
      return turns;
    },
  };
}

describe('failure mapping', () => {
  const redact = (s: string) => s.split('sk_test_secret').join('[redacted]');
  const map = (body: object, operation: Operation, httpStatus: number | null = 400) => {
    const r = readEnvelope(JSON.stringify(body));
    if (!r.ok) throw new Error('not an envelope');
    return mapFailure(r.envelope, { operation, httpStatus, redact });
  };
  it('keeps known codes, wraps unknown ones', () => {
    const e = map({ status: false, message: 'Insufficient funds in opa_bf', error_code: 'INSUFFICIENT_FUNDS' }, 'createTransfer');
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect(e.message).toBe('Insufficient funds in opa_bf');
    const u = map({ status: false, message: 'Weird', error_code: 'SOMETHING_NEW' }, 'createCharge');
    expect(u.code).toBe('UNKNOWN_ERROR');
    expect(u.upstreamCode).toBe('SOMETHING_NEW');
    expect(u.message).toBe('Weird');
    expect(map({ status: false, message: 'x', error_code: 'TRANSACTION_NOT_FOUND' }, 'fetchTransfer').code).toBe('TRANSACTION_NOT_FOUND');
  });
  it('derives codes from messages', () => {
    expect(map({ status: false, message: 'Invalid API key' }, 'fetchBalance').code).toBe('UNAUTHENTICATED');
    expect(map({ status: false, message: 'Invalid API key.' }, 'createCharge', 403).code).toBe('UNAUTHENTICATED');
    expect(map({ status: false, message: 'Charge not found' }, 'fetchCharge').code).toBe('CHARGE_NOT_FOUND');
    expect(map({ status: false, message: 'Checkout not found' }, 'fetchCheckout').code).toBe('NOT_FOUND');
    expect(map({ status: false, message: 'Transfer not found' }, 'fetchTransfer').code).toBe('NOT_FOUND');
    expect(map({ status: false, message: 'Settlement not found' }, 'fetchSettlement').code).toBe('NOT_FOUND');
    expect(map({ status: false, message: 'Settlement not found' }, 'cancelSettlement').code).toBe('NOT_FOUND');
    expect(map({ status: false, message: 'Settlement can only be cancelled when processing' }, 'cancelSettlement').code).toBe(
      'SETTLEMENT_NOT_CANCELLABLE',
    );
    expect(map({ status: false, message: 'No payment account configured' }, 'createSettlement').code).toBe('PAYMENT_ACCOUNT_MISSING');
    expect(
      map(
        { status: false, message: 'Validation error', errors: { non_field_errors: ['Create a payment account first'] } },
        'createSettlement',
      ).code,
    ).toBe('PAYMENT_ACCOUNT_MISSING');
    // the payment-account guess applies to settlement creation only
    expect(map({ status: false, message: 'No payment account configured' }, 'createCharge').code).toBe('UNKNOWN_ERROR');
  });
  it('maps an errors object without code to INVALID_DATA with flattened fieldErrors', () => {
    const e = map(
      {
        status: false,
        message: 'Invalid data',
        errors: { payment_method_details: { phone: ['Invalid phone'] }, non_field_errors: ['Bad'] },
      },
      'createCharge',
    );
    expect(e.code).toBe('INVALID_DATA');
    expect(e.fieldErrors).toEqual([
      { path: ['payment_method_details', 'phone'], message: 'Invalid phone' },
      { path: [], message: 'Bad' },
    ]);
  });
  it('falls back to UNKNOWN_ERROR, and to UNAUTHENTICATED on HTTP 401', () => {
    expect(map({ status: false, message: 'Something' }, 'createCharge').code).toBe('UNKNOWN_ERROR');
    expect(map({ status: false, message: 'Something' }, 'createCharge').upstreamCode).toBeNull();
    expect(map({ status: false, message: 'Authentication required' }, 'fetchBalance', 401).code).toBe('UNAUTHENTICATED');
  });
  it('redacts secrets from upstream messages', () => {
    const e = map({ status: false, message: 'Key sk_test_secret is not valid', errors: { key: ['sk_test_secret'] } }, 'fetchBalance');
    expect(JSON.stringify({ ...e, message: e.message })).not.toContain('sk_test_secret');
  });
});

describe('charge list query', () => {
  it('sends every filter as snake_case and omits absent ones', () => {
    const q = chargeQuery({
      reference: 'ch_1',
      status: 'success',
      provider: 'opa_bf',
      phone: '76000000',
      dateFrom: '2024-05-01',
      dateTo: '2024-05-31',
      amountMin: 100,
      amountMax: 5000,
    });
    expect(Object.fromEntries(q)).toEqual({
      reference: 'ch_1',
      status: 'success',
      provider: 'opa_bf',
      phone: '76000000',
      date_from: '2024-05-01',
      date_to: '2024-05-31',
      amount_min: '100',
      amount_max: '5000',
    });
    expect(chargeQuery({}).toString()).toBe('');
  });
});
