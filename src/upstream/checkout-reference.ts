// The one rule about a checkout's two reference forms: `chk_<hex>`, returned when
// a checkout is initialized, and a UUID, what fetching it returns and what events
// and lists name it by. Both designate the same checkout; only a fetch maps the
// first to the second. Every layer above (schema, live updates, reconciliation)
// asks here instead of testing the prefix itself.
import type { ResourceKind } from './types.js';

const INITIALIZATION_PREFIX = 'chk_';

/** Whether `reference` is a checkout's initialization form (`chk_…`), which events and lists never carry. */
export function isInitializationReference(reference: string): boolean {
  return reference.startsWith(INITIALIZATION_PREFIX);
}

/**
 * The form events and lists use for a resource: a checkout's `chk_…` reference is resolved with one
 * `fetchCheckout`; any other reference (a UUID, or another kind's) is already that form and costs nothing.
 */
export async function canonicalReference(
  type: ResourceKind,
  reference: string,
  fetchCheckout: (reference: string) => Promise<{ reference: string }>,
): Promise<string> {
  return type === 'checkout' && isInitializationReference(reference) ? (await fetchCheckout(reference)).reference : reference;
}
