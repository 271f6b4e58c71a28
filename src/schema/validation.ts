// Input checks that run before any call to the payment service, so a typo
// costs the customer nothing and the error names the exact field.
// Every message is written in English and French, and names operators as people know them.
import { PHONE_RULES, isValidRecipientFor, walletForPhone } from '../upstream/phone-rules.js';
import type { Provider, Wallet } from '../upstream/types.js';
import { BF_MOBILE_TEXT, operatorName, phoneRuleText } from '../errors/operators.js';
import { ValidationError, type FieldProblem } from '../errors/payment-errors.js';
import { normalizedPhone } from './phone-input.js';

/** The smallest transfer, in XOF: a smaller one (single or in a batch) is refused as bad input before anything is sent. */
export const MIN_TRANSFER_AMOUNT = 100;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Collects the problems of a mutation's input, each at its path and in English and French, so that all are reported at once rather than
 * the first.
 */
export class Checks {
  readonly problems: FieldProblem[] = [];

  constructor(private readonly base: string[] = ['input']) {}

  at(...path: Array<string | number>): string[] {
    return [...this.base, ...path.map(String)];
  }

  /** One problem, said in English and in French (both shown to people). */
  fail(path: string[], message: string, messageFr: string): void {
    this.problems.push({ path, message, messageFr });
  }

  amount(path: string[], value: number, minimum = 1): void {
    if (!Number.isSafeInteger(value) || value < minimum) {
      if (minimum > 1) {
        this.fail(
          path,
          `Amount must be a whole number of XOF, at least ${minimum}.`,
          `Le montant doit être un nombre entier de XOF, au moins ${minimum}.`,
        );
      } else {
        this.fail(path, 'Amount must be a positive whole number of XOF.', 'Le montant doit être un nombre entier positif de XOF.');
      }
    }
  }

  /** `typed` as the customer typed it (normalized here, as the request will be); messages quote it as typed. */
  phoneFor(path: string[], provider: Provider, typed: string): void {
    if (!PHONE_RULES[provider].test(normalizedPhone(typed, provider))) {
      const name = operatorName(provider);
      const rule = phoneRuleText(provider);
      this.fail(
        path,
        `Not a valid ${name.en} number: ${JSON.stringify(typed)}; expected ${rule.en}.`,
        `Numéro ${name.fr} invalide : ${JSON.stringify(typed)} ; format attendu : ${rule.fr}.`,
      );
    }
  }

  recipient(path: string[], typed: string, wallet: Wallet | null | undefined): void {
    const phone = normalizedPhone(typed, wallet);
    if (wallet ? !isValidRecipientFor(wallet, phone) : walletForPhone(phone) === null) {
      if (wallet) {
        const name = operatorName(wallet);
        const rule = wallet === 'opd_bf' ? BF_MOBILE_TEXT : phoneRuleText(wallet);
        this.fail(
          path,
          `Not a number the ${name.en} wallet can pay: ${JSON.stringify(typed)}; expected ${rule.en}.`,
          `Le portefeuille ${name.fr} ne peut pas payer ce numéro : ${JSON.stringify(typed)} ; format attendu : ${rule.fr}.`,
        );
      } else {
        this.fail(
          path,
          `Not a Burkina Faso or Benin mobile number: ${JSON.stringify(typed)}.`,
          `Ce n’est pas un numéro mobile du Burkina Faso ou du Bénin : ${JSON.stringify(typed)}.`,
        );
      }
    }
  }

  url(path: string[], value: string): void {
    let ok = false;
    try {
      const u = new URL(value);
      ok = (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname.length > 0;
    } catch {
      ok = false;
    }
    if (!ok) this.fail(path, 'Must be an absolute http(s) URL.', 'Doit être une URL http(s) absolue.');
  }

  email(path: string[], value: string | null | undefined): void {
    if (value != null && (value.length > 254 || !EMAIL.test(value)))
      this.fail(path, 'Must be an email address.', 'Doit être une adresse e-mail.');
  }

  /** `what` names the field in both languages, e.g. { en: 'The OTP', fr: 'Le code OTP' }. */
  nonEmpty(path: string[], value: string, what: { en: string; fr: string }): void {
    if (value.trim() === '') this.fail(path, `${what.en} must not be empty.`, `${what.fr} ne doit pas être vide.`);
  }

  maxLength(path: string[], value: string | null | undefined, max: number): void {
    if (value != null && value.length > max) this.fail(path, `Must be at most ${max} characters.`, `Au plus ${max} caractères.`);
  }

  /** Throws the collected problems, if any. */
  done(): void {
    if (this.problems.length > 0) throw new ValidationError(this.problems);
  }
}
