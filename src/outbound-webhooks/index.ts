// The public face of outbound-webhooks/: what other folders import. The code lives in outbound-webhooks.ts.
export * from './outbound-webhooks.js';
