// The observability variables are validated with the rest of the environment:
// a bad value stops the start with one line naming the variable, and the
// metrics token, a secret, is never shown in it.
import { expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

it('reads METRICS_TOKEN and the OTLP endpoint, both off by default', () => {
  expect(loadConfig({}).observability).toEqual({ metricsToken: null, otlpEndpoint: null, serviceName: 'momo-gateway' });
  expect(
    loadConfig({ METRICS_TOKEN: 'm'.repeat(32), OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SERVICE_NAME: 'gw-eu' })
      .observability,
  ).toEqual({ metricsToken: 'm'.repeat(32), otlpEndpoint: 'http://collector:4318', serviceName: 'gw-eu' });
});

it('refuses a short METRICS_TOKEN without printing it', () => {
  const attempt = () => loadConfig({ METRICS_TOKEN: 'tiny-secret' });
  expect(attempt).toThrow(ConfigError);
  expect(attempt).toThrow(/^METRICS_TOKEN is invalid/);
  expect(attempt).not.toThrow(/tiny-secret/);
});

it('refuses an OTLP endpoint that is not an http(s) URL', () => {
  expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' })).toThrow(/^OTEL_EXPORTER_OTLP_ENDPOINT is invalid/);
});
