// Field errors the gateway does not write itself: the payment service's own
// validation messages (English only, in the style of Django REST framework),
// passed on with their field paths. Each known sentence gets its French; the
// operator tokens the service puts in them (`opb_bf`) become the operators'
// names in both languages.
import { PROVIDERS, type Provider } from '../upstream/types.js';
import { operatorName, phoneRuleFr } from './operators.js';

const TOKEN = new RegExp(`\\b(${PROVIDERS.join('|')})\\b`, 'gi');

/** The text with every operator token replaced by the operator's name in that language. */
export function withOperatorNames(text: string, language: 'en' | 'fr'): string {
  return text.replace(TOKEN, (token) => operatorName(token.toLowerCase() as Provider)[language]);
}

type Rule = [RegExp, (...groups: string[]) => string];

const RULES: Rule[] = [
  // The gateway's own report of a bulk item the service has no record of (src/schema/transfer.ts).
  [
    /^Not sent: the payment service has no record of this payout/,
    () =>
      "Non envoyé : le service de paiement n'a aucune trace de ce paiement (refusé, ou jamais arrivé). Renvoyez-le dans un nouveau transfert groupé, avec une nouvelle clé d'idempotence.",
  ],
  [/^This field is required\.?$/, () => 'Ce champ est obligatoire.'],
  [/^This field may not be (?:blank|null)\.?$/, () => 'Ce champ ne peut pas être vide.'],
  [/^This list may not be empty\.?$/, () => 'Cette liste ne peut pas être vide.'],
  [/^A valid integer is required\.?$/, () => 'Un nombre entier valide est requis.'],
  [/^A valid number is required\.?$/, () => 'Un nombre valide est requis.'],
  [/^Not a valid string\.?$/, () => 'Une chaîne de caractères est attendue.'],
  [/^Enter a valid URL\.?$/, () => 'Saisissez une URL valide.'],
  [/^Enter a valid email address\.?$/, () => 'Saisissez une adresse e-mail valide.'],
  [/^Enter a valid date in the format YYYY-MM-DD\.?$/, () => 'Saisissez une date valide au format AAAA-MM-JJ.'],
  [/^Enter a valid Burkina Faso or Benin mobile number\.?$/, () => 'Saisissez un numéro mobile valide du Burkina Faso ou du Bénin.'],
  [/^Enter a valid (.+?) number: (.+?)\.?$/, (op, rule) => `Saisissez un numéro ${op} valide : ${phoneRuleFr(rule)}.`],
  [/^Ensure this value is greater than or equal to (\d+)\.?$/, (n) => `Cette valeur doit être supérieure ou égale à ${n}.`],
  [/^Ensure this value is less than or equal to (\d+)\.?$/, (n) => `Cette valeur doit être inférieure ou égale à ${n}.`],
  [/^Ensure this field has no more than (\d+) characters\.?$/, (n) => `Ce champ ne doit pas dépasser ${n} caractères.`],
  [
    /^Select a valid choice\. (.+) is not one of the available choices\.?$/,
    (v) => `Choisissez une valeur valide : « ${v} » ne fait pas partie des choix possibles.`,
  ],
  [/^A transfer with this ext_id already exists\.?$/, () => 'Un transfert avec cet ext_id existe déjà.'],
  [
    /^This number cannot receive a transfer from the (.+) wallet\.?$/,
    (w) => `Ce numéro ne peut pas recevoir de transfert depuis le portefeuille ${w}.`,
  ],
  [/^Invalid data\. Expected a dictionary, but got .+$/, () => 'Données invalides : un objet était attendu.'],
  [/^Expected a list of items but got type .+$/, () => 'Une liste d’éléments était attendue.'],
  [/^Must be 1 to (\d+) characters\.?$/, (n) => `Doit comporter de 1 à ${n} caractères.`],
  [/^The payment service rejected the input\.?$/, () => 'Le service de paiement a refusé ces informations.'],
  [/^The payment service rejected this item\.?$/, () => 'Le service de paiement a refusé cet élément.'],
];

/**
 * A field message of the service's, in English (with operator names) and in
 * French. A sentence we do not know keeps its English and gets a French that
 * says the service refused the field, without copying English into it.
 */
export function serviceFieldMessage(english: string): { en: string; fr: string } {
  const en = withOperatorNames(english.trim(), 'en');
  const fr = withOperatorNames(english.trim(), 'fr');
  for (const [pattern, render] of RULES) {
    const m = pattern.exec(fr);
    if (m) return { en, fr: render(...m.slice(1)) };
  }
  return { en, fr: 'Le service de paiement a refusé cette valeur.' };
}
