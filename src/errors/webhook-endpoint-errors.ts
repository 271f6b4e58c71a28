// The typed errors of webhook endpoints (English and French), beside the other
// PaymentErrors. Plain data, like them.
import { PaymentError } from './payment-errors.js';

export class WebhookEndpointNotFoundError extends PaymentError {
  override readonly name = 'WebhookEndpointNotFoundError';
  readonly code = 'NOT_FOUND' as const;
  readonly messageFr = 'Aucun point de réception de webhooks ne porte cet identifiant.';
  constructor(readonly endpointId: string) {
    super('No webhook endpoint has this id.');
  }
}

export class WebhookDeliveryNotFoundError extends PaymentError {
  override readonly name = 'WebhookDeliveryNotFoundError';
  readonly code = 'NOT_FOUND' as const;
  readonly messageFr = 'Aucun envoi de webhook ne porte cet identifiant (ou il n’est plus conservé).';
  constructor(readonly deliveryId: string) {
    super('No webhook delivery has this id (or it is no longer kept).');
  }
}

export class WebhookEndpointLimitError extends PaymentError {
  override readonly name = 'WebhookEndpointLimitError';
  readonly code = 'WEBHOOK_ENDPOINT_LIMIT' as const;
  readonly messageFr: string;
  constructor(readonly max: number) {
    super(`At most ${max} webhook endpoints may exist (WEBHOOK_ENDPOINTS_MAX): delete one first.`);
    this.messageFr = `Au plus ${max} points de réception de webhooks peuvent exister (WEBHOOK_ENDPOINTS_MAX) : supprimez-en un d’abord.`;
  }
}

export class InvalidWebhookUrlError extends PaymentError {
  override readonly name = 'InvalidWebhookUrlError';
  readonly code = 'INVALID_WEBHOOK_URL' as const;
  readonly messageFr: string;
  constructor(readonly reason: string) {
    super(`This webhook URL cannot be used: ${reason}.`);
    this.messageFr = `Cette adresse de webhook ne peut pas être utilisée : ${reason}.`;
  }
}

/** Live mode without Redis: endpoints and their deliveries would not survive a restart nor be shared. */
export class WebhooksUnavailableError extends PaymentError {
  override readonly name = 'WebhooksUnavailableError';
  readonly code = 'WEBHOOKS_UNAVAILABLE' as const;
  readonly messageFr =
    'Les webhooks vers votre serveur demandent Redis en mode réel (REDIS_URL) : sans lui, les envois ne survivraient pas à un redémarrage.';
  constructor() {
    super('Webhooks to your server need Redis in live mode (set REDIS_URL): without it deliveries would not survive a restart.');
  }
}
