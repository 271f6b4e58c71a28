// Who is calling, established once per request (HTTP, SSE) or per connection
// (WebSocket) before any field runs. A token that is present but wrong fails
// the whole request (401); no token at all leaves the caller anonymous, and an
// anonymous operation that selects anything but introspection is refused whole,
// so nothing reaches the payment service for it.
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AuthError, type Principal, type TokenVerifier } from '../auth/index.js';
import type { Caller, GatewayContext } from '../schema/context.js';
import type { ClientAddressing } from './client-address.js';
import { unauthenticated } from '../schema/access.js';

const REQUEST_ID = /^[\w.:-]{1,100}$/;

/** The request id: the caller's `X-Request-Id` when it is well formed, else a new UUID (a malformed one is never echoed into logs). */
export function requestIdFrom(header: string | null | undefined): string {
  return header && REQUEST_ID.test(header) ? header : randomUUID();
}

/** The principal of an `Authorization` header value; null when there is none; a 401 error when it is not valid. */
export async function principalFrom(tokens: TokenVerifier, authorization: string | null | undefined): Promise<Principal | null> {
  if (authorization === null || authorization === undefined || authorization.trim() === '') return null;
  try {
    return await tokens.verifyAuthorization(authorization);
  } catch (err) {
    if (err instanceof AuthError) throw unauthenticated(err.reason);
    throw err;
  }
}

/** The caller of an HTTP or SSE request; its address through the trusted proxies (src/http/client-address.ts). */
export async function callerFromHttp(
  tokens: TokenVerifier,
  headerOf: (name: string) => string | null,
  req: IncomingMessage | undefined,
  addressing: ClientAddressing,
): Promise<Caller> {
  return {
    principal: await principalFrom(tokens, headerOf('authorization')),
    clientIp: addressing.ipOf(req),
    requestId: requestIdFrom(headerOf('x-request-id')),
  };
}

/** Refuses, before execution, an anonymous operation that asks for more than introspection. */
export function useAuthentication(
  onRefused: (ctx: GatewayContext, operation: OperationDefinitionNode | null, variables: Record<string, unknown>) => void,
): Plugin<GatewayContext> {
  const refuse = (ctx: GatewayContext, document: DocumentNode, operationName: string | null | undefined, variables: unknown) => {
    if (ctx.principal) return false;
    const operation = selectedOperation(document, operationName);
    const asksData = operation?.selectionSet.selections.some((s) => s.kind !== Kind.FIELD || !s.name.value.startsWith('__')) ?? true;
    if (asksData) onRefused(ctx, operation, (variables ?? {}) as Record<string, unknown>);
    return asksData;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (refuse(args.contextValue, args.document, args.operationName, args.variableValues))
        setResultAndStopExecution({ errors: [unauthenticated()] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      if (refuse(args.contextValue, args.document, args.operationName, args.variableValues))
        setResultAndStopExecution({ errors: [unauthenticated()] });
    },
  };
}

function selectedOperation(document: DocumentNode, name: string | null | undefined): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return (name ? operations.find((o) => o.name?.value === name) : operations[0]) ?? null;
}
