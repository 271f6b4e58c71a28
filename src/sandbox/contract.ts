// The payment service's contract as the sandbox reads it from the service's published
// interface description, written down independently of the gateway's client:
// a simulator that shared the client's reading could never catch the client
// misreading the spec. Where the spec is vague, the sandbox's own pinned-down
// reading is marked (choice) and documented in README.md.

/** "payment_method_details.provider: one of opa_bf, opb_bf, opc_bf, opd_bf, ope_bj, opf_bj". */
export const PROVIDERS = ['opa_bf', 'opb_bf', 'opc_bf', 'opd_bf', 'ope_bj', 'opf_bj'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** Transfer `recipient_wallet`: "one of opa_bf, opb_bf, opd_bf, ope_bj, opf_bj" (opc_bf holds no Transfer Balance). */
export const WALLETS = ['opa_bf', 'opb_bf', 'opd_bf', 'ope_bj', 'opf_bj'] as const;
export type Wallet = (typeof WALLETS)[number];

export const CHECKOUT_STATUSES = ['pending', 'success', 'failed'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

export const CHARGE_STATUSES = ['success', 'failed', 'send_otp', 'pay_offline', 'pending', 'canceled'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** The charge list's `status` query parameter: "pending, success, failed". */
export const CHARGE_LIST_STATUS_FILTERS = ['pending', 'success', 'failed'] as const;
export type ChargeListStatusFilter = (typeof CHARGE_LIST_STATUS_FILTERS)[number];

export const TRANSFER_STATUSES = ['success', 'failed', 'pending'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const SETTLEMENT_STATUSES = ['processing', 'in_transit', 'success', 'cancelled'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

/** Settlement `account_type`. */
export const ACCOUNT_TYPES = ['bank', 'mobile', 'usdt'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** `payment_method_details.confirmation_method`, "only meaningful for opb_bf". */
export const CONFIRMATION_METHODS = ['otp', 'ussd'] as const;
export type ConfirmationMethod = (typeof CONFIRMATION_METHODS)[number];

// ---------------------------------------------------------------- phone rules

/** The spec's exact prefix lists (8-digit numbers). */
const OPA_BF_PREFIXES = ['04', '05', '06', '07', '54', '55', '56', '57', '64', '65', '66', '67', '74', '75', '76', '77'];
const OPB_BF_PREFIXES = ['70', '71', '72', '73', '60', '61', '62', '63', '50', '51', '52', '53', '01', '02', '03'];

/**
 * "Any Burkina Faso mobile number" (choice): 8 digits; Burkina Faso's mobile
 * ranges start with 0, 5, 6 or 7 (fixed lines start with 2).
 */
const BURKINA_MOBILE = /^[0567]\d{7}$/;

/**
 * "A valid Benin number of that operator" (choice): Benin numbers have been
 * 10 digits, "01" + the former 8, since 2024; the two digits after "01" name
 * the operator.
 */
const OPE_BJ_PREFIXES = ['51', '52', '53', '54', '61', '62', '66', '67', '69', '90', '91', '96', '97'];
const OPF_BJ_PREFIXES = ['55', '58', '60', '63', '64', '65', '68', '94', '95', '98', '99'];

export interface PhoneRule {
  /** Ends the validation message "Enter a valid <provider> number: <description>.". */
  description: string;
  test(phone: string): boolean;
}

function burkinaPrefixed(prefixes: readonly string[]): PhoneRule {
  return {
    description: `8 digits starting with ${prefixes.join(', ')}`,
    test: (phone) => /^\d{8}$/.test(phone) && prefixes.includes(phone.slice(0, 2)),
  };
}

function beninOperator(prefixes: readonly string[]): PhoneRule {
  return {
    description: `10 digits starting with 01 then ${prefixes.join(', ')}`,
    test: (phone) => /^01\d{8}$/.test(phone) && prefixes.includes(phone.slice(2, 4)),
  };
}

const burkinaMobile: PhoneRule = {
  description: 'a Burkina Faso mobile number: 8 digits starting with 0, 5, 6 or 7',
  test: (phone) => BURKINA_MOBILE.test(phone),
};

export const PHONE_RULES: Readonly<Record<Provider, PhoneRule>> = {
  opa_bf: burkinaPrefixed(OPA_BF_PREFIXES),
  opb_bf: burkinaPrefixed(OPB_BF_PREFIXES),
  opc_bf: burkinaMobile,
  opd_bf: burkinaMobile,
  ope_bj: beninOperator(OPE_BJ_PREFIXES),
  opf_bj: beninOperator(OPF_BJ_PREFIXES),
};

export function isProvider(value: string): value is Provider {
  return (PROVIDERS as readonly string[]).includes(value);
}

export function isValidPhoneFor(provider: Provider, phone: string): boolean {
  return PHONE_RULES[provider].test(phone);
}

/**
 * "When omitted the wallet is chosen from the recipient phone number" (choice
 * of how): the operator owning the number; other Burkina Faso mobiles go
 * through opd_bf. Null when the number is a mobile of neither country.
 */
export function walletForPhone(phone: string): Wallet | null {
  if (PHONE_RULES.opa_bf.test(phone)) return 'opa_bf';
  if (PHONE_RULES.opb_bf.test(phone)) return 'opb_bf';
  if (BURKINA_MOBILE.test(phone)) return 'opd_bf';
  if (PHONE_RULES.ope_bj.test(phone)) return 'ope_bj';
  if (PHONE_RULES.opf_bj.test(phone)) return 'opf_bj';
  return null;
}

/**
 * Whether a named wallet can reach the number (choice; the spec is silent):
 * opd_bf reaches any Burkina Faso mobile, the other wallets their operator's numbers.
 */
export function isValidRecipientFor(wallet: Wallet, phone: string): boolean {
  return wallet === 'opd_bf' ? BURKINA_MOBILE.test(phone) : PHONE_RULES[wallet].test(phone);
}
