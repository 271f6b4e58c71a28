// Who is signed in: the staff token, kept in memory only (never localStorage, sessionStorage or a cookie), its
// claims (subject, scopes, expiry) and how to change it. When the token expires or the gateway refuses it, the
// sign-in dialog opens over the page, which stays mounted: a half-filled form is still there afterwards.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Provider as UrqlProvider } from 'urql';
import { createConsoleClient, type ConsoleClient } from './client.js';
import { readClaims, type TokenClaims } from './lib/scopes.js';
import { settings, type Persona } from './settings.js';

export interface Session {
  token: string | null;
  claims: TokenClaims | null;
  /** The sandbox persona in use, if any. */
  personaId: string | null;
  /**
   * Platform mode: the merchant this page acts for: the token's own (`merchant_id`), or the one an operator's token
   * picked; null: none yet (single mode: always null, the gateway's one merchant).
   */
  merchant: ChosenMerchant | null;
  /** Platform mode, an operator's token: acts for this merchant from now on (null: for none). */
  chooseMerchant(merchant: ChosenMerchant | null): void;
  /** True when the token expired or was refused: the sign-in dialog is open. */
  expired: boolean;
  /** True once someone signed out in this page: the next provider sign-in asks who is signing in. */
  signedOut: boolean;
  signIn(token: string, personaId?: string | null): boolean;
  usePersona(persona: Persona): void;
  signOut(): void;
  markExpired(): void;
}

/** A merchant of the platform the page acts for: its id (`mer_…`), and its name when the token may read it. */
export interface ChosenMerchant {
  id: string;
  name: string | null;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

const firstPersona = settings.mode === 'sandbox' ? (settings.personas[0] ?? null) : null;

export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(firstPersona?.token ?? null);
  const [personaId, setPersonaId] = useState<string | null>(firstPersona?.id ?? null);
  const [expired, setExpired] = useState(false);
  const [signedOut, setSignedOut] = useState(false);
  const [chosen, setChosen] = useState<ChosenMerchant | null>(null);
  const claims = useMemo(() => (token ? readClaims(token) : null), [token]);
  // A merchant's own token acts for its merchant; an operator's acts for the one it picked, and a new token picks anew.
  const ownMerchant = settings.merchantMode === 'platform' ? (claims?.merchantId ?? null) : null;
  const merchant = useMemo(
    () => (ownMerchant ? { id: ownMerchant, name: null } : settings.merchantMode === 'platform' ? chosen : null),
    [ownMerchant, chosen],
  );
  const named = ownMerchant ? null : (merchant?.id ?? null);
  const markExpired = useCallback(() => setExpired(true), []);
  const markRef = useRef(markExpired);
  markRef.current = markExpired;

  // A timer at the token's expiry: the person is asked to sign in again before an action fails.
  useEffect(() => {
    if (!claims?.expiresAt) return;
    const wait = claims.expiresAt - Date.now();
    if (wait <= 0) {
      setExpired(true);
      return;
    }
    const timer = setTimeout(() => setExpired(true), Math.min(wait, 2_147_000_000));
    return () => clearTimeout(timer);
  }, [claims]);

  const connection = useMemo<ConsoleClient | null>(
    () => (token ? createConsoleClient(token, named, () => markRef.current()) : null),
    [token, named],
  );
  useEffect(() => () => void connection?.ws.dispose(), [connection]);

  const session = useMemo<Session>(
    () => ({
      token,
      claims,
      personaId,
      merchant,
      chooseMerchant: setChosen,
      expired,
      signedOut,
      signIn(next, persona = null) {
        const read = readClaims(next);
        if (!read || (read.expiresAt !== null && read.expiresAt <= Date.now())) return false;
        setToken(next.trim());
        setPersonaId(persona);
        setChosen(null);
        setExpired(false);
        return true;
      },
      usePersona(persona) {
        setToken(persona.token);
        setPersonaId(persona.id);
        setChosen(null);
        setExpired(false);
      },
      signOut() {
        setSignedOut(true);
        setToken(null);
        setPersonaId(null);
        setChosen(null);
        setExpired(false);
      },
      markExpired,
    }),
    [token, claims, personaId, merchant, expired, signedOut, markExpired],
  );

  return (
    <SessionContext.Provider value={session}>
      {connection ? <UrqlProvider value={connection.client}>{children}</UrqlProvider> : children}
    </SessionContext.Provider>
  );
}
