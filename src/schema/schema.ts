// The gateway's schema: every domain module registers its types on the shared
// builder; importing them here, in this order, builds the whole schema.
import { builder } from './builder.js';
import './root.js';
import './scalars.js';
import './enums.js';
import './error-types.js';
import './checkout.js';
import './charge.js';
import './transfer.js';
import './balance.js';
import './settlement.js';
import './events.js';
import './payout-batch.js';
import './webhook-endpoints.js';
import './webhook-endpoint-mutations.js';
import './merchants.js';

builder.globalConnectionField('totalCount', (t) =>
  t.int({ description: 'How many items the whole list holds (across all pages).', resolve: (connection) => connection.totalCount }),
);

/** The gateway's GraphQL schema, built once from every domain module. */
export const schema = builder.toSchema({ sortSchema: false });
