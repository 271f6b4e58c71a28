import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { resourceTypeOf, toPaymentEventRecord } from '../../src/inbound-webhooks/event.js';

const at = new Date('2025-06-01T12:00:00+02:00');
const record = (body: Record<string, unknown>) => {
  const raw = Buffer.from(JSON.stringify(body));
  return { raw, rec: toPaymentEventRecord(body, raw, at) };
};

describe('toPaymentEventRecord', () => {
  it('takes the id from id, then event_id, then kind-qualified data.id, then a hash of the raw bytes', () => {
    expect(record({ id: 'evt_1', event_id: 'e2', data: { id: 'd3' } }).rec.id).toBe('evt_1');
    expect(record({ event_id: 'e2', data: { id: 'd3' } }).rec.id).toBe('e2');
    expect(record({ id: 42 }).rec.id).toBe('42');
    expect(record({ event: 'checkout.pending', data: { id: 'd3' } }).rec.id).toBe('checkout.pending:d3');
    const { raw, rec } = record({ event: 'checkout.success', data: { reference: 'chk_1' } });
    expect(rec.id).toBe(createHash('sha256').update(raw).digest('hex'));
  });

  it('gives two events about one resource different ids (pending then success)', () => {
    const a = record({ event: 'checkout.pending', data: { id: 7, reference: 'c' } }).rec.id;
    const b = record({ event: 'checkout.success', data: { id: 7, reference: 'c' } }).rec.id;
    expect(a).not.toBe(b);
  });

  it('ignores ids that are not plausible (objects, empty, huge, fractional) and falls back to the hash', () => {
    for (const id of [{ x: 1 }, '', '   ', 'x'.repeat(500), 1.5, true, null]) {
      const { raw, rec } = record({ id, event: 'charge.success' });
      expect(rec.id).toBe(createHash('sha256').update(raw).digest('hex'));
    }
  });

  it('derives kind, resource type, reference and a UTC receivedAt', () => {
    const { rec } = record({ event: 'transfer.failed', reference: 'top', data: { reference: 'tr_1' } });
    expect(rec).toMatchObject({ kind: 'transfer.failed', resourceType: 'transfer', reference: 'tr_1' });
    expect(rec.receivedAt).toBe('2025-06-01T10:00:00.000Z');
    expect(record({ event: 'x', reference: 'top' }).rec.reference).toBe('top');
    expect(record({ event: 'x', data: { reference: 5 } }).rec.reference).toBeNull();
    expect(record({}).rec).toMatchObject({ kind: 'unknown', resourceType: null, reference: null, payload: {} });
    expect(record({ event: 12 }).rec.kind).toBe('unknown');
  });

  it('maps kind prefixes to resource types', () => {
    expect(resourceTypeOf('checkout.success')).toBe('checkout');
    expect(resourceTypeOf('charge.pay_offline')).toBe('charge');
    expect(resourceTypeOf('settlement.in_transit')).toBe('settlement');
    expect(resourceTypeOf('transfers.x')).toBeNull();
    expect(resourceTypeOf('checkout')).toBeNull();
    expect(resourceTypeOf('unknown')).toBeNull();
  });
});
