// The operators' phone rules, for the payroll preview: a bad row is named before anything is sent. The gateway
// applies the same rules again (src/upstream/phone-rules.ts, from the service's spec); this copy exists because the
// browser cannot import the gateway's modules, and a test (test/console/phone.test.ts) checks both agree.
export type Wallet = 'OPA_BF' | 'OPB_BF' | 'OPD_BF' | 'OPE_BJ' | 'OPF_BJ';
export const WALLETS: readonly Wallet[] = ['OPA_BF', 'OPB_BF', 'OPD_BF', 'OPE_BJ', 'OPF_BJ'];

const OPA_BF = ['04', '05', '06', '07', '54', '55', '56', '57', '64', '65', '66', '67', '74', '75', '76', '77'];
const OPB_BF = ['70', '71', '72', '73', '60', '61', '62', '63', '50', '51', '52', '53', '01', '02', '03'];
const OPE_BJ = ['51', '52', '53', '54', '61', '62', '66', '67', '69', '90', '91', '96', '97'];
const OPF_BJ = ['55', '58', '60', '63', '64', '65', '68', '94', '95', '98', '99'];
const BF_MOBILE = /^[0567]\d{7}$/;

/** The national number as the service reads it: separators and the country code (+226, 00226, +229, 00229) dropped. */
export function nationalNumber(typed: string): string {
  const digits = typed.replace(/[\s.\-()]/g, '');
  const international = /^(?:\+|00)(226|229)(\d+)$/.exec(digits);
  return international ? international[2]! : digits;
}

const eight = (prefixes: string[]) => (p: string) => /^\d{8}$/.test(p) && prefixes.includes(p.slice(0, 2));
const benin = (prefixes: string[]) => (p: string) => /^01\d{8}$/.test(p) && prefixes.includes(p.slice(2, 4));

const RULES: Record<Wallet, (p: string) => boolean> = {
  OPA_BF: eight(OPA_BF),
  OPB_BF: eight(OPB_BF),
  OPD_BF: (p) => BF_MOBILE.test(p),
  OPE_BJ: benin(OPE_BJ),
  OPF_BJ: benin(OPF_BJ),
};

/** What each wallet's numbers look like, for a bad row's reason. */
export const RULE_TEXT: Record<Wallet, { fr: string; en: string }> = {
  OPA_BF: { fr: `8 chiffres commençant par ${OPA_BF.join(', ')}`, en: `8 digits starting with ${OPA_BF.join(', ')}` },
  OPB_BF: { fr: `8 chiffres commençant par ${OPB_BF.join(', ')}`, en: `8 digits starting with ${OPB_BF.join(', ')}` },
  OPD_BF: {
    fr: '8 chiffres commençant par 0, 5, 6 ou 7 (mobile du Burkina Faso)',
    en: '8 digits starting with 0, 5, 6 or 7 (a Burkina Faso mobile)',
  },
  OPE_BJ: { fr: `10 chiffres commençant par 01 puis ${OPE_BJ.join(', ')}`, en: `10 digits starting with 01 then ${OPE_BJ.join(', ')}` },
  OPF_BJ: { fr: `10 chiffres commençant par 01 puis ${OPF_BJ.join(', ')}`, en: `10 digits starting with 01 then ${OPF_BJ.join(', ')}` },
};

/** The wallet a payout to this number goes through when none is named (the gateway's walletForPhone); null: no operator's. */
export function walletForPhone(phone: string): Wallet | null {
  if (RULES.OPA_BF(phone)) return 'OPA_BF';
  if (RULES.OPB_BF(phone)) return 'OPB_BF';
  if (BF_MOBILE.test(phone)) return 'OPD_BF';
  if (RULES.OPE_BJ(phone)) return 'OPE_BJ';
  if (RULES.OPF_BJ(phone)) return 'OPF_BJ';
  return null;
}

export const isValidRecipientFor = (wallet: Wallet, phone: string): boolean => RULES[wallet](phone);
