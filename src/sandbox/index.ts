// The public face of sandbox/: what other folders import. The code lives in sandbox.ts.
export * from './sandbox.js';
export { connectMerchantWebhooks, type MerchantsForSandbox } from './merchant-webhooks.js';
