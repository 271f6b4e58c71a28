// The public face of limits/: what other folders import. The code lives in limit-plugins.ts.
export * from './limit-plugins.js';
