// The runner's workers shared between merchants (src/payout-batches/fair-share.ts), in order only: a merchant
// holds at most its cap, and a merchant that comes later is served before the one already waiting with many.
import { expect, it } from 'vitest';
import { fairShare, type Release } from '../../src/payout-batches/index.js';

/** Asks for `n` workers for a merchant; `order` records each grant as it comes. */
function ask(share: ReturnType<typeof fairShare>, merchant: string, n: number, order: string[]): Array<Promise<Release>> {
  return Array.from({ length: n }, () =>
    share.acquire(merchant).then((release) => {
      order.push(merchant);
      return release;
    }),
  );
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

it('holds a merchant to its cap, and gives a freed worker to the merchant that waited without one first', async () => {
  const share = fairShare({ workers: 4, perMerchant: 3 });
  const order: string[] = [];
  const a = ask(share, 'A', 20, order);
  await settle();
  // A's payroll: 20 chunks want a worker, 3 get one (its cap), though a fourth is free.
  expect(order).toEqual(['A', 'A', 'A']);
  expect(share.busy().get('A')).toBe(3);

  // B comes later with one chunk: the free worker is its own at once, ahead of A's 17 waiting.
  const b = ask(share, 'B', 2, order);
  await settle();
  expect(order).toEqual(['A', 'A', 'A', 'B']);

  // Both wait now. A frees one: A was served longest ago (its last grant came before B's), so the worker is A's.
  (await a[0]!)();
  await settle();
  expect(order.slice(4)).toEqual(['A']);
  // B frees one: A is at its cap, so B's waiting chunk gets it.
  (await b[0]!)();
  await settle();
  expect(order.slice(5)).toEqual(['B']);
  expect(share.busy()).toEqual(
    new Map([
      ['A', 3],
      ['B', 1],
    ]),
  );
});

it('never hands out more than its workers, and a released worker is given back once only', async () => {
  const share = fairShare({ workers: 2, perMerchant: 2 });
  const order: string[] = [];
  const grants = ask(share, 'A', 3, order);
  await settle();
  expect(order).toHaveLength(2);
  const release = await grants[0]!;
  release();
  release();
  await settle();
  expect(order).toHaveLength(3);
  expect(share.busy().get('A')).toBe(2);
});
