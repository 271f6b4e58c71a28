// Platform mode: an endpoint's signing secrets are sealed at rest with the merchant key ring (src/merchants/
// key-ring.ts: AES-256-GCM, the merchant's id as authenticated data), so a dump of Redis or of SANDBOX_DATA_DIR
// holds none in clear, and a secret copied into another merchant's endpoint does not open. A store wrapped here
// seals on every write and opens on every read; an endpoint whose secret does not open is as good as absent
// (nothing is signed with a secret that is not its merchant's). Single mode's endpoints (no merchant) pass as they are.
import { merchantOfEndpoint, type EndpointSecrets, type StoredEndpoint } from './model.js';
import type { OutboundStore } from './store.js';

/** What sealing needs of the merchant key ring (src/merchants/key-ring.ts, handed in by the gateway). */
export interface SecretSeal {
  /** The secret sealed for the merchant: an object that JSON keeps. */
  seal(merchantId: string, secret: string): object;
  /** The secret; throws when it was sealed for another merchant, altered, or under an unknown key. */
  open(merchantId: string, sealed: object): string;
  /** The version of the current key-encryption key (what `seal` and `rewrap` write). */
  readonly currentVersion: string;
  /** The same secret with its data key wrapped by the current key-encryption key. */
  rewrap(merchantId: string, sealed: object): object;
}

const PREFIX = 'sealed:';
/** Opened secrets kept in memory by their sealed text (every poll re-reads every endpoint). */
const OPENED_KEPT = 10_000;

/** A secret sealed for the merchant, as text (what the store and a kept answer hold). */
export function sealText(keys: SecretSeal, merchantId: string, secret: string): string {
  return PREFIX + Buffer.from(JSON.stringify(keys.seal(merchantId, secret)), 'utf8').toString('base64');
}

/** The secret sealed in `text`, or null when it does not open for this merchant (or was not sealed). */
export function openText(keys: SecretSeal, merchantId: string, text: string): string | null {
  if (!text.startsWith(PREFIX)) return null;
  try {
    return keys.open(merchantId, JSON.parse(Buffer.from(text.slice(PREFIX.length), 'base64').toString('utf8')) as object);
  } catch {
    return null;
  }
}

/** The sealed form of `text` re-wrapped under the current key, or null when it already is (or does not open). */
function rewrapText(keys: SecretSeal, merchantId: string, text: string): string | null {
  if (!text.startsWith(PREFIX)) return null;
  try {
    const sealed = JSON.parse(Buffer.from(text.slice(PREFIX.length), 'base64').toString('utf8')) as { kek?: string };
    if (sealed.kek === keys.currentVersion) return null;
    return PREFIX + Buffer.from(JSON.stringify(keys.rewrap(merchantId, sealed)), 'utf8').toString('base64');
  } catch {
    return null;
  }
}

/**
 * After a rotation of the key-encryption key: every endpoint secret still under a previous key re-wrapped under the
 * current one, each a compare-and-set (a rotation of the endpoint's secret meanwhile is never undone). `inner` is the
 * store below the sealing (its secrets as stored). Returns how many endpoints changed.
 */
export async function rewrapEndpointSecrets(inner: OutboundStore, keys: SecretSeal): Promise<number> {
  let changed = 0;
  for (const endpoint of await inner.listEndpoints()) {
    const merchant = merchantOfEndpoint(endpoint.id);
    if (!merchant) continue;
    const { current, previous } = endpoint.secrets;
    const current2 = rewrapText(keys, merchant, current);
    const previous2 = previous === null ? null : rewrapText(keys, merchant, previous);
    if (current2 === null && previous2 === null) continue;
    const next = { ...endpoint.secrets, current: current2 ?? current, previous: previous2 ?? previous };
    if (await inner.replaceSecrets(endpoint.id, endpoint.secrets, next)) changed += 1;
  }
  return changed;
}

/** The store, with the secrets of merchants' endpoints sealed in it. */
export function sealedSecretsStore(inner: OutboundStore, keys: SecretSeal): OutboundStore {
  const opened = new Map<string, string>();
  const sealOne = (merchantId: string, secret: string) => sealText(keys, merchantId, secret);
  /** The secret, or null when it does not open (another merchant's, altered, written in clear, an unknown key). */
  const openOne = (merchantId: string, stored: string): string | null => {
    const cacheKey = `${merchantId} ${stored}`;
    const hit = opened.get(cacheKey);
    if (hit !== undefined) return hit;
    const secret = openText(keys, merchantId, stored);
    if (secret === null) return null;
    opened.set(cacheKey, secret);
    if (opened.size > OPENED_KEPT) opened.delete(opened.keys().next().value!);
    return secret;
  };
  const seal = (endpointId: string, secrets: EndpointSecrets): EndpointSecrets => {
    const merchant = merchantOfEndpoint(endpointId);
    if (!merchant) return secrets;
    return { ...secrets, current: sealOne(merchant, secrets.current), previous: secrets.previous && sealOne(merchant, secrets.previous) };
  };
  const open = (endpoint: StoredEndpoint | null): StoredEndpoint | null => {
    const merchant = endpoint && merchantOfEndpoint(endpoint.id);
    if (!endpoint || !merchant) return endpoint;
    const current = openOne(merchant, endpoint.secrets.current);
    const previous = endpoint.secrets.previous === null ? null : openOne(merchant, endpoint.secrets.previous);
    if (current === null || (endpoint.secrets.previous !== null && previous === null)) return null;
    return { ...endpoint, secrets: { ...endpoint.secrets, current, previous } };
  };
  return {
    ...inner,
    createEndpoint: (endpoint, max) => inner.createEndpoint({ ...endpoint, secrets: seal(endpoint.id, endpoint.secrets) }, max),
    listEndpoints: async (merchantId) => (await inner.listEndpoints(merchantId)).map(open).filter((e): e is StoredEndpoint => e !== null),
    getEndpoint: async (id) => open(await inner.getEndpoint(id)),
    updateEndpoint: async (id, patch) =>
      open(await inner.updateEndpoint(id, patch.secrets ? { ...patch, secrets: seal(id, patch.secrets) } : patch)),
  };
}
