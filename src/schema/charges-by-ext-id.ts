// `charges(filter: { extId })`: the service's charge list has no ext_id filter,
// so the gateway answers from its own index of the charges it created or saw
// (src/ext-id-index/), then confirms each reference by fetching the charge with
// this API key: an entry the service contradicts (no such charge, or one that now
// carries another ext_id) is dropped from the answer and from the index, so a
// stale entry never answers wrong data. The other conditions of the filter are
// applied to the confirmed charges as the service applies them to its list.
//
// Bound on what the service is asked: at most MAX_REFERENCES_PER_EXT_ID fetches,
// within the operation's upstream budget like every other read.
import { MAX_REFERENCES_PER_EXT_ID } from '../ext-id-index/index.js';
import { topLevelError } from '../errors/top-level.js';
import type { Charge, ChargeListFilter, ChargeStatus } from '../upstream/types.js';
import type { GatewayContext } from './context.js';
import { withinBounds } from './list-filter.js';

/** The charge statuses each value of the list's `status` filter covers (as the service's list reads them). */
const STATUS_COVERS: Readonly<Record<NonNullable<ChargeListFilter['status']>, readonly ChargeStatus[]>> = {
  pending: ['pending', 'send_otp', 'pay_offline'],
  success: ['success'],
  failed: ['failed', 'canceled'],
};

function matchesCharge(filter: ChargeListFilter): (charge: Charge) => boolean {
  return (c) =>
    (!filter.reference || c.reference === filter.reference) &&
    (!filter.status || STATUS_COVERS[filter.status].includes(c.status)) &&
    (!filter.provider || c.provider === filter.provider) &&
    (!filter.phone || c.phone === filter.phone) &&
    withinBounds(filter, c);
}

/** What the index holds for `extId`; an index that cannot be read is SERVICE_UNAVAILABLE (a retry may succeed). */
async function indexedReferences(ctx: GatewayContext, extId: string): Promise<string[]> {
  if (!ctx.extIds) throw topLevelError('SERVICE_UNAVAILABLE', 'temporarily');
  try {
    return (await ctx.extIds.references(extId)).slice(0, MAX_REFERENCES_PER_EXT_ID);
  } catch (err) {
    ctx.log.warn('ext_id index not readable', { error: err });
    throw topLevelError('SERVICE_UNAVAILABLE', 'temporarily');
  }
}

/**
 * The charges with this ext_id that the gateway has created or seen, confirmed at the service and matching the rest
 * of `filter`, newest first. A fetch that fails (other than not found) fails the query, as any read does.
 */
export async function chargesByExtId(ctx: GatewayContext, extId: string, filter: ChargeListFilter): Promise<Charge[]> {
  const references = await indexedReferences(ctx, extId);
  const fetched = await ctx.loaders.charge.loadMany(references);
  const confirmed: Charge[] = [];
  for (const [i, charge] of fetched.entries()) {
    if (charge instanceof Error) throw charge;
    if (charge?.extId === extId) confirmed.push(charge);
    else await forgetQuietly(ctx, extId, references[i]!);
  }
  return confirmed.filter(matchesCharge(filter)).sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
}

async function forgetQuietly(ctx: GatewayContext, extId: string, reference: string): Promise<void> {
  try {
    await ctx.extIds?.forget(extId, reference);
  } catch (err) {
    // Still dropped from this answer; the next search confirms it again.
    ctx.log.warn('stale ext_id entry not removed', { error: err });
  }
}
