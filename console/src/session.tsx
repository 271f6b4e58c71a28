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
  /** True when the token expired or was refused: the sign-in dialog is open. */
  expired: boolean;
  /** True once someone signed out in this page: the next provider sign-in asks who is signing in. */
  signedOut: boolean;
  signIn(token: string, personaId?: string | null): boolean;
  usePersona(persona: Persona): void;
  signOut(): void;
  markExpired(): void;
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
  const claims = useMemo(() => (token ? readClaims(token) : null), [token]);
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

  const connection = useMemo<ConsoleClient | null>(() => (token ? createConsoleClient(token, () => markRef.current()) : null), [token]);
  useEffect(() => () => void connection?.ws.dispose(), [connection]);

  const session = useMemo<Session>(
    () => ({
      token,
      claims,
      personaId,
      expired,
      signedOut,
      signIn(next, persona = null) {
        const read = readClaims(next);
        if (!read || (read.expiresAt !== null && read.expiresAt <= Date.now())) return false;
        setToken(next.trim());
        setPersonaId(persona);
        setExpired(false);
        return true;
      },
      usePersona(persona) {
        setToken(persona.token);
        setPersonaId(persona.id);
        setExpired(false);
      },
      signOut() {
        setSignedOut(true);
        setToken(null);
        setPersonaId(null);
        setExpired(false);
      },
      markExpired,
    }),
    [token, claims, personaId, expired, signedOut, markExpired],
  );

  return (
    <SessionContext.Provider value={session}>
      {connection ? <UrqlProvider value={connection.client}>{children}</UrqlProvider> : children}
    </SessionContext.Provider>
  );
}
