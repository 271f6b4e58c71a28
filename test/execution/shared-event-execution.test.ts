// Subscription events executed once per (document, variables, grant): through yoga's real envelop
// pipeline (its parser cache, its plugins, its subscribe) over a small schema whose resolvers count
// their executions. Sharing must never cross grants, never share a result that has errors, and never
// change what a subscriber receives.
import { createPubSub, createSchema, createYoga, type Plugin } from 'graphql-yoga';
import type { ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { useSharedEventExecution } from '../../src/execution/shared-event-execution.js';

interface TestContext {
  grant: string | null;
}
interface Event {
  id: string;
}

function setUp() {
  const pubsub = createPubSub<{ events: [Event] }>();
  const executions = { seen: 0, secret: 0 };
  const schema = createSchema<TestContext>({
    typeDefs: /* GraphQL */ `
      type Query {
        ok: Boolean
      }
      type Event {
        id: ID!
        seen: Int!
        label(prefix: String!): String!
        secret: String!
      }
      type Subscription {
        events: Event!
      }
    `,
    resolvers: {
      Subscription: { events: { subscribe: () => pubsub.subscribe('events'), resolve: (event: Event) => event } },
      Event: {
        seen: () => ++executions.seen,
        label: (event: Event, { prefix }: { prefix: string }) => `${prefix}${event.id}`,
        secret: (_event: Event, _args: unknown, ctx: TestContext) => {
          executions.secret++;
          if (ctx.grant !== 'admin') throw new Error('not for you');
          return 's3cret';
        },
      },
    },
  });
  const yoga = createYoga<{ grant: string | null }, TestContext>({
    schema,
    logging: false,
    plugins: [useSharedEventExecution((context) => (context as TestContext).grant) as Plugin<TestContext>],
  });

  const subscribe = async (grant: string | null, query: string, variables?: Record<string, unknown>) => {
    const { parse, validate, contextFactory, subscribe: run, schema: enveloped } = yoga.getEnveloped({ grant });
    const document = parse(query);
    expect(validate(enveloped, document)).toEqual([]);
    const result = (await run({ schema: enveloped, document, variableValues: variables, contextValue: await contextFactory() })) as
      AsyncIterableIterator<ExecutionResult> | ExecutionResult;
    if (!(Symbol.asyncIterator in result)) throw new Error(`not a stream: ${JSON.stringify(result)}`);
    return result;
  };
  return { pubsub, executions, subscribe };
}

/** The next result of each stream, once `publish` has run (subscriptions register on their first pull). */
async function nextOfEach(streams: Array<AsyncIterableIterator<ExecutionResult>>, publish: () => void) {
  const pending = streams.map((stream) => stream.next());
  await new Promise((resolve) => setImmediate(resolve));
  publish();
  return (await Promise.all(pending)).map((step) => JSON.parse(JSON.stringify(step.value)) as ExecutionResult);
}

describe('shared execution of subscription events', () => {
  it('executes an event once for identical subscriptions with the same grant, and each gets the result', async () => {
    const { pubsub, executions, subscribe } = setUp();
    const query = 'subscription { events { id seen } }';
    const streams = await Promise.all([subscribe('staff', query), subscribe('staff', query), subscribe('staff', query)]);
    const results = await nextOfEach(streams, () => pubsub.publish('events', { id: 'e1' }));
    expect(results).toEqual(Array(3).fill({ data: { events: { id: 'e1', seen: 1 } } }));
    expect(executions.seen).toBe(1);
    // Each event is its own execution.
    const second = await nextOfEach(streams, () => pubsub.publish('events', { id: 'e2' }));
    expect(second).toEqual(Array(3).fill({ data: { events: { id: 'e2', seen: 2 } } }));
    expect(executions.seen).toBe(2);
    await Promise.all(streams.map((s) => s.return?.()));
  });

  it('never shares across grants, variables or documents, nor for a caller without a grant', async () => {
    const { pubsub, executions, subscribe } = setUp();
    const query = 'subscription ($p: String!) { events { seen label(prefix: $p) } }';
    const streams = await Promise.all([
      subscribe('staff', query, { p: 'a:' }),
      subscribe('client:charge:ch_1', query, { p: 'a:' }),
      subscribe('staff', query, { p: 'b:' }),
      subscribe('staff', 'subscription ($p: String!) { events { label(prefix: $p) seen } }', { p: 'a:' }),
      subscribe(null, query, { p: 'a:' }),
      subscribe(null, query, { p: 'a:' }),
    ]);
    const results = await nextOfEach(streams, () => pubsub.publish('events', { id: 'e1' }));
    expect(executions.seen).toBe(6);
    expect(results.map((r) => (r.data as { events: { label: string } }).events.label)).toEqual([
      'a:e1',
      'a:e1',
      'b:e1',
      'a:e1',
      'a:e1',
      'a:e1',
    ]);
    await Promise.all(streams.map((s) => s.return?.()));
  });

  it('does not share a result with errors: each subscriber executes for itself and gets its own', async () => {
    const { pubsub, executions, subscribe } = setUp();
    const query = 'subscription { events { id secret } }';
    const streams = await Promise.all([subscribe('staff', query), subscribe('staff', query), subscribe('admin', query)]);
    const results = await nextOfEach(streams, () => pubsub.publish('events', { id: 'e1' }));
    expect(executions.secret).toBe(3);
    expect(results[0]).toMatchObject({ data: null, errors: [{ message: expect.stringMatching(/not for you|Unexpected error/) }] });
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual({ data: { events: { id: 'e1', secret: 's3cret' } } });
    await Promise.all(streams.map((s) => s.return?.()));
  });

  it('ends each stream on its own: return() of one subscriber leaves the others receiving', async () => {
    const { pubsub, subscribe } = setUp();
    const query = 'subscription { events { id } }';
    const [a, b] = await Promise.all([subscribe('staff', query), subscribe('staff', query)]);
    await expect(a!.return!()).resolves.toEqual({ done: true, value: undefined });
    const [fromB] = await nextOfEach([b!], () => pubsub.publish('events', { id: 'e9' }));
    expect(fromB).toEqual({ data: { events: { id: 'e9' } } });
    await expect(a!.next()).resolves.toEqual({ done: true, value: undefined });
    await b!.return?.();
  });
});
