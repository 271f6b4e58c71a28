// GraphiQL's tabs: one per flow, each the client kit's own document
// (client/operations/, the very text a frontend and the tests run), with
// variables filled in with the sandbox's test data and, in sandbox mode, the
// development token in the headers.
import { readFileSync } from 'node:fs';
import { projectPath } from '../files/project-files.js';

interface GraphiQLTab {
  query: string;
  variables: string | null;
  headers: string | null;
}

const PASTE_CHARGE = 'ch_… (from CreateCharge)';

/** Tab order: the first is what a newcomer runs first. Each tab's title is its first operation's name. */
export const FLOWS: ReadonlyArray<{ file: string; variables?: Record<string, unknown> }> = [
  { file: 'balance.graphql' },
  {
    file: 'checkout.graphql',
    variables: {
      input: {
        amount: 5000,
        successUrl: 'https://shop.example/paid',
        cancelUrl: 'https://shop.example/cart',
        email: 'awa@example.com',
        idempotencyKey: 'order-1001',
      },
      reference: 'chk_… (from InitializeCheckout)',
    },
  },
  {
    file: 'charge.graphql',
    variables: {
      input: { amount: 2500, phone: '76000000', provider: 'OPA_BF', idempotencyKey: 'order-1002' },
      reference: PASTE_CHARGE,
      otp: '123456',
    },
  },
  { file: 'watch-charge.graphql', variables: { reference: PASTE_CHARGE } },
  {
    file: 'payout.graphql',
    variables: {
      input: { amount: 1000, recipientPhone: '70000000', idempotencyKey: 'payout-2001' },
      reference: 'the transfer reference (from CreateTransfer)',
    },
  },
  {
    file: 'bulk-payout.graphql',
    variables: {
      input: {
        idempotencyKey: 'payroll-2026-11',
        transfers: [
          { amount: 1500, recipientPhone: '76000000', extId: 'awa' },
          { amount: 1500, recipientPhone: '68000000', extId: 'issa' },
          { amount: 1500, recipientPhone: '70000009', extId: 'ends-failed' },
        ],
      },
    },
  },
  {
    file: 'payout-batch.graphql',
    variables: {
      create: { idempotencyKey: 'commissions-2026-11', label: 'Agent commissions, November' },
      add: {
        batchId: 'pb_… (from CreatePayoutBatch)',
        page: 1,
        items: [
          { amount: 1500, recipientPhone: '76000000', reference: 'agent-17' },
          { amount: 2500, recipientPhone: '68000000', reference: 'agent-18' },
          { amount: 1000, recipientPhone: '70000009', reference: 'ends-failed' },
        ],
      },
      id: 'pb_… (from CreatePayoutBatch)',
      itemFilter: null,
      start: { batchId: 'pb_… (from CreatePayoutBatch)', sendWhatFits: false },
      approve: { batchId: 'pb_… (from CreatePayoutBatch)' },
      cancel: { batchId: 'pb_… (from CreatePayoutBatch)' },
    },
  },
  {
    file: 'settlement.graphql',
    variables: { input: { amount: 1000, idempotencyKey: 'settle-3001' }, reference: 'the settlement reference (from CreateSettlement)' },
  },
  { file: 'history.graphql', variables: { first: 10, after: null, filter: { status: 'SUCCESS' }, kinds: [] } },
  {
    // "Webhooks to your server": create an endpoint (sandbox mode takes a local http:// receiver), send it a test, read its deliveries.
    file: 'webhooks.graphql',
    variables: {
      create: {
        url: 'http://127.0.0.1:3000/hooks',
        kinds: ['charge.success', 'charge.failed'],
        description: 'my first webhook',
        idempotencyKey: 'hooks-1',
      },
      endpointId: 'the endpoint id (from CreateWebhookEndpoint)',
      deliveryFilter: null,
      update: { endpointId: 'the endpoint id (from CreateWebhookEndpoint)', enabled: true },
      deliveryId: 'a delivery id (from WebhookDeliveries)',
      since: '2026-01-01T00:00:00Z',
    },
  },
  {
    // Platform mode only (MERCHANT_MODE=platform): the operator's operations; in single mode they say so.
    file: 'platform.graphql',
    variables: {
      first: 20,
      create: {
        name: 'École Wend-Kuuni',
        apiKey: 'sk_test_school_0001',
        webhookSecret: 'whsec_school_0001',
        idempotencyKey: 'onboard-school-1',
      },
      suspend: { merchantId: 'mer_… (from Merchants)', suspended: true },
      rotate: { merchantId: 'mer_… (from Merchants)', apiKey: 'sk_test_school_0002' },
      offboard: { merchantId: 'mer_… (from Merchants)' },
    },
  },
];

/** GraphiQL's tabs: one per document of the client kit, its variables filled with test data, and with `token` its header. */
export function graphiqlTabs(token: string | null): GraphiQLTab[] {
  const headers = token ? JSON.stringify({ Authorization: `Bearer ${token}` }, null, 2) : null;
  return FLOWS.map(({ file, variables }) => ({
    query: readFileSync(projectPath('client', 'operations', file), 'utf8'),
    variables: variables ? JSON.stringify(variables, null, 2) : null,
    headers,
  }));
}
