// The language switch: French by default, English remembered (src/i18n.ts). Its name is in the language it offers.
import { Button } from 'react-aria-components';
import { setLanguage, useLanguage } from '../i18n.js';

export function LanguageSwitch() {
  const { t, language } = useLanguage();
  const other = language === 'fr' ? 'en' : 'fr';
  return (
    <Button className="link-button" onPress={() => setLanguage(other)} aria-label={t('language.switchTo')}>
      <span lang={other}>{t('language.other')}</span>
    </Button>
  );
}
