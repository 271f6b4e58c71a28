// The public face of observability/: what other folders import. The code lives in observability.ts.
export * from './observability.js';
