// Signing in: a sandbox persona (sandbox mode), the merchant's identity provider (OpenID Connect, when set), or any
// staff token pasted (always: break-glass access, and tests). The dialog form opens over the page when the token
// expired; the page behind it stays mounted, forms and all.
import { useState, type FormEvent } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useLanguage } from './i18n.js';
import { signInWithOidc } from './oidc.js';
import { useSession } from './session.js';
import { settings } from './settings.js';
import { LanguageSwitch } from './ui/language-switch.js';

function SignInOptions() {
  const { t, language } = useLanguage();
  const session = useSession();
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submitToken = (event: FormEvent) => {
    event.preventDefault();
    if (!session.signIn(token)) setProblem(t('signIn.badToken'));
    else setToken('');
  };
  const oidc = async () => {
    if (!settings.oidc) return;
    setBusy(true);
    setProblem(null);
    try {
      const accessToken = await signInWithOidc(settings.oidc, session.signedOut);
      if (!session.signIn(accessToken)) setProblem(t('signIn.badToken'));
    } catch {
      setProblem(t('signIn.oidcFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="sign-in-options">
      {settings.oidc && (
        <Button className="button primary" onPress={() => void oidc()} isDisabled={busy}>
          {t('signIn.oidc')}
        </Button>
      )}
      {settings.mode === 'sandbox' && settings.personas.length > 0 && (
        <fieldset>
          <legend>{t('signIn.personas')}</legend>
          {settings.personas.map((p) => (
            <Button key={p.id} className="button" onPress={() => session.usePersona(p)}>
              {p.name[language]}
            </Button>
          ))}
        </fieldset>
      )}
      <form onSubmit={submitToken} className="token-form">
        <label htmlFor="sign-in-token">{t('signIn.tokenLabel')}</label>
        <textarea
          id="sign-in-token"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          rows={3}
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" className="button">
          {t('signIn.withToken')}
        </button>
      </form>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
    </div>
  );
}

export function SignInPage() {
  const { t } = useLanguage();
  return (
    <main id="main" className="sign-in-page">
      <p className="actions">
        <LanguageSwitch />
      </p>
      <h1>{t('signIn.title')}</h1>
      <p>{t('signIn.intro')}</p>
      <SignInOptions />
    </main>
  );
}

export function SignInDialog() {
  const { t } = useLanguage();
  return (
    <ModalOverlay isOpen isDismissable={false} className="modal-overlay">
      <Modal className="modal">
        <Dialog className="dialog">
          <Heading slot="title">{t('signIn.expiredTitle')}</Heading>
          <p>{t('signIn.expired')}</p>
          <SignInOptions />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
