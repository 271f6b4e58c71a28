// The public face of live/: what other folders import. The code lives in live-updates.ts.
export * from './live-updates.js';
