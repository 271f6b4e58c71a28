// Field errors the gateway does not write itself: the payment service's own
// validation messages (English only, in the style of Django REST framework),
// passed on with their field paths. Each known sentence gets its French; the
// operator tokens the service puts in them (`opb_bf`) become the operators'
// names in both languages. Each known sentence is one template (sentence-templates.ts).
import { PROVIDERS, type Provider } from '../upstream/types.js';
import { operatorName, phoneRuleFr } from './operators.js';
import { compileTemplates, readTemplate, type SentenceTemplate } from './sentence-templates.js';

const TOKEN = new RegExp(`\\b(${PROVIDERS.join('|')})\\b`, 'gi');

/** The text with every operator token replaced by the operator's name in that language. */
export function withOperatorNames(text: string, language: 'en' | 'fr'): string {
  return text.replace(TOKEN, (token) => operatorName(token.toLowerCase() as Provider)[language]);
}

/** The gateway's own report of a bulk item the service has no record of (src/schema/transfer.ts), in the service's shape. */
export const NOT_SENT_BULK_ITEM = {
  en: 'Not sent: the payment service has no record of this payout (it was rejected, or never arrived). Send it again in a new bulk transfer, with a new idempotency key.',
  fr: "Non envoyé : le service de paiement n'a aucune trace de ce paiement (refusé, ou jamais arrivé). Renvoyez-le dans un nouveau transfert groupé, avec une nouvelle clé d'idempotence.",
} as const;

interface ServiceSentence extends SentenceTemplate {
  fr: (p: Readonly<Record<string, string>>) => string;
}

// The service's sentences (Django REST framework's, and its own), without their final period (it is not always
// there); read with operators already named in French, so `{operator}` holes are French names.
const SERVICE_SENTENCES: Record<string, ServiceSentence> = {
  NotSent: { en: NOT_SENT_BULK_ITEM.en.replace(/\.$/, ''), fr: () => NOT_SENT_BULK_ITEM.fr },
  Required: { en: 'This field is required', fr: () => 'Ce champ est obligatoire.' },
  Blank: { en: 'This field may not be blank', fr: () => 'Ce champ ne peut pas être vide.' },
  Null: { en: 'This field may not be null', fr: () => 'Ce champ ne peut pas être vide.' },
  EmptyList: { en: 'This list may not be empty', fr: () => 'Cette liste ne peut pas être vide.' },
  Integer: { en: 'A valid integer is required', fr: () => 'Un nombre entier valide est requis.' },
  Number: { en: 'A valid number is required', fr: () => 'Un nombre valide est requis.' },
  String: { en: 'Not a valid string', fr: () => 'Une chaîne de caractères est attendue.' },
  Url: { en: 'Enter a valid URL', fr: () => 'Saisissez une URL valide.' },
  Email: { en: 'Enter a valid email address', fr: () => 'Saisissez une adresse e-mail valide.' },
  Date: { en: 'Enter a valid date in the format YYYY-MM-DD', fr: () => 'Saisissez une date valide au format AAAA-MM-JJ.' },
  Mobile: {
    en: 'Enter a valid Burkina Faso or Benin mobile number',
    fr: () => 'Saisissez un numéro mobile valide du Burkina Faso ou du Bénin.',
  },
  OperatorNumber: {
    en: 'Enter a valid {operator} number: {rule}',
    fr: (p) => {
      const rule = phoneRuleFr(p.rule!);
      return rule ? `Saisissez un numéro ${p.operator} valide : ${rule}.` : `Saisissez un numéro ${p.operator} valide.`;
    },
  },
  AtLeast: { en: 'Ensure this value is greater than or equal to {n}', fr: (p) => `Cette valeur doit être supérieure ou égale à ${p.n}.` },
  AtMost: { en: 'Ensure this value is less than or equal to {n}', fr: (p) => `Cette valeur doit être inférieure ou égale à ${p.n}.` },
  MaxLength: { en: 'Ensure this field has no more than {n} characters', fr: (p) => `Ce champ ne doit pas dépasser ${p.n} caractères.` },
  Choice: {
    en: 'Select a valid choice. {value} is not one of the available choices',
    fr: (p) => `Choisissez une valeur valide : « ${p.value} » ne fait pas partie des choix possibles.`,
  },
  DuplicateExtId: { en: 'A transfer with this ext_id already exists', fr: () => 'Un transfert avec cet ext_id existe déjà.' },
  WalletRefused: {
    en: 'This number cannot receive a transfer from the {wallet} wallet',
    fr: (p) => `Ce numéro ne peut pas recevoir de transfert depuis le portefeuille ${p.wallet}.`,
  },
  Dictionary: { en: 'Invalid data. Expected a dictionary, but got {type}', fr: () => 'Données invalides : un objet était attendu.' },
  List: { en: 'Expected a list of items but got type {type}', fr: () => 'Une liste d’éléments était attendue.' },
  Length: { en: 'Must be 1 to {n} characters', fr: (p) => `Doit comporter de 1 à ${p.n} caractères.` },
  RejectedInput: { en: 'The payment service rejected the input', fr: () => 'Le service de paiement a refusé ces informations.' },
  RejectedItem: { en: 'The payment service rejected this item', fr: () => 'Le service de paiement a refusé cet élément.' },
};
const COMPILED = compileTemplates(SERVICE_SENTENCES);

/**
 * A field message of the service's, in English (with operator names) and in
 * French. A sentence we do not know keeps its English and gets a French that
 * says the service refused the field, without copying English into it.
 */
export function serviceFieldMessage(english: string): { en: string; fr: string } {
  const en = withOperatorNames(english.trim(), 'en');
  const sentence = withOperatorNames(english.trim(), 'fr').replace(/\.$/, '');
  for (const template of COMPILED) {
    const params = readTemplate(sentence, template);
    if (params) return { en, fr: template.entry.fr(params) };
  }
  return { en, fr: 'Le service de paiement a refusé cette valeur.' };
}
