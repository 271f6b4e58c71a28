// The typed errors of platform mode, declared like every other PaymentError (src/errors/typed-errors.ts): the
// operator's operations on merchants, and a suspended merchant's money moves.
import { typedError } from './typed-errors.js';

export const MerchantNotFoundError = typedError({
  name: 'MerchantNotFoundError',
  description: 'No merchant has this id (or it was purged).',
  code: 'NOT_FOUND',
  fields: (merchantId: string) => ({ merchantId }),
  graphql: { merchantId: { type: 'String', description: 'The id that was looked up.' } },
  text: () => ({ en: 'No merchant has this id.', fr: 'Aucun marchand ne porte cet identifiant.' }),
});

export const MerchantOffboardedError = typedError({
  name: 'MerchantOffboardedError',
  description: 'The merchant is offboarded: nothing of it changes any more, and its data is purged after the grace.',
  code: 'MERCHANT_OFFBOARDED',
  text: () => ({
    en: 'This merchant is offboarded: it can no longer be changed.',
    fr: 'Ce marchand a été retiré de la plateforme : il ne peut plus être modifié.',
  }),
});

export const MerchantSuspendedError = typedError({
  name: 'MerchantSuspendedError',
  description: 'The merchant is suspended by the platform: reads still answer, money moves are refused; nothing was sent.',
  code: 'MERCHANT_SUSPENDED',
  text: () => ({
    en: 'This merchant is suspended by the platform: no money can move until it is reinstated. Nothing was sent.',
    fr: 'Ce marchand est suspendu par la plateforme : aucun mouvement d’argent n’est possible avant sa réactivation. Rien n’a été envoyé.',
  }),
});

export type MerchantNotFoundError = InstanceType<typeof MerchantNotFoundError>;
export type MerchantOffboardedError = InstanceType<typeof MerchantOffboardedError>;
export type MerchantSuspendedError = InstanceType<typeof MerchantSuspendedError>;

/** Every typed error of platform mode, for src/schema/error-types.ts. */
export const MERCHANT_ERRORS = [MerchantNotFoundError, MerchantOffboardedError, MerchantSuspendedError] as const;
