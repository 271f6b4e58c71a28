// The back office's entry: the language, the session (token in memory), the shell; each page is loaded when first
// visited. An OpenID Connect sign-in that ends in a popup hands its answer back to the page that opened it.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n.js';
import './styles.css';
import { App } from './app.js';
import { handOverCallback } from './oidc-callback.js';
import { SessionProvider } from './session.js';

if (!handOverCallback()) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <SessionProvider>
        <App />
      </SessionProvider>
    </StrictMode>,
  );
}
