// What a merchant gets without setting anything (the suites shorten the delivery
// timeout and the pass interval; these are the defaults), and how the retry
// schedule spreads its waits.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { JITTER, nextRetryDelayMs } from '../../src/outbound-webhooks/retry-schedule.js';

describe('outbound webhook settings', () => {
  it('defaults: 20 endpoints, 15 s per attempt, Svix’s schedule (about 28 hours), disabled after 120 hours, private targets in sandbox mode only', () => {
    const sandbox = loadConfig({}).outboundWebhooks;
    expect(sandbox).toEqual({
      maxEndpoints: 20,
      timeoutMs: 15_000,
      retryScheduleMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      disableAfterMs: 120 * 3_600_000,
      allowPrivateTargets: true,
      maxInFlightPerEndpoint: 10,
      retrySetMax: 1_000,
      // Platform mode only: attempts at once per replica, per merchant and in all.
      fairness: { maxInFlightPerMerchant: 20, maxInFlight: 200 },
    });
    expect(sandbox.retryScheduleMs.reduce((a, b) => a + b, 0) / 3_600_000).toBeCloseTo(27.6, 1);
    const live = loadConfig({ PAYMENT_BASE_URL: 'https://pay.example', PAYMENT_API_KEY: 'sk_live_x', AUTH_JWT_SECRET: 'x'.repeat(32) });
    expect(live.outboundWebhooks.allowPrivateTargets).toBe(false);
  });

  it('reads a schedule of durations, and names the variable when one is not', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1s, 2m,3h' }).outboundWebhooks.retryScheduleMs).toEqual([1_000, 120_000, 10_800_000]);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5s,soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5s,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it('reads the fair share of platform mode’s delivery worker', () => {
    const { fairness } = loadConfig({ WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT: '3', WEBHOOK_MAX_IN_FLIGHT: '7' }).outboundWebhooks;
    expect(fairness).toEqual({ maxInFlightPerMerchant: 3, maxInFlight: 7 });
    expect(() => loadConfig({ WEBHOOK_MAX_IN_FLIGHT: '0' })).toThrow(/WEBHOOK_MAX_IN_FLIGHT/);
  });

  it('each wait is the scheduled one within ±20%, and the schedule ends', () => {
    const schedule = [5_000, 300_000];
    expect(nextRetryDelayMs(schedule, 1, () => 0)).toBe(5_000 * (1 - JITTER));
    expect(nextRetryDelayMs(schedule, 1, () => 0.999_999)).toBe(Math.round(5_000 * (1 + JITTER * 0.999_999 * 2 - JITTER)));
    expect(nextRetryDelayMs(schedule, 2, () => 0.5)).toBe(300_000);
    expect(nextRetryDelayMs(schedule, 3, () => 0.5)).toBeNull();
    const spread = new Set(Array.from({ length: 50 }, () => nextRetryDelayMs(schedule, 2)));
    expect(spread.size).toBeGreaterThan(10);
  });
});
