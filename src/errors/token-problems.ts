// What a caller is told of a refused token, in both languages: the UNAUTHENTICATED entry of the catalogue
// (top-level.ts) and AuthError (src/auth/auth-error.ts) both read it. A leaf, so that auth/ may import it.

/** Why a token was refused, as far as the caller is told (see src/auth/auth-error.ts). */
export type TokenProblem = 'missing' | 'malformed' | 'invalid' | 'expired' | 'kind' | 'keys_unavailable';

/** The English and French of each TokenProblem: what a caller reads when its token is refused. */
export const TOKEN_PROBLEMS: Record<TokenProblem, { en: string; fr: string }> = {
  missing: {
    en: 'Authentication required: send Authorization: Bearer <token>.',
    fr: 'Authentification requise : envoyez l’en-tête Authorization: Bearer <jeton>.',
  },
  malformed: { en: 'The bearer token is malformed.', fr: 'Le jeton d’accès (bearer) est mal formé.' },
  invalid: { en: 'The token is invalid.', fr: 'Le jeton d’accès n’est pas valide.' },
  expired: { en: 'The token has expired.', fr: 'Le jeton d’accès a expiré : demandez-en un nouveau.' },
  kind: { en: 'This kind of token is not accepted here.', fr: 'Ce type de jeton n’est pas accepté ici.' },
  keys_unavailable: {
    en: 'The token could not be verified right now.',
    fr: 'Le jeton ne peut pas être vérifié pour le moment. Réessayez dans un instant.',
  },
};
