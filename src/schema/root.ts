// The three root types; each domain module adds its own fields to them.
import { builder } from './builder.js';

builder.queryType({ description: 'Read the payment account: payments, payouts, balances and settlements.' });
builder.mutationType({ description: 'Take and send money. Every mutation returns its result or a typed error (see PaymentError).' });
builder.subscriptionType({ description: 'Live payment events, from the payment service\'s webhooks.' });
