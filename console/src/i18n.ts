// The page's language: French by default, English by a switch that is remembered (localStorage holds the language
// only, never a token). i18next with react-i18next: plurals by its rules, every text in both languages
// (test/console/i18n.test.ts checks that both have the same keys).
import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import type { Language } from './lib/format.js';
import { en } from './locales/en.js';
import { fr } from './locales/fr.js';

const STORAGE_KEY = 'console.language';

function rememberedLanguage(): Language {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'en' ? 'en' : 'fr';
  } catch {
    return 'fr';
  }
}

void i18next.use(initReactI18next).init({
  resources: { fr: { translation: fr }, en: { translation: en } },
  lng: rememberedLanguage(),
  fallbackLng: 'fr',
  interpolation: { escapeValue: false },
  returnNull: false,
});
document.documentElement.lang = i18next.language;

export function setLanguage(language: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Private browsing without storage: the switch still applies to this visit.
  }
  void i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

/** The translation function and the current language, typed to the two languages the console has. */
export function useLanguage() {
  const { t, i18n } = useTranslation();
  return { t, language: (i18n.language === 'en' ? 'en' : 'fr') as Language };
}
