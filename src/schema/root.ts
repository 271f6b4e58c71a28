// The three root types; each domain module adds its own fields to them.
import { builder } from './builder.js';

// Deny by default: this rule never passes, and only fields that declare their own (src/schema/access.ts) skip it.
const UNDECLARED = { authScopes: { undeclared: true } } as const;

builder.queryType({ ...UNDECLARED, description: 'Read the payment account: payments, payouts, balances and settlements.' });
builder.mutationType({
  ...UNDECLARED,
  description: 'Take and send money. Every mutation returns its result or a typed error (see PaymentError).',
});
builder.subscriptionType({ ...UNDECLARED, description: "Live payment events, from the payment service's webhooks." });
