// Which proxies the gateway trusts (TRUST_PROXY), as config.ts reads it and http/client-address.ts
// uses it. A leaf at the floor of config.ts: it imports nothing of src/, so config.ts imports nothing
// above it (test/import-graph.test.ts).
import proxyaddr from 'proxy-addr';

/** Null: trust no proxy. */
export type TrustProxySetting = { hops: number; header: ForwardedHeader } | { addresses: string[]; header: ForwardedHeader } | null;
/** One header is read, the one the operator's proxy writes: reading both would let a client fill the other. */
export type ForwardedHeader = 'x-forwarded-for' | 'forwarded';

type Trust = (addr: string, hop: number) => boolean;

/** Throws on an address or CIDR proxy-addr cannot read (config.ts turns that into a ConfigError). */
export function compileTrust(setting: TrustProxySetting): Trust | null {
  if (!setting) return null;
  if ('hops' in setting) return (_addr, hop) => hop < setting.hops;
  return proxyaddr.compile(setting.addresses);
}
