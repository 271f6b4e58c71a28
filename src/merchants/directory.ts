// What each request of platform mode asks of the registry, kept cheap: a merchant's view (read from the store at
// most once a second per replica, one read at a time, and at once after a change made on this replica), and the client that calls
// the service with that merchant's own key, opened once per merchant and key (its secret is opened only then)
// and closed when it is evicted or the key changes. At most `maxClients` clients are open: an idle merchant
// costs nothing but its record.
import type { MerchantView } from './model.js';
import { MerchantRefusedError, type MerchantRegistry } from './registry.js';

/** A client of the service, as the directory needs it: something to close. */
interface Closable {
  close(): Promise<void>;
}

/** The merchants' views and clients for requests. */
export interface MerchantDirectory<C extends Closable> {
  merchant(id: string): Promise<MerchantView | null>;
  /** The client with the merchant's current API key (opened on first use). */
  upstreamFor(merchant: MerchantView): Promise<C>;
  /** Drops what is cached of a merchant (after a change on this replica). */
  forget(id: string): void;
  close(): Promise<void>;
}

/** How long a view is served from memory, how many clients stay open, and how long an evicted one may finish its calls. */
export interface DirectoryOptions {
  viewTtlMs?: number;
  maxClients?: number;
  closeGraceMs?: number;
  now?: () => number;
}

/** A directory over the registry; `open` makes a client for a merchant's API key. */
export function merchantDirectory<C extends Closable>(
  registry: MerchantRegistry,
  open: (apiKey: string, merchantId: string) => C,
  options: DirectoryOptions = {},
): MerchantDirectory<C> {
  const ttl = options.viewTtlMs ?? 1_000;
  const maxClients = options.maxClients ?? 500;
  const grace = options.closeGraceMs ?? 30_000;
  const now = options.now ?? Date.now;
  const views = new Map<string, { view: MerchantView | null; until: number }>();
  const reading = new Map<string, Promise<MerchantView | null>>();
  // Insertion order is recency (a hit moves to the end): the first entry is the least recently used.
  const clients = new Map<string, { version: string; client: Promise<C> }>();
  const timers = new Set<NodeJS.Timeout>();

  const retire = (client: Promise<C>) => {
    // Calls in flight on the old client finish within the grace (longer than a call's deadline).
    const timer = setTimeout(() => {
      timers.delete(timer);
      void client.then((c) => c.close()).catch(() => {});
    }, grace);
    timer.unref();
    timers.add(timer);
  };

  return {
    merchant(id) {
      const hit = views.get(id);
      if (hit && hit.until > now()) return Promise.resolve(hit.view);
      // One read per merchant at a time: every request that finds the view expired meanwhile waits for that read.
      // A read each would cost a merchant's flood (hundreds of requests queued) as many reads at every expiry.
      const pending = reading.get(id);
      if (pending) return pending;
      const read = registry.get(id).then((view) => {
        // A change made on this replica while it read (forget) wins: the view read before it is not kept.
        if (reading.get(id) !== read) return view;
        views.set(id, { view, until: now() + ttl });
        if (views.size > maxClients * 4) views.delete(views.keys().next().value!);
        return view;
      });
      const settled = () => reading.get(id) === read && reading.delete(id);
      read.then(settled, settled);
      reading.set(id, read);
      return read;
    },
    upstreamFor(merchant) {
      // A new key (or any change) gives a new version: the next call uses the new key.
      const version = merchant.updatedAt;
      const entry = clients.get(merchant.id);
      clients.delete(merchant.id);
      if (entry && entry.version === version) {
        clients.set(merchant.id, entry);
        return entry.client;
      }
      if (entry) retire(entry.client);
      const client = registry.secrets(merchant.id).then((secrets) => {
        if (!secrets) throw new MerchantRefusedError('not_found');
        return open(secrets.apiKey, merchant.id);
      });
      client.catch(() => clients.get(merchant.id)?.client === client && clients.delete(merchant.id));
      clients.set(merchant.id, { version, client });
      if (clients.size > maxClients) {
        const [oldest, evicted] = clients.entries().next().value!;
        clients.delete(oldest);
        retire(evicted.client);
      }
      return client;
    },
    forget(id) {
      views.delete(id);
      reading.delete(id);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      await Promise.all([...clients.values()].map((e) => e.client.then((c) => c.close()).catch(() => {})));
      clients.clear();
    },
  };
}
