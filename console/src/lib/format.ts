// How the back office writes amounts and times. Amounts as the merchants write them whatever the page's language:
// `2 500 F CFA` (Intl, fr-FR; XOF has no decimals). Times in the browser's own time zone (Benin UTC+1, Burkina Faso
// UTC+0), in the page's language.
export type Language = 'fr' | 'en';

const money = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'XOF', maximumFractionDigits: 0 });
const plain = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });

/** 2500 -> "2 500 F CFA" (with the narrow no-break spaces Intl puts there). */
export function formatMoney(amount: number): string {
  return money.format(amount);
}

/** A count: 10000 -> "10 000". */
export function formatCount(count: number): string {
  return plain.format(count);
}

const locales: Record<Language, string> = { fr: 'fr-FR', en: 'en-GB' };

export function formatDateTime(iso: string | null | undefined, language: Language, timeZone?: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(locales[language], { dateStyle: 'medium', timeStyle: 'medium', ...(timeZone ? { timeZone } : {}) }).format(
    date,
  );
}

export function formatDay(day: Date, language: Language): string {
  return new Intl.DateTimeFormat(locales[language], { day: 'numeric', month: 'short' }).format(day);
}

/** Spaces of any kind as plain ones: for comparing what Intl wrote with what a person types. */
export const plainSpaces = (text: string): string => text.replace(/[\u00a0\u202f]/g, ' ');

/** The local calendar day of an instant, `YYYY-MM-DD` (the API's Date filters). */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
