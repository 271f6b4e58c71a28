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

export interface PhoneRule {
  /** Human description, used in validation messages. */
  description: string;
  test(phone: string): boolean;
}

const eightDigits = (prefixes: string[]) => (phone: string) => /^\d{8}$/.test(phone) && prefixes.includes(phone.slice(0, 2));
const benin = (prefixes: string[]) => (phone: string) => /^01\d{8}$/.test(phone) && prefixes.includes(phone.slice(2, 4));

export const PHONE_RULES: Record<Provider, PhoneRule> = {
  opa_bf: { description: `8 digits starting with ${OPA_BF_PREFIXES.join(', ')}`, test: eightDigits(OPA_BF_PREFIXES) },
  opb_bf: { description: `8 digits starting with ${OPB_BF_PREFIXES.join(', ')}`, test: eightDigits(OPB_BF_PREFIXES) },
  opc_bf: { description: 'a Burkina Faso mobile number: 8 digits starting with 0, 5, 6 or 7', test: (p) => BF_MOBILE.test(p) },
  opd_bf: { description: 'a Burkina Faso mobile number: 8 digits starting with 0, 5, 6 or 7', test: (p) => BF_MOBILE.test(p) },
  ope_bj: { description: `10 digits starting with 01 then ${OPE_BJ_PREFIXES.join(', ')}`, test: benin(OPE_BJ_PREFIXES) },
  opf_bj: { description: `10 digits starting with 01 then ${OPF_BJ_PREFIXES.join(', ')}`, test: benin(OPF_BJ_PREFIXES) },
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
