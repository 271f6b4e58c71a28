import { describe, expect, it } from 'vitest';
import { budgetedUpstream } from '../../src/limits/upstream-budget.js';
import type { UpstreamClient } from '../../src/upstream/types.js';

function countingClient() {
  const calls: string[] = [];
  const client = new Proxy({} as UpstreamClient, {
    get: (_t, name) => (name === 'then' ? undefined : async () => calls.push(String(name))),
  });
  return { client, calls };
}

describe('budgetedUpstream', () => {
  it('lets `max` calls through, then refuses reads with UPSTREAM_BUDGET_EXCEEDED without calling', async () => {
    const { client, calls } = countingClient();
    const { client: budgeted, budget } = budgetedUpstream(client, 3);
    await budgeted.fetchBalance();
    await budgeted.fetchCharge('a');
    await budgeted.listTransfers();
    await expect(budgeted.fetchCharge('b')).rejects.toMatchObject({ extensions: { code: 'UPSTREAM_BUDGET_EXCEEDED', budget: 3 } });
    expect(calls).toEqual(['fetchBalance', 'fetchCharge', 'listTransfers']);
    expect(budget.used).toBe(4);
  });

  it('never refuses the one money-moving call an operation may make (it is counted)', async () => {
    const { client, calls } = countingClient();
    const { client: budgeted, budget } = budgetedUpstream(client, 1);
    await budgeted.listTransfers();
    await budgeted.createTransfer({} as never);
    expect(calls).toEqual(['listTransfers', 'createTransfer']);
    expect(budget.used).toBe(2);
  });
});
