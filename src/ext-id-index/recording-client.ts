// Feeds the ext_id index (store.ts) from what passes through the gateway: the
// client of the payment service, wrapped, records every charge it creates with an
// ext_id and every charge carrying one that it reads (fetch, list page, OTP
// submission), so charges made by other paths are found once seen; and the
// webhook receiver hands it each event it accepted. Recording never changes an
// answer: a failed write is logged and the call's result returned as it was.
//
// Only charges are indexed: checkouts carry no ext_id, and transfers are found by
// ext_id from their whole list (the service answers it in one response, and the
// `transfers` query filters it), which no index could improve on.
import type { Logger } from '../logger.js';
import type { Charge, UpstreamClient } from '../upstream/types.js';
import { indexable, type ExtIdEntry, type ExtIdIndex } from './store.js';

function entriesOf(charges: readonly Pick<Charge, 'extId' | 'reference'>[]): ExtIdEntry[] {
  return charges.flatMap((c) => (indexable(c.extId) ? [{ extId: c.extId, reference: c.reference }] : []));
}

/** Records `entries`; a failure is logged, never thrown (the payment call it follows has its own outcome). */
async function quietly(index: ExtIdIndex, entries: ExtIdEntry[], log: Logger): Promise<void> {
  if (entries.length === 0) return;
  try {
    await index.record(entries);
  } catch (error) {
    log.warn('ext_id index not written', { error, entries: entries.length });
  }
}

/**
 * The same client, recording in `index` the ext_id of every charge it creates or reads. A creation waits for its
 * entry (a search right after it finds the charge); a read does not wait (its answer is never slowed by the index):
 * its write is sent at once, ahead of any later search on the same connection.
 */
export function recordingExtIds(upstream: UpstreamClient, index: ExtIdIndex, log: Logger): UpstreamClient {
  return {
    ...upstream,
    async createCharge(input) {
      const created = await upstream.createCharge(input);
      await quietly(index, entriesOf([{ extId: input.extId ?? null, reference: created.reference }]), log);
      return created;
    },
    async submitChargeOtp(input) {
      const charge = await upstream.submitChargeOtp(input);
      void quietly(index, entriesOf([charge]), log);
      return charge;
    },
    async fetchCharge(reference) {
      const charge = await upstream.fetchCharge(reference);
      void quietly(index, entriesOf([charge]), log);
      return charge;
    },
    async listCharges(filter, page) {
      const answer = await upstream.listCharges(filter, page);
      void quietly(index, entriesOf(answer.items), log);
      return answer;
    },
  };
}

/**
 * Records the charge a webhook event carries (`data.reference` and `data.ext_id` of a `charge.*` event), so a charge
 * made without the gateway is found once the service announced it.
 */
export async function recordEventExtId(
  index: ExtIdIndex,
  event: { resourceType: string | null; reference: string | null; payload: unknown },
  log: Logger,
): Promise<void> {
  if (event.resourceType !== 'charge' || !event.reference) return;
  const data = (event.payload as { data?: { ext_id?: unknown } } | null)?.data;
  const extId = data && typeof data === 'object' ? data.ext_id : undefined;
  if (indexable(extId)) await quietly(index, [{ extId, reference: event.reference }], log);
}
