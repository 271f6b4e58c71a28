// GraphiQL's live panel: on the page only in sandbox mode's development (shown working in a real browser by
// in-chromium.test.ts).
import { describe, expect, it } from 'vitest';
import { withLivePanel } from '../../src/graphiql/live-panel.js';

describe('the live panel', () => {
  it('is on the page only with a development token, which it carries as a script string', () => {
    const page = '<html><body><div id="graphiql"></div></body></html>';
    expect(withLivePanel(page, null)).toBe(page);
    const withPanel = withLivePanel(page, 'aaa.bbb.ccc');
    expect(withPanel).toContain('const token = "aaa.bbb.ccc";');
    expect(withPanel.indexOf('<script>')).toBeLessThan(withPanel.indexOf('</body>'));
  });
});
