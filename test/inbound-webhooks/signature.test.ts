import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signBody, verifySignature } from '../../src/inbound-webhooks/signature.js';

const SECRET = 'whsec_test_0123456789abcdef';
const body = Buffer.from('{"event":"checkout.success","data":{"reference":"chk_1","amount":1000}}');
const hex = signBody(body, SECRET, 'hmac-sha256-hex');
const b64 = signBody(body, SECRET, 'sha256-base64');

describe('signBody', () => {
  it('computes the two documented schemes', () => {
    expect(hex).toBe(createHmac('sha256', SECRET).update(body).digest('hex'));
    expect(b64).toBe(
      createHash('sha256')
        .update(Buffer.concat([body, Buffer.from(SECRET)]))
        .digest('base64'),
    );
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
    expect(b64).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(signBody(body.toString('utf8'), SECRET, 'hmac-sha256-hex')).toBe(hex);
  });
});

describe('verifySignature', () => {
  it('accepts each scheme under its own name and under auto', () => {
    expect(verifySignature(body, hex, SECRET, 'hmac-sha256-hex')).toBe(true);
    expect(verifySignature(body, b64, SECRET, 'sha256-base64')).toBe(true);
    expect(verifySignature(body, hex, SECRET, 'auto')).toBe(true);
    expect(verifySignature(body, b64, SECRET, 'auto')).toBe(true);
  });

  it('does not accept one scheme in place of the other', () => {
    expect(verifySignature(body, b64, SECRET, 'hmac-sha256-hex')).toBe(false);
    expect(verifySignature(body, hex, SECRET, 'sha256-base64')).toBe(false);
  });

  it('rejects a wrong secret and an empty secret', () => {
    for (const scheme of ['hmac-sha256-hex', 'sha256-base64'] as const) {
      const sig = signBody(body, 'other-secret', scheme);
      expect(verifySignature(body, sig, SECRET, scheme)).toBe(false);
      expect(verifySignature(body, sig, SECRET, 'auto')).toBe(false);
    }
    expect(verifySignature(body, signBody(body, '', 'hmac-sha256-hex'), '', 'auto')).toBe(false);
  });

  it('rejects when one byte of the body changed', () => {
    const tampered = Buffer.from(body);
    const at = tampered.length - 3;
    tampered.writeUInt8(tampered.readUInt8(at) ^ 0x01, at);
    expect(verifySignature(tampered, hex, SECRET, 'auto')).toBe(false);
    expect(verifySignature(tampered, b64, SECRET, 'auto')).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['hex too long', hex + '0'],
    ['hex too short', hex.slice(0, -1)],
    ['hex doubled', hex + hex],
    ['non-hex character', 'g' + hex.slice(1)],
    ['hex with 0x prefix', '0x' + hex.slice(2)],
    ['base64 too long', b64.replace('=', 'AA')],
    ['base64 too short', b64.slice(0, 40)],
    ['base64 double padding', b64 + '='],
    ['base64url "-"', '-' + b64.slice(1)],
    ['base64url "_"', '_' + b64.slice(1, -1)],
    ['non-base64 character', '*' + b64.slice(1)],
    ['inner whitespace', hex.slice(0, 10) + ' ' + hex.slice(10)],
    ['two signatures', `${hex}, ${hex}`],
    ['unicode', 'é'.repeat(64)],
  ])('rejects a %s header without throwing', (_name, header) => {
    expect(() => verifySignature(body, header, SECRET, 'auto')).not.toThrow();
    expect(verifySignature(body, header, SECRET, 'auto')).toBe(false);
  });

  it('rejects a non-canonical base64 form that a lenient decoder would map to the same digest', () => {
    // The 43rd character carries 2 unused bits; flipping them decodes to the same bytes.
    const last = b64[42]!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const twin = alphabet[alphabet.indexOf(last) | 1]!;
    const variant = b64.slice(0, 42) + twin + '=';
    expect(Buffer.from(variant, 'base64').equals(Buffer.from(b64, 'base64'))).toBe(true);
    expect(verifySignature(body, variant, SECRET, 'auto')).toBe(false);
  });

  it('accepts uppercase hex, base64 without padding, and surrounding whitespace', () => {
    expect(verifySignature(body, hex.toUpperCase(), SECRET, 'auto')).toBe(true);
    expect(verifySignature(body, b64.replace(/=$/, ''), SECRET, 'sha256-base64')).toBe(true);
    expect(verifySignature(body, `  ${hex}\t`, SECRET, 'hmac-sha256-hex')).toBe(true);
    expect(verifySignature(body, ` ${b64} `, SECRET, 'auto')).toBe(true);
  });

  it('verifies the raw bytes only: unusual spacing, escaped slashes and a raw U+2028', () => {
    const raw = Buffer.from('{ "event" :"charge.success",\n  "data":{"url":"https:\\/\\/x","note":"a\u2028b" ,"amount": 1.50}}', 'utf8');
    const reserialized = Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))), 'utf8');
    expect(reserialized.equals(raw)).toBe(false);
    for (const scheme of ['hmac-sha256-hex', 'sha256-base64'] as const) {
      const sig = signBody(raw, SECRET, scheme);
      expect(verifySignature(raw, sig, SECRET, scheme)).toBe(true);
      expect(verifySignature(raw, sig, SECRET, 'auto')).toBe(true);
      expect(verifySignature(reserialized, sig, SECRET, scheme)).toBe(false);
    }
  });
});
