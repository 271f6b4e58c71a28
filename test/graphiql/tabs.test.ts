// GraphiQL's tabs: one per flow of the client kit (shown and run in a real browser by in-chromium.test.ts).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FLOWS, graphiqlTabs } from '../../src/graphiql/tabs.js';

const operationsDir = path.resolve(fileURLToPath(new URL('../../client/operations', import.meta.url)));
/** The first operation's name: GraphiQL's title for the tab. */
const titleOf = (query: string) => /^(?:query|mutation|subscription) (\w+)/m.exec(query)?.[1];

describe('GraphiQL tabs', () => {
  it('offer every document of the client kit, once each', () => {
    const files = readdirSync(operationsDir).filter((name) => name.endsWith('.graphql'));
    expect(FLOWS.map((flow) => flow.file).sort()).toEqual(files.sort());
  });

  it('carry the token in every tab when there is one, and no headers otherwise', () => {
    for (const tab of graphiqlTabs('abc.def.ghi')) expect(JSON.parse(tab.headers!)).toEqual({ Authorization: 'Bearer abc.def.ghi' });
    for (const tab of graphiqlTabs(null)) expect(tab.headers).toBeNull();
  });

  it('have variables for every variable their operations declare', () => {
    for (const tab of graphiqlTabs(null)) {
      const declared = [...tab.query.matchAll(/\$(\w+):/g)].map((m) => m[1]!);
      const given = Object.keys(tab.variables ? (JSON.parse(tab.variables) as object) : {});
      expect(given.sort(), titleOf(tab.query)).toEqual([...new Set(declared)].sort());
    }
  });

  // On a 1366-pixel-wide screen GraphiQL's editor shows 55 characters of a line.
  it('fit a laptop-width editor without scrolling sideways (54 characters a line)', () => {
    const long = graphiqlTabs(null).flatMap((tab) => tab.query.split('\n').filter((line) => line.length > 54));
    expect(long).toEqual([]);
  });
});
