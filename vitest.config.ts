import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships a CJS entry (`main`, what Node loads for us and for yoga)
    // and an ESM one (`module`, what Vite would pick for our sources). Two
    // copies break `instanceof GraphQLError`; make tests load the one Node loads.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // expect.hasAssertions() before every test: a test that asserts nothing fails.
    setupFiles: ['test/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Servers bind real ports; files run in parallel forks, each picking free ports.
    pool: 'forks',
  },
});
