// The fixed test data of test mode. Integrators' test suites hard-code these,
// so they must never change.
import type { Provider } from './contract.js';

export const TEST_OTP = '123456';

export interface TestPhones {
  /** Charges succeed. */
  succeeds: string;
  /** Charge creation is refused with INVALID_ACCOUNT. */
  rejected: string;
  /** Charge is created and confirmed, then ends `failed`. */
  endsFailed: string;
}

export const TEST_PHONES: Readonly<Record<Provider, TestPhones>> = {
  opa_bf: { succeeds: '76000000', rejected: '76000001', endsFailed: '76000002' },
  opb_bf: { succeeds: '70000000', rejected: '70000001', endsFailed: '70000002' },
  opc_bf: { succeeds: '58000000', rejected: '58000001', endsFailed: '58000002' },
  opd_bf: { succeeds: '68000000', rejected: '68000001', endsFailed: '68000002' },
  ope_bj: { succeeds: '0196000000', rejected: '0196000001', endsFailed: '0196000002' },
  opf_bj: { succeeds: '0195000000', rejected: '0195000001', endsFailed: '0195000002' },
};

export type ChargeOutcome = 'succeeds' | 'rejected' | 'ends_failed';

/** Only the provider's own test numbers are special; any other valid number succeeds. */
export function chargeOutcomeFor(provider: Provider, phone: string): ChargeOutcome {
  const phones = TEST_PHONES[provider];
  if (phone === phones.rejected) return 'rejected';
  if (phone === phones.endsFailed) return 'ends_failed';
  return 'succeeds';
}

/** Transfers to numbers ending in 9 fail at the operator after being queued. */
export function transferFailsFor(phone: string): boolean {
  return phone.endsWith('9');
}

export const TEST_WALLET_FUNDING = 100_000;
