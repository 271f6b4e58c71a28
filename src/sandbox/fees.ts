// Fee rates are integer basis points (250 = 2.5%) so money never touches a
// float; the wire shows the rate in percent, as the spec requires.
import type { Provider } from './contract.js';

export const CHARGE_FEE_BPS: Readonly<Record<Provider, number>> = {
  opa_bf: 250,
  opb_bf: 300,
  opc_bf: 250,
  opd_bf: 200,
  ope_bj: 300,
  opf_bj: 350,
};

export const TRANSFER_FEE_BPS = 100;
export const SETTLEMENT_FEE_BPS = 100;

/** Largest amount accepted anywhere: keeps amount * bps far inside the safe-integer range. */
export const MAX_AMOUNT = 1_000_000_000;

/** ceil(a / b) for integers a >= 0, b > 0, without going through a float quotient. */
export function ceilDiv(a: number, b: number): number {
  const rest = a % b;
  return (a - rest) / b + (rest > 0 ? 1 : 0);
}

/** Fee in whole XOF, rounded up: the service never under-charges by a fraction. */
export function feeAmount(amount: number, bps: number): number {
  return ceilDiv(amount * bps, 10_000);
}

/** The rate as the submit/create responses show it: a JSON number such as 2.5. */
export function percentNumber(bps: number): number {
  return Number(percentString(bps));
}

/** The rate as fetch/list responses show it: a decimal string such as "2.50". */
export function percentString(bps: number): string {
  return `${Math.trunc(bps / 100)}.${String(bps % 100).padStart(2, '0')}`;
}
