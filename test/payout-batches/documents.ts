// The operations the payout-batch suites send, and the items they pay.
import { graphql } from '../gql/index.js';

export const CreateBatch = graphql(`
  mutation TestCreatePayoutBatch($input: CreatePayoutBatchInput!) {
    createPayoutBatch(input: $input) {
      __typename
      ... on CreatePayoutBatchPayload { batch { id batchId status label createdBy } }
      ... on PaymentError { code message messageFr }
    }
  }
`);

export const AddItems = graphql(`
  mutation TestAddPayoutBatchItems($input: AddPayoutBatchItemsInput!) {
    addPayoutBatchItems(input: $input) {
      __typename
      ... on AddPayoutBatchItemsPayload { page firstIndex added batch { added { items amount } } }
      ... on ValidationError { fieldErrors { path message messageFr } }
      ... on PaymentError { code message messageFr }
    }
  }
`);

export const StartBatch = graphql(`
  mutation TestStartPayoutBatch($input: StartPayoutBatchInput!) {
    startPayoutBatch(input: $input) {
      __typename
      ... on StartPayoutBatchPayload { batch { status awaitingApproval } }
      ... on PayoutBatchShortfallError { shortfalls { wallet required available shortfall } }
      ... on PaymentError { code message messageFr }
    }
  }
`);

export const ApproveBatch = graphql(`
  mutation TestApprovePayoutBatch($input: ApprovePayoutBatchInput!) {
    approvePayoutBatch(input: $input) {
      __typename
      ... on ApprovePayoutBatchPayload { batch { status approvedBy awaitingApproval } }
      ... on PaymentError { code message messageFr }
    }
  }
`);

export const CancelBatch = graphql(`
  mutation TestCancelPayoutBatch($input: CancelPayoutBatchInput!) {
    cancelPayoutBatch(input: $input) {
      __typename
      ... on CancelPayoutBatchPayload { batch { status sent { items } notSent { items } } }
      ... on PaymentError { code message messageFr }
    }
  }
`);

export const BatchView = graphql(`
  query TestPayoutBatch($id: ID!) {
    payoutBatch(id: $id) {
      id
      batchId
      status
      settled
      awaitingApproval
      added { items amount }
      sent { items amount }
      succeeded { items amount }
      failed { items amount }
      notSent { items amount }
      wallets { wallet items amount fees total available shortfall }
    }
  }
`);

export const BatchItems = graphql(`
  query TestPayoutBatchItems($id: ID!, $filter: PayoutBatchItemFilter, $first: Int) {
    payoutBatch(id: $id) {
      items(filter: $filter, first: $first) {
        totalCount
        edges { node { index amount recipientPhone status extId transferReference failure { __typename code message messageFr } } }
      }
    }
  }
`);

export const BatchItemsPage = graphql(`
  query TestPayoutBatchItemsPage($id: ID!, $filter: PayoutBatchItemFilter, $after: String) {
    payoutBatch(id: $id) {
      items(filter: $filter, first: 50, after: $after) {
        pageInfo { hasNextPage endCursor }
        edges { node { index status extId transferReference failure { __typename code } } }
      }
    }
  }
`);

export const BatchUpdated = graphql(`
  subscription TestPayoutBatchUpdated($id: ID!) {
    payoutBatchUpdated(id: $id) { status settled sent { items } succeeded { items } failed { items } notSent { items } }
  }
`);

export const BatchEvents = graphql(`
  subscription TestPayoutBatchEvents($kinds: [String!]) {
    paymentEvents(kinds: $kinds) { id kind reference source }
  }
`);

export type Wallet = 'OPA_BF' | 'OPB_BF' | 'OPD_BF' | 'OPE_BJ' | 'OPF_BJ';
const PREFIX: Record<Wallet, string> = { OPA_BF: '76', OPB_BF: '70', OPD_BF: '58', OPE_BJ: '0196', OPF_BJ: '0195' };
export const WALLETS: Wallet[] = ['OPA_BF', 'OPB_BF', 'OPD_BF', 'OPE_BJ', 'OPF_BJ'];

/** Item `i` of a test batch: spread over the five wallets; its phone ends with i's last digit (9: the transfer fails). */
export function item(i: number, amount = 100, wallets: Wallet[] = WALLETS) {
  const wallet = wallets[i % wallets.length]!;
  return {
    amount,
    recipientPhone: PREFIX[wallet] + String(i % 1_000_000).padStart(6, '0'),
    recipientWallet: wallet,
    reference: `row-${i}`,
  };
}
