// Operators and wallets as a person reads them in a message, in English and
// French. The service names them with neutral tokens (`opb_bf`) that mean
// nothing to a customer; a message must never show one.
//
// The spec does not say which real operator each token stands for, only that
// the tokens are neutral and that its balance keys follow the same pattern
// (`opb_money_bf`). So the names below keep that pattern in a readable form
// ("OPB Money Burkina Faso"). A deployment that knows its operators' brand
// names changes them here, in this one table, and every message follows.
import { PHONE_RULES } from '../upstream/phone-rules.js';
import type { Provider, Wallet } from '../upstream/types.js';

export interface HumanName {
  en: string;
  fr: string;
}

export const OPERATOR_NAMES: Record<Provider, HumanName> = {
  opa_bf: { en: 'OPA Money Burkina Faso', fr: 'OPA Money Burkina Faso' },
  opb_bf: { en: 'OPB Money Burkina Faso', fr: 'OPB Money Burkina Faso' },
  opc_bf: { en: 'OPC Money Burkina Faso', fr: 'OPC Money Burkina Faso' },
  opd_bf: { en: 'OPD Money Burkina Faso', fr: 'OPD Money Burkina Faso' },
  ope_bj: { en: 'OPE Money Benin', fr: 'OPE Money Bénin' },
  opf_bj: { en: 'OPF Money Benin', fr: 'OPF Money Bénin' },
};

export function operatorName(provider: Provider | Wallet): HumanName {
  return OPERATOR_NAMES[provider];
}

/**
 * What a valid number of this operator looks like, in both languages. The
 * English comes from the phone rules themselves (src/upstream/phone-rules.ts);
 * the French is written from the same words, so both always name the same
 * prefixes.
 */
export function phoneRuleText(provider: Provider): HumanName {
  const en = PHONE_RULES[provider].description;
  return { en, fr: phoneRuleFr(en) };
}

/** A Burkina Faso mobile number, in both languages (the rule of opd_bf transfers). */
export const BF_MOBILE_TEXT: HumanName = {
  en: 'a Burkina Faso mobile number',
  fr: 'un numéro mobile du Burkina Faso',
};

const PHONE_RULE_WORDS: Array<[RegExp, string]> = [
  [/^a Burkina Faso mobile number: /, 'un numéro mobile du Burkina Faso : '],
  [/(\d+) digits starting with 01 then /, '$1 chiffres commençant par 01 puis '],
  [/(\d+) digits starting with /, '$1 chiffres commençant par '],
  [/ or (\d)/g, ' ou $1'],
];

/** A phone rule's English wording ("8 digits starting with 70, 71"), in French. */
export function phoneRuleFr(en: string): string {
  return PHONE_RULE_WORDS.reduce((text, [pattern, fr]) => text.replace(pattern, fr), en);
}
