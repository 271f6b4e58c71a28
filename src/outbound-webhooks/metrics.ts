// Metrics of outbound webhooks, on the gateway's registry (src/observability/metrics.ts):
// attempts by outcome and their latency, deliveries settled by outcome, and per
// endpoint the age of its oldest waiting delivery. Labels are bounded: fixed
// outcome names, and endpoint ids (at most WEBHOOK_ENDPOINTS_MAX).
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30];

type AttemptOutcomeLabel = 'success' | 'http_error' | 'timeout' | 'refused' | 'redirect' | 'address_not_allowed' | 'other';

/** Counts outgoing-webhook attempts by outcome, with their duration, and deliveries settled. */
export interface WebhookMetrics {
  attempt(outcome: AttemptOutcomeLabel, seconds: number): void;
  settled(outcome: 'succeeded' | 'failed'): void;
}

/** The label of an attempt from its error text (dispatcher.ts's fixed descriptions). */
export function outcomeLabel(error: string | null): AttemptOutcomeLabel {
  if (error === null) return 'success';
  if (error.startsWith('HTTP ')) return 'http_error';
  if (error.startsWith('timeout')) return 'timeout';
  if (error === 'connection refused') return 'refused';
  if (error === 'redirect not followed') return 'redirect';
  if (error === 'address not allowed') return 'address_not_allowed';
  return 'other';
}

/** Registers the outgoing-webhook metrics, with a gauge of each endpoint's oldest waiting event; with no registry, metrics are not kept. */
export function createWebhookMetrics(registry: Registry | null, oldestWaiting: () => Promise<Map<string, number | null>>): WebhookMetrics {
  if (!registry) return { attempt() {}, settled() {} };
  const registers = [registry];
  const attempts = new Counter({
    name: 'gateway_webhook_attempts_total',
    help: 'Attempts to deliver a webhook to a merchant endpoint, by outcome (success, http_error, timeout, refused, redirect, address_not_allowed, other).',
    labelNames: ['outcome'],
    registers,
  });
  const seconds = new Histogram({
    name: 'gateway_webhook_attempt_duration_seconds',
    help: 'Duration of webhook delivery attempts, by outcome.',
    labelNames: ['outcome'],
    buckets: BUCKETS,
    registers,
  });
  const deliveries = new Counter({
    name: 'gateway_webhook_deliveries_total',
    help: 'Webhook deliveries settled: succeeded, or failed (the retry schedule spent).',
    labelNames: ['outcome'],
    registers,
  });
  new Gauge({
    name: 'gateway_webhook_oldest_waiting_seconds',
    help: 'Per endpoint, the age of the oldest event waiting to be delivered (in flight or waiting for a retry); 0 when none waits.',
    labelNames: ['endpoint'],
    registers,
    async collect() {
      this.reset();
      const now = Date.now();
      for (const [endpoint, oldest] of await oldestWaiting().catch(() => new Map<string, number | null>())) {
        this.set({ endpoint }, oldest === null ? 0 : Math.max(0, (now - oldest) / 1000));
      }
    },
  });
  return {
    attempt(outcome, s) {
      attempts.inc({ outcome });
      seconds.observe({ outcome }, s);
    },
    settled: (outcome) => deliveries.inc({ outcome }),
  };
}
