// What the gateway tells the page (src/console/serve.ts): a JSON data block in index.html, read once. Never
// executed, so the page's policy needs no inline script; in sandbox mode it holds the personas' test tokens.
export interface Persona {
  id: string;
  name: { fr: string; en: string };
  token: string;
}

export interface ConsoleSettings {
  mode: 'sandbox' | 'live';
  personas: Persona[];
  oidc: { issuer: string; clientId: string; scope: string; resource: string | null } | null;
  payoutFeeBps: number;
  /** Platform mode: a token without a merchant (an operator's) picks the merchant it acts for. */
  merchantMode: 'single' | 'platform';
}

const EMPTY: ConsoleSettings = { mode: 'live', personas: [], oidc: null, payoutFeeBps: 100, merchantMode: 'single' };

export function readSettings(doc: Document = document): ConsoleSettings {
  const block = doc.getElementById('console-settings');
  if (!block?.textContent) return EMPTY;
  try {
    return { ...EMPTY, ...(JSON.parse(block.textContent) as Partial<ConsoleSettings>) };
  } catch {
    return EMPTY;
  }
}

export const settings: ConsoleSettings = typeof document === 'undefined' ? EMPTY : readSettings();
