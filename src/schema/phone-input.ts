// Phone numbers as people type them: "+226 58 00 00 00", "0022658000000",
// "58-00-00-00", "+229 01 96 00 00 00". libphonenumber-js reads the typed form
// (international prefixes +226/00226 and +229/00229, spaces, dots, dashes,
// brackets) into the country code and the national number; the national number
// is the form the payment service expects, and the operator's prefix rules
// (src/upstream/phone-rules.ts, ours) then decide. Its own validity check is not
// used: its ranges are not the operators' tables, nor the sandbox's test numbers.
import { parsePhoneNumberWithError, type CountryCode } from 'libphonenumber-js/min';
import type { Provider, Wallet } from '../upstream/types.js';

const COUNTRY_CODES: Record<string, CountryCode> = { '226': 'BF', '229': 'BJ' };

/** The country a number without an international prefix is read in: the operator's, Burkina Faso when none is named. */
export function countryOf(operator: Provider | Wallet | null | undefined): CountryCode {
  return operator?.endsWith('_bj') ? 'BJ' : 'BF';
}

/**
 * The national number the service expects (digits only, e.g. "58000000", "0196000000"), or null when
 * the text is not a phone number of Burkina Faso or Benin. Whether that operator serves it is for the
 * prefix rules to say.
 */
export function nationalPhone(typed: string, country: CountryCode): string | null {
  try {
    const parsed = parsePhoneNumberWithError(typed, { defaultCountry: country, extract: false });
    return COUNTRY_CODES[parsed.countryCallingCode] ? parsed.nationalNumber : null;
  } catch {
    return null;
  }
}

/** The form to send (and to check): the national number when the text reads as one, the text as typed otherwise. */
export function normalizedPhone(typed: string, operator: Provider | Wallet | null | undefined): string {
  return nationalPhone(typed, countryOf(operator)) ?? typed;
}
