// Operators and wallets as a person reads them in a message, in English and
// French. The service names them with neutral tokens (`opb_bf`) that mean
// nothing to a customer; a message must never show one.
//
// The spec does not say which real operator each token stands for, only that
// the tokens are neutral and that its balance keys follow the same pattern
// (`opb_money_bf`). So the names below keep that pattern in a readable form
// ("OPB Money Burkina Faso"). A deployment that knows its operators' brand
// names changes them here, in this one table, and every message follows.
import { PHONE_RULES, type PhoneShape } from '../upstream/phone-rules.js';
import type { Provider, Wallet } from '../upstream/types.js';

interface HumanName {
  en: string;
  fr: string;
}

/** Each operator's name as shown to people, in English and French. */
export const OPERATOR_NAMES: Record<Provider, HumanName> = {
  opa_bf: { en: 'OPA Money Burkina Faso', fr: 'OPA Money Burkina Faso' },
  opb_bf: { en: 'OPB Money Burkina Faso', fr: 'OPB Money Burkina Faso' },
  opc_bf: { en: 'OPC Money Burkina Faso', fr: 'OPC Money Burkina Faso' },
  opd_bf: { en: 'OPD Money Burkina Faso', fr: 'OPD Money Burkina Faso' },
  ope_bj: { en: 'OPE Money Benin', fr: 'OPE Money Bénin' },
  opf_bj: { en: 'OPF Money Benin', fr: 'OPF Money Bénin' },
};

/** The name people read for an operator or wallet (never the service's token), in both languages. */
export function operatorName(provider: Provider | Wallet): HumanName {
  return OPERATOR_NAMES[provider];
}

/** What a valid number of this operator looks like, in both languages, both written from the rule's shape. */
export function phoneRuleText(provider: Provider): HumanName {
  const { description, shape } = PHONE_RULES[provider];
  return { en: description, fr: shapeFr(shape) };
}

const listFr = (items: readonly string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} ou ${items.at(-1)}` : items[0]!);

function shapeFr(shape: PhoneShape): string {
  const starts = shape.after01
    ? `01 puis ${shape.prefixes.join(', ')}`
    : shape.anyBurkinaMobile
      ? listFr(shape.prefixes)
      : shape.prefixes.join(', ');
  const rule = `${shape.digits} chiffres commençant par ${starts}`;
  return shape.anyBurkinaMobile ? `un numéro mobile du Burkina Faso : ${rule}` : rule;
}

/** The French of a rule the service states in English (its wording is ours, describeShape's), or null if it is not one. */
export function phoneRuleFr(en: string): string | null {
  const provider = (Object.keys(PHONE_RULES) as Provider[]).find((p) => PHONE_RULES[p].description === en);
  return provider ? phoneRuleText(provider).fr : null;
}

/** A Burkina Faso mobile number, in both languages (the rule of opd_bf transfers). */
export const BF_MOBILE_TEXT: HumanName = {
  en: 'a Burkina Faso mobile number',
  fr: 'un numéro mobile du Burkina Faso',
};
