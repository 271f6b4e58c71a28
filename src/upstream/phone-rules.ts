// Which phone numbers each operator accepts, from the spec's table. The spec
// gives exact prefixes for opa_bf and opb_bf; for the others it says "any
// Burkina Faso mobile number" or "a valid Benin number of that operator", which
// we pin down here (and document in the README) so the gateway can reject a
// mistyped number before any call, and the sandbox behaves the same way.
import type { Provider, Wallet } from './types.js';

const OPA_BF_PREFIXES = ['04', '05', '06', '07', '54', '55', '56', '57', '64', '65', '66', '67', '74', '75', '76', '77'];
const OPB_BF_PREFIXES = ['70', '71', '72', '73', '60', '61', '62', '63', '50', '51', '52', '53', '01', '02', '03'];

/** Burkina Faso mobile numbers: 8 digits whose first digit is 0, 5, 6 or 7. */
const BF_MOBILE = /^[0567]\d{7}$/;

/**
 * Benin moved to 10-digit numbers "01" + the former 8 digits in 2024; the two
 * digits after "01" name the operator.
 */
const OPE_BJ_PREFIXES = ['51', '52', '53', '54', '61', '62', '66', '67', '69', '90', '91', '96', '97'];
const OPF_BJ_PREFIXES = ['55', '58', '60', '63', '64', '65', '68', '94', '95', '98', '99'];

/** What a rule's numbers look like, as data: messages in any language are written from it (src/errors/operators.ts). */
export interface PhoneShape {
  digits: number;
  /** What the number starts with, each one allowed; after `01` for Benin's ten-digit numbers. */
  prefixes: readonly string[];
  after01?: boolean;
  /** Any Burkina Faso mobile number (the prefixes are its first digits). */
  anyBurkinaMobile?: boolean;
}

export interface PhoneRule {
  shape: PhoneShape;
  /** Human description in English, used in the service's (and the sandbox's) validation messages. */
  description: string;
  test(phone: string): boolean;
}

const list = (items: readonly string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}` : items[0]!);

/** A shape in the service's English: "8 digits starting with 70, 71", "10 digits starting with 01 then 51, 52". */
export function describeShape(shape: PhoneShape): string {
  const starts = shape.after01
    ? `01 then ${shape.prefixes.join(', ')}`
    : shape.anyBurkinaMobile
      ? list(shape.prefixes)
      : shape.prefixes.join(', ');
  const rule = `${shape.digits} digits starting with ${starts}`;
  return shape.anyBurkinaMobile ? `a Burkina Faso mobile number: ${rule}` : rule;
}

const rule = (shape: PhoneShape, test: (phone: string) => boolean): PhoneRule => ({ shape, description: describeShape(shape), test });
const BF_MOBILE_SHAPE: PhoneShape = { digits: 8, prefixes: ['0', '5', '6', '7'], anyBurkinaMobile: true };

const eightDigits = (prefixes: string[]) => (phone: string) => /^\d{8}$/.test(phone) && prefixes.includes(phone.slice(0, 2));
const benin = (prefixes: string[]) => (phone: string) => /^01\d{8}$/.test(phone) && prefixes.includes(phone.slice(2, 4));

/** Each operator's number prefixes and length, as the gateway checks them before a call. */
export const PHONE_RULES: Record<Provider, PhoneRule> = {
  opa_bf: rule({ digits: 8, prefixes: OPA_BF_PREFIXES }, eightDigits(OPA_BF_PREFIXES)),
  opb_bf: rule({ digits: 8, prefixes: OPB_BF_PREFIXES }, eightDigits(OPB_BF_PREFIXES)),
  opc_bf: rule(BF_MOBILE_SHAPE, (p) => BF_MOBILE.test(p)),
  opd_bf: rule(BF_MOBILE_SHAPE, (p) => BF_MOBILE.test(p)),
  ope_bj: rule({ digits: 10, prefixes: OPE_BJ_PREFIXES, after01: true }, benin(OPE_BJ_PREFIXES)),
  opf_bj: rule({ digits: 10, prefixes: OPF_BJ_PREFIXES, after01: true }, benin(OPF_BJ_PREFIXES)),
};

export function isValidPhoneFor(provider: Provider, phone: string): boolean {
  return PHONE_RULES[provider].test(phone);
}

/**
 * The wallet a transfer to `phone` goes through when none is named: the
 * operator owning the prefix; other Burkina Faso mobiles go through opd_bf
 * (opc_bf holds no Transfer Balance). Null when the number is not a mobile
 * number of either country.
 */
export function walletForPhone(phone: string): Wallet | null {
  if (PHONE_RULES.opa_bf.test(phone)) return 'opa_bf';
  if (PHONE_RULES.opb_bf.test(phone)) return 'opb_bf';
  if (BF_MOBILE.test(phone)) return 'opd_bf';
  if (PHONE_RULES.ope_bj.test(phone)) return 'ope_bj';
  if (PHONE_RULES.opf_bj.test(phone)) return 'opf_bj';
  return null;
}

/** Whether a transfer from `wallet` can reach `phone` (same country, and the operator's own numbers for opa/opb/ope/opf). */
export function isValidRecipientFor(wallet: Wallet, phone: string): boolean {
  return wallet === 'opd_bf' ? BF_MOBILE.test(phone) : PHONE_RULES[wallet].test(phone);
}
