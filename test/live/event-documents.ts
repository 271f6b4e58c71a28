// Operations of the durable-events tests (resume, history, reconciliation).
import { graphql } from '../gql/index.js';

export const ResumableEvents = graphql(`
  subscription ResumableEvents($after: ID, $kinds: [String!]) {
    paymentEvents(after: $after, kinds: $kinds) { id kind reference source }
  }
`);

export const EventHistory = graphql(`
  query EventHistory($first: Int, $after: String, $last: Int, $before: String, $filter: EventFilter) {
    events(first: $first, after: $after, last: $last, before: $before, filter: $filter) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { id kind reference source receivedAt } }
    }
  }
`);
