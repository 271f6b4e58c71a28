// The public face of schema/: what other folders import. The code lives in schema.ts.
export * from './schema.js';
