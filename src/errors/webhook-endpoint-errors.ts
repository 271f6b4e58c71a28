// The typed errors of webhook endpoints, declared like every other PaymentError (src/errors/typed-errors.ts).
import { typedError } from './typed-errors.js';

export const WebhookEndpointNotFoundError = typedError({
  name: 'WebhookEndpointNotFoundError',
  description: 'No webhook endpoint has this id.',
  code: 'NOT_FOUND',
  fields: (endpointId: string) => ({ endpointId }),
  graphql: { endpointId: { type: 'String', description: 'The id that was looked up.' } },
  text: () => ({
    en: 'No webhook endpoint has this id.',
    fr: 'Aucun point de réception de webhooks ne porte cet identifiant.',
  }),
});

export const WebhookDeliveryNotFoundError = typedError({
  name: 'WebhookDeliveryNotFoundError',
  description: 'No webhook delivery has this id, or it is no longer kept.',
  code: 'NOT_FOUND',
  fields: (deliveryId: string) => ({ deliveryId }),
  graphql: { deliveryId: { type: 'String', description: 'The id that was looked up.' } },
  text: () => ({
    en: 'No webhook delivery has this id (or it is no longer kept).',
    fr: 'Aucun envoi de webhook ne porte cet identifiant (ou il n’est plus conservé).',
  }),
});

export const WebhookEndpointLimitError = typedError({
  name: 'WebhookEndpointLimitError',
  description: 'WEBHOOK_ENDPOINTS_MAX endpoints exist already.',
  code: 'WEBHOOK_ENDPOINT_LIMIT',
  fields: (max: number) => ({ max }),
  graphql: { max: { type: 'Int', description: 'The most endpoints that may exist.' } },
  text: ({ max }) => ({
    en: `At most ${max} webhook endpoints may exist (WEBHOOK_ENDPOINTS_MAX): delete one first.`,
    fr: `Au plus ${max} points de réception de webhooks peuvent exister (WEBHOOK_ENDPOINTS_MAX) : supprimez-en un d’abord.`,
  }),
});

/** Why a webhook URL cannot be used, in both languages (src/outbound-webhooks/target-policy.ts decides which). */
export const URL_PROBLEM_TEXTS = {
  not_a_url: { en: 'not a URL', fr: 'ce n’est pas une URL' },
  scheme: { en: 'the URL must start with https:// or http://', fr: 'l’URL doit commencer par https:// ou http://' },
  scheme_https: { en: 'the URL must start with https://', fr: 'l’URL doit commencer par https://' },
  credentials: { en: 'the URL must not hold credentials', fr: 'l’URL ne doit pas contenir d’identifiants' },
  too_long: { en: 'the URL is longer than 2048 characters', fr: 'l’URL dépasse 2048 caractères' },
  not_public: { en: 'address not allowed: not a public address', fr: 'adresse refusée : ce n’est pas une adresse publique' },
  http_in_live: { en: 'the URL must start with https:// in live mode', fr: 'l’URL doit commencer par https:// en mode réel' },
} as const;
/** Why an endpoint URL was refused, one of URL_PROBLEM_TEXTS. */
export type UrlProblemCode = keyof typeof URL_PROBLEM_TEXTS;

export const InvalidWebhookUrlError = typedError({
  name: 'InvalidWebhookUrlError',
  description: 'The URL cannot be used (not https:// in live mode, or an address inside the network).',
  code: 'INVALID_WEBHOOK_URL',
  fields: (problem: UrlProblemCode) => ({ urlProblem: URL_PROBLEM_TEXTS[problem].en, urlProblemFr: URL_PROBLEM_TEXTS[problem].fr }),
  graphql: {
    urlProblem: { type: 'String', description: 'Why, in English, e.g. "address not allowed: not a public address".' },
    urlProblemFr: { type: 'String', description: 'Why, in French, e.g. "adresse refusée : ce n’est pas une adresse publique".' },
  },
  text: ({ urlProblem, urlProblemFr }) => ({
    en: `This webhook URL cannot be used: ${urlProblem}.`,
    fr: `Cette adresse de webhook ne peut pas être utilisée : ${urlProblemFr}.`,
  }),
});

/** Live mode without Redis: endpoints and their deliveries would not survive a restart nor be shared. */
export const WebhooksUnavailableError = typedError({
  name: 'WebhooksUnavailableError',
  description: 'Live mode without Redis: webhook endpoints cannot be kept durably, so none can be made.',
  code: 'WEBHOOKS_UNAVAILABLE',
  text: () => ({
    en: 'Webhooks to your server need Redis in live mode (set REDIS_URL): without it deliveries would not survive a restart.',
    fr: 'Les webhooks vers votre serveur demandent Redis en mode réel (REDIS_URL) : sans lui, les envois ne survivraient pas à un redémarrage.',
  }),
});

export type WebhookEndpointNotFoundError = InstanceType<typeof WebhookEndpointNotFoundError>;
export type WebhookDeliveryNotFoundError = InstanceType<typeof WebhookDeliveryNotFoundError>;
export type WebhookEndpointLimitError = InstanceType<typeof WebhookEndpointLimitError>;
export type InvalidWebhookUrlError = InstanceType<typeof InvalidWebhookUrlError>;
export type WebhooksUnavailableError = InstanceType<typeof WebhooksUnavailableError>;

/** Every typed error of webhook endpoints, for src/schema/webhook-endpoints.ts. */
export const WEBHOOK_ENDPOINT_ERRORS = [
  WebhookEndpointNotFoundError,
  WebhookDeliveryNotFoundError,
  WebhookEndpointLimitError,
  InvalidWebhookUrlError,
  WebhooksUnavailableError,
] as const;
