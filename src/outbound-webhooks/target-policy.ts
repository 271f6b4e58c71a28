// Where an endpoint may point. The gateway runs inside the merchant's network,
// so in live mode a webhook must not reach it (server-side request forgery):
// only public unicast addresses are allowed, judged by ipaddr.js's ranges
// (loopback, RFC 1918, fc00::/7, link-local with 169.254.169.254, unspecified,
// multicast, the IPv4-mapped forms of those... everything but `unicast`). The
// URL is checked when it is saved (where it shows an address) and every
// connection is checked again on the address it resolved to (dispatcher.ts),
// so a name that later resolves elsewhere (DNS rebinding) is refused too.
import ipaddr from 'ipaddr.js';

/** Which endpoint URLs may be registered and posted to. */
export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS (default on in sandbox mode). */
  allowPrivateTargets: boolean;
  /** Plain http:// endpoints: sandbox mode, or a receiver on the merchant's own network (private targets allowed). */
  allowHttp: boolean;
}

/** Whether a literal address (IPv4, IPv6, IPv4-mapped IPv6) is public unicast. False for anything that is not an address. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns ::ffff:127.0.0.1 into 127.0.0.1, so a mapped address is judged as the IPv4 it is.
  return ipaddr.process(address).range() === 'unicast';
}

/**
 * Why an endpoint URL cannot be saved (its sentences, in English and French, are in
 * src/errors/webhook-endpoint-errors.ts): `scheme` when http:// would do too (sandbox mode, private targets
 * allowed), `scheme_https` when only https:// would.
 */
export type UrlProblem = 'not_a_url' | 'scheme' | 'scheme_https' | 'credentials' | 'too_long' | 'not_public' | 'http_in_live';

/** The problem with an endpoint URL, or null when it may be saved. */
export function urlProblem(text: string, policy: TargetPolicy): UrlProblem | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not_a_url';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return policy.allowHttp ? 'scheme' : 'scheme_https';
  if (url.username || url.password) return 'credentials';
  if (text.length > 2048) return 'too_long';
  if (!policy.allowPrivateTargets) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host) && !isPublicAddress(host)) return 'not_public';
    if (host === 'localhost' || host.endsWith('.localhost')) return 'not_public';
  }
  if (url.protocol === 'http:' && !policy.allowHttp) return 'http_in_live';
  return null;
}
