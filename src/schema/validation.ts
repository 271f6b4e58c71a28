// Input checks that run before any call to the payment service, so a typo
// costs the customer nothing and the error names the exact field.
import { PHONE_RULES, isValidRecipientFor, walletForPhone } from '../upstream/phone-rules.js';
import type { Provider, Wallet } from '../upstream/types.js';
import { ValidationError, type FieldProblem } from '../errors/payment-errors.js';

export const MIN_TRANSFER_AMOUNT = 100;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class Checks {
  readonly problems: FieldProblem[] = [];

  constructor(private readonly base: string[] = ['input']) {}

  at(...path: Array<string | number>): string[] {
    return [...this.base, ...path.map(String)];
  }

  fail(path: string[], message: string): void {
    this.problems.push({ path, message });
  }

  amount(path: string[], value: number, minimum = 1): void {
    if (!Number.isSafeInteger(value) || value < minimum) {
      this.fail(
        path,
        minimum > 1 ? `Amount must be a whole number of XOF, at least ${minimum}.` : 'Amount must be a positive whole number of XOF.',
      );
    }
  }

  phoneFor(path: string[], provider: Provider, phone: string): void {
    if (!PHONE_RULES[provider].test(phone)) {
      this.fail(path, `Not a valid ${provider.toUpperCase()} number: expected ${PHONE_RULES[provider].description}.`);
    }
  }

  recipient(path: string[], phone: string, wallet: Wallet | null | undefined): void {
    if (wallet ? !isValidRecipientFor(wallet, phone) : walletForPhone(phone) === null) {
      this.fail(
        path,
        wallet
          ? `Not a number the ${wallet.toUpperCase()} wallet can pay: expected ${wallet === 'opd_bf' ? 'a Burkina Faso mobile number' : PHONE_RULES[wallet].description}.`
          : 'Not a Burkina Faso or Benin mobile number.',
      );
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
    if (!ok) this.fail(path, 'Must be an absolute http(s) URL.');
  }

  email(path: string[], value: string | null | undefined): void {
    if (value != null && (value.length > 254 || !EMAIL.test(value))) this.fail(path, 'Must be an email address.');
  }

  nonEmpty(path: string[], value: string, what: string): void {
    if (value.trim() === '') this.fail(path, `${what} must not be empty.`);
  }

  maxLength(path: string[], value: string | null | undefined, max: number): void {
    if (value != null && value.length > max) this.fail(path, `Must be at most ${max} characters.`);
  }

  /** Throws the collected problems, if any. */
  done(): void {
    if (this.problems.length > 0) throw new ValidationError(this.problems);
  }
}
