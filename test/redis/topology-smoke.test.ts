import { it, expect } from 'vitest';
import { startSentinelSet, startCluster } from '../helpers/redis-topology.js';

it.skip('sentinel', async () => {
  let t = Date.now();
  const set = await startSentinelSet({ replicas: 2 });
  console.log('sentinel up', Date.now() - t);
  t = Date.now();
  await set.failover();
  console.log('failover', Date.now() - t);
  t = Date.now();
  await set.replicated();
  console.log('replicated', Date.now() - t);
  t = Date.now();
  await set.killPrimary();
  console.log('kill', Date.now() - t);
  t = Date.now();
  await set.replicated();
  console.log('replicated', Date.now() - t);
  await set.stop();
  expect(1).toBe(1);
}, 120_000);

it('cluster', async () => {
  let t = Date.now();
  const c = await startCluster();
  console.log('cluster up', Date.now() - t);
  t = Date.now();
  await c.failover('{x}');
  console.log('failover', Date.now() - t);
  t = Date.now();
  await c.replicated('{x}');
  console.log('replicated', Date.now() - t);
  t = Date.now();
  await c.killPrimary('{x}');
  console.log('kill', Date.now() - t);
  t = Date.now();
  await c.replicated('{x}');
  console.log('replicated', Date.now() - t);
  await c.stop();
}, 120_000);
