// Errors as people read them: the API's own sentence in the page's language (a typed error's messageFr or message,
// a top-level error's extensions.messageFr or message), never a bare code.
import type { CombinedError } from 'urql';
import type { Language } from './format.js';

export interface TypedError {
  __typename?: string;
  code?: string;
  message?: string;
  messageFr?: string;
  fieldErrors?: { path: string[]; message: string; messageFr: string }[] | null;
}

/** A mutation's result union member that is an error (it implements PaymentError: it has a code). */
export function isTypedError(value: unknown): value is TypedError & { code: string } {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string';
}

export function typedErrorText(error: TypedError, language: Language): string {
  const main = (language === 'fr' ? error.messageFr : error.message) ?? error.message ?? '';
  const fields = (error.fieldErrors ?? []).map((f) => (language === 'fr' ? f.messageFr : f.message));
  return [main, ...fields].filter(Boolean).join(' — ');
}

const NETWORK: Record<Language, string> = {
  fr: 'La passerelle ne répond pas. Vérifiez la connexion et réessayez.',
  en: 'The gateway does not answer. Check the connection and try again.',
};

export function combinedErrorText(error: CombinedError, language: Language): string {
  const first = error.graphQLErrors[0];
  if (first) {
    const fr = first.extensions?.messageFr;
    return language === 'fr' && typeof fr === 'string' ? fr : first.message;
  }
  return NETWORK[language];
}

/** Whether the gateway refused the token itself (expired, revoked): the page asks for a sign-in again. */
export function isUnauthenticated(error: CombinedError | undefined): boolean {
  if (!error) return false;
  if (error.graphQLErrors.some((e) => e.extensions?.code === 'UNAUTHENTICATED')) return true;
  return (error.response as { status?: number } | undefined)?.status === 401;
}
