// How far along its life a resource is. Live updates never move a resource
// backwards: a late "pending" arriving after "success" is dropped.
import type { ResourceKind } from '../upstream/types.js';

const RANKS: Record<ResourceKind, Record<string, number>> = {
  checkout: { pending: 1, success: 9, failed: 9 },
  charge: { send_otp: 1, pay_offline: 1, pending: 2, success: 9, failed: 9, canceled: 9 },
  transfer: { pending: 1, success: 9, failed: 9 },
  settlement: { processing: 1, in_transit: 2, success: 9, cancelled: 9 },
};

const TERMINAL_RANK = 9;

/** A status's place in its resource's life: updates only move forward by it. */
export function statusRank(type: ResourceKind, status: string): number {
  return RANKS[type][status] ?? 0;
}

/** Whether a status is final (the stream completes after it). */
export function isTerminal(type: ResourceKind, status: string): boolean {
  return statusRank(type, status) === TERMINAL_RANK;
}

/** Whether moving from `previous` to `next` is news: a different status that is not a step back. */
export function isForwardChange(type: ResourceKind, previous: string | null, next: string): boolean {
  if (previous === null) return true;
  if (previous === next) return false;
  return statusRank(type, next) >= statusRank(type, previous) && !isTerminal(type, previous);
}
