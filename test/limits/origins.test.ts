import { describe, expect, it } from 'vitest';
import { corsOptions, originPolicy } from '../../src/limits/origins.js';
import { loadConfig } from '../../src/config.js';

describe('originPolicy', () => {
  const policy = originPolicy(['https://shop.example', 'http://localhost:*']);

  it('lists exact origins and any port of a `:*` pattern, nothing else', () => {
    expect(policy.listed('https://shop.example')).toBe(true);
    expect(policy.listed('https://shop.example:8443')).toBe(false);
    expect(policy.listed('http://shop.example')).toBe(false);
    expect(policy.listed('http://localhost:5173')).toBe(true);
    expect(policy.listed('http://localhost')).toBe(true);
    expect(policy.listed('https://localhost:5173')).toBe(false);
    expect(policy.listed('http://localhost.evil.example:5173')).toBe(false);
    expect(policy.listed('null')).toBe(false);
  });

  it('allows requests without Origin and pages of the gateway itself', () => {
    expect(policy.allows(undefined, 'gw.example:4000')).toBe(true);
    expect(policy.allows('http://gw.example:4000', 'gw.example:4000')).toBe(true);
    expect(policy.allows('http://gw.example:4001', 'gw.example:4000')).toBe(false);
    expect(policy.allows('https://evil.example', 'gw.example:4000')).toBe(false);
    expect(policy.allows('https://evil.example', undefined)).toBe(false);
  });

  it('answers CORS for listed origins only, never with credentials', () => {
    const cors = corsOptions(policy);
    const listed = cors(new Request('http://gw/graphql', { headers: { origin: 'https://shop.example' } }));
    expect(listed).toMatchObject({ origin: 'https://shop.example', credentials: false });
    expect(cors(new Request('http://gw/graphql', { headers: { origin: 'https://evil.example' } }))).toBe(false);
    expect(cors(new Request('http://gw/graphql'))).toBe(false);
  });
});

describe('CORS_ORIGINS', () => {
  const live = { PAYMENT_BASE_URL: 'https://pay.example/', PAYMENT_API_KEY: 'sk_live_x', AUTH_JWT_SECRET: 'k'.repeat(32) };

  it('defaults to localhost on any port in sandbox mode, to nothing in live mode', () => {
    expect(loadConfig({}).limits.corsOrigins).toEqual(['http://localhost:*', 'http://127.0.0.1:*']);
    expect(loadConfig(live).limits.corsOrigins).toEqual([]);
    expect(loadConfig({ ...live, CORS_ORIGINS: 'https://a.example, https://b.example/' }).limits.corsOrigins).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });

  it('refuses what is not an origin, naming the variable', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/path' })).toThrow(/^CORS_ORIGINS is invalid/);
    expect(() => loadConfig({ CORS_ORIGINS: '*' })).toThrow(/^CORS_ORIGINS is invalid/);
  });

  it('turns GraphiQL, introspection and field suggestions off in live mode unless asked', () => {
    expect(loadConfig({}).limits).toMatchObject({ graphiql: true, introspection: true, armor: { fieldSuggestions: true } });
    expect(loadConfig(live).limits).toMatchObject({ graphiql: false, introspection: false, armor: { fieldSuggestions: false } });
    expect(loadConfig({ ...live, GRAPHIQL: 'true', INTROSPECTION: 'true' }).limits).toMatchObject({ graphiql: true, introspection: true });
    expect(() => loadConfig({ GRAPHIQL: 'yes' })).toThrow(/^GRAPHIQL is invalid/);
  });
});
