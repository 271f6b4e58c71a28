// A subscription event is executed once per distinct (document, operation, variables, access grant),
// however many subscribers wait for it. The common case is many identical subscriptions (every back-office
// screen on `paymentEvents { id kind reference }`): without this, each one re-executes the same selection
// over the same event object. The event source still comes from each subscriber's own subscribe
// resolver, so access rules, arguments and every plugin hook run per subscriber as before; only the
// execution of an event's selection is shared, and only when it succeeded: a result with errors carries
// one subscriber's request id, so each subscriber then executes for itself.
import { sourceError } from '../errors/top-level.js';
import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { mapAsyncIterator } from '@whatwg-node/promise-helpers';

type Executed = ExecutionResult | Promise<ExecutionResult>;

/** `grantOf(context)`: what the caller may see (null: never share its executions). */
export function useSharedEventExecution(grantOf: (context: unknown) => string | null): Plugin {
  // Keyed by the event object itself: every subscriber of a topic receives the same object, and an
  // event's results go when the event does.
  const resultsByEvent = new WeakMap<object, Map<string, Executed>>();
  const documentIds = new WeakMap<DocumentNode, number>();
  let nextDocumentId = 0;
  const documentId = (document: DocumentNode) => {
    let id = documentIds.get(document);
    if (id === undefined) documentIds.set(document, (id = nextDocumentId++));
    return id;
  };

  const subscribeShared = async (args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> => {
    const source = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in source)) return source;
    const grant = grantOf(args.contextValue);
    // yoga's parser cache hands out one document object per distinct query text.
    const key =
      grant === null
        ? null
        : `${documentId(args.document)}\u0000${args.operationName ?? ''}\u0000${JSON.stringify(args.variableValues ?? {})}\u0000${grant}`;
    // What graphql-js's own subscribe does with each event: execute the operation with the event as root value.
    const own = (event: unknown) => execute({ ...args, rootValue: event }) as Executed;
    // Not async: an execution whose resolvers are all synchronous (the usual event selection) is a plain
    // result, handed to every later subscriber without a promise turn each.
    const executeEvent = (event: unknown): Executed => {
      if (key === null || event === null || typeof event !== 'object') return own(event);
      let results = resultsByEvent.get(event);
      if (!results) resultsByEvent.set(event, (results = new Map()));
      const shared = results.get(key);
      if (shared === undefined) {
        const mine = own(event);
        results.set(key, mine);
        return mine;
      }
      if (shared instanceof Promise) return shared.then((result) => (result.errors ? own(event) : result));
      return shared.errors ? own(event) : shared;
    };
    const operation = args.document.definitions.find((d) => d.kind === 'OperationDefinition');
    return mapAsyncIterator(source, executeEvent, (error: unknown) => {
      // As graphql-js and graphql-tools do: a failing source is an error of the operation.
      throw sourceError(error, operation);
    }) as AsyncIterableIterator<ExecutionResult>;
  };

  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(subscribeShared);
    },
  };
}
