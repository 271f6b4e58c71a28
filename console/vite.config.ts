// The back office's build: `npm run build` and `npm start` run it through scripts/build-console.mjs into
// dist/console/, which the gateway serves at /console (src/console/serve.ts). Files are named by content hash
// (assets/<name>-<hash>.js), each page's code is a chunk of its own, and no inline script is emitted (the page's
// policy allows none), not even Vite's module-preload polyfill.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // The initial JavaScript's budget (250 KB gzipped) is checked by test/console/quality.test.ts, not by this warning.
    chunkSizeWarningLimit: 2_000,
    reportCompressedSize: false,
  },
});
