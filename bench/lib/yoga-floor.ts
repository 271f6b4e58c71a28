// The framework's floor for bench/throughput.ts: the same read (`charge(reference)` answered by one GET to the
// stub) served by a bare graphql-yoga on node:http with the same yoga, graphql and undici the gateway uses, and
// nothing of ours: no authentication, limits, Redis, logs, metrics, masking rules or typed errors. What the
// gateway costs above it is ours; what the floor itself costs is the design card's (graphql-yoga is fixed).
// Prints "FLOOR READY <url>".
//   node --import tsx bench/lib/yoga-floor.ts <stub url>
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, createYoga } from 'graphql-yoga';
import { Agent, request } from 'undici';

const stubUrl = process.argv[2]!;
const upstream = new Agent({ connections: 64 });

interface UpstreamCharge {
  reference: string;
  status: string;
  amount: number | string;
  currency: string;
  payment_method_details?: { phone?: string };
  created_at: string;
}

const yoga = createYoga({
  schema: createSchema({
    typeDefs: /* GraphQL */ `
      type Charge {
        reference: String!
        status: String!
        amount: Int!
        currency: String!
        phone: String
        createdAt: String!
      }
      type Query {
        charge(reference: String!): Charge
      }
    `,
    resolvers: {
      Query: {
        charge: async (_: unknown, { reference }: { reference: string }) => {
          const res = await request(`${stubUrl}/v1/payment/charges/${encodeURIComponent(reference)}`, {
            dispatcher: upstream,
            headers: { 'x-api-key': 'floor', accept: 'application/json' },
          });
          const { data } = (await res.body.json()) as { data: UpstreamCharge };
          return {
            reference: data.reference,
            status: data.status,
            amount: Number(data.amount),
            currency: data.currency,
            phone: data.payment_method_details?.phone ?? null,
            createdAt: data.created_at,
          };
        },
      },
    },
  }),
  graphiql: false,
  logging: false,
});

const server = createServer(yoga);
server.listen(0, '127.0.0.1', () => {
  console.log(`FLOOR READY http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`);
});
process.on('SIGTERM', () => process.exit(0));
