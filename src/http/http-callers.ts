// An HTTP or SSE request's caller and (platform mode) merchant, established once per request: the early refusal
// before yoga (src/http/early-refusal.ts), yoga's own early refusal and the operation's context all ask, and only
// the first asking verifies the token and looks the merchant up.
import type { IncomingMessage } from 'node:http';
import { MERCHANT_HEADER, merchantOfRequest, namedMerchant } from '../schema/platform.js';
import type { Caller, RequestMerchant } from '../schema/context.js';
import { callerFromHttp } from './caller.js';
import type { ClientAddressing } from './client-address.js';
import type { GatewayServerOptions } from './options.js';

/** A request's caller with its merchant (null in single mode, or for an operator naming none). */
export type HttpCaller = Caller & { merchant: RequestMerchant | null };

/** A request's header, by its lower-case name; null when absent. */
export type HeaderOf = (name: string) => string | null;

/**
 * The caller of a request, established at its first asking and remembered for the request: by the Node request
 * when there is one (the request before yoga, and yoga's Fetch request made from it, are one request), else by
 * the Fetch request (yoga.fetch, in process). Rejects, as the first asking did, with a 401 for a token that is
 * present but not valid.
 */
export type HttpCallerOf = (headerOf: HeaderOf, req: IncomingMessage | undefined, request?: Request) => Promise<HttpCaller>;

/** Header reading of a Node request (a repeated header: its first value, as yoga's Fetch request would not merge it). */
export const nodeHeaders =
  (req: IncomingMessage): HeaderOf =>
  (name) => {
    const value = req.headers[name];
    return (Array.isArray(value) ? value[0] : value) ?? null;
  };

/** Header reading of a Fetch request. */
export const fetchHeaders =
  (request: Request): HeaderOf =>
  (name) =>
    request.headers.get(name);

/** The gateway's callerOf: the token's principal, the client's address, the request id and the merchant. */
export function httpCallers(options: GatewayServerOptions, addressing: ClientAddressing): HttpCallerOf {
  const { services } = options;
  const established = new WeakMap<object, Promise<HttpCaller>>();
  return (headerOf, req, request) => {
    const key = req ?? request;
    let caller = key ? established.get(key) : undefined;
    if (!caller) {
      caller = (async () => {
        const known = await callerFromHttp(services.tokens, headerOf, req, addressing);
        // Platform mode: the merchant from the token, or the one an operator names in its header.
        const named = namedMerchant(headerOf(MERCHANT_HEADER));
        return { ...known, merchant: services.platform ? await merchantOfRequest(services.platform, known.principal, named) : null };
      })();
      if (key) established.set(key, caller);
    }
    return caller;
  };
}
