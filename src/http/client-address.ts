// Who the client is behind a load balancer (TRUST_PROXY). The peer of the socket is the
// balancer; the client's address and scheme travel in X-Forwarded-For / X-Forwarded-Proto,
// or in Forwarded (RFC 7239). Anyone can send those headers, so they are read only through
// the hops the operator trusts (a hop count, or the proxies' addresses and CIDRs, as
// Express and Fastify do, with Express's own `proxy-addr`): an entry written by an
// untrusted peer never becomes the client address. Default: trust none, the socket's peer is the client.
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import parseForwarded from 'forwarded-parse';
import { compileTrust, type TrustProxySetting } from '../config-values/proxy-trust.js';

export type { ForwardedHeader, TrustProxySetting } from '../config-values/proxy-trust.js';

/** Reads a request's client address and scheme, believing forwarded headers only from trusted proxies. */
export interface ClientAddressing {
  /** The client's address: the socket's peer, or the left-most address reached through trusted hops. */
  ipOf(req: IncomingMessage | undefined): string | null;
  /** The scheme the client used: https when a trusted proxy says so, else that of the connection (http). */
  protoOf(req: IncomingMessage): 'http' | 'https';
}

/**
 * How the client's address and scheme are read through the proxies TRUST_PROXY trusts (Express's proxy-addr
 * rules); untrusted forwarding headers are ignored.
 */
export function clientAddressing(setting: TrustProxySetting): ClientAddressing {
  const trust = compileTrust(setting);
  const peer = (req: IncomingMessage | undefined) => req?.socket.remoteAddress ?? null;
  const connectionProto = (req: IncomingMessage): 'http' | 'https' =>
    'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
  if (!trust || !setting) return { ipOf: peer, protoOf: connectionProto };

  if (setting.header === 'x-forwarded-for') {
    return {
      ipOf: (req) => (req?.socket.remoteAddress ? proxyaddr(req, trust) : null),
      // Express's rule: the first X-Forwarded-Proto value, when the peer is a trusted proxy.
      protoOf: (req) => {
        const peerAddress = req.socket.remoteAddress;
        if (!peerAddress || !trust(peerAddress, 0)) return connectionProto(req);
        const first = headerValue(req, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
        return first === 'https' ? 'https' : first === 'http' ? 'http' : connectionProto(req);
      },
    };
  }

  // Forwarded: the same walk over its `for=` values; the scheme is the `proto=` of the element that named the client.
  const walk = (req: IncomingMessage) => {
    const peerAddress = req.socket.remoteAddress;
    if (!peerAddress) return null;
    const elements = forwardedElements(headerValue(req, 'forwarded'));
    const chain = elements.map((element) => bareAddress(element.for ?? ''));
    // proxy-addr reads X-Forwarded-For; the `for=` values of Forwarded are handed to it in that form.
    const view = { socket: { remoteAddress: peerAddress }, headers: { 'x-forwarded-for': chain.join(', ') } };
    const reached = proxyaddr.all(view as unknown as IncomingMessage, trust);
    const client = reached.at(-1) ?? peerAddress;
    // reached = [peer, ...trusted hops, client]: the client came from element (length - 1) - (reached.length - 2).
    const element = reached.length >= 2 ? elements[elements.length + 1 - reached.length] : undefined;
    return { client, element };
  };
  return {
    ipOf: (req) => (req ? (walk(req)?.client ?? null) : null),
    protoOf: (req) => {
      const proto = walk(req)?.element?.proto?.toLowerCase();
      return proto === 'https' ? 'https' : proto === 'http' ? 'http' : connectionProto(req);
    },
  };
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A header that does not parse names nobody: the request counts as coming from the peer. */
function forwardedElements(header: string | undefined): Array<Record<string, string>> {
  if (!header) return [];
  try {
    return parseForwarded(header);
  } catch {
    return [];
  }
}

/** `for=` values may be `"[2001:db8::1]:4711"`, `192.0.2.1:80`, or `unknown`/obfuscated names (kept as they are). */
function bareAddress(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(value);
  return v4WithPort ? v4WithPort[1]! : value;
}
