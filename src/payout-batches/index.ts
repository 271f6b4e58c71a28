// The public face of payout-batches/: what other folders import. The code lives in payout-batches.ts.
export * from './payout-batches.js';
