// Platform mode with the embedded sandbox: each demo merchant is an account of the sandbox (one per API key), and
// as a merchant sets its webhook URL at the service, each account's webhooks go to its merchant's own route on the
// gateway (`<WEBHOOK_PATH>/<route id>`), signed with that merchant's webhook secret. `npm start` calls this once the
// demo merchants exist; the sandbox's own webhook URL (single mode's) is then left unset.
import type { Sandbox, SandboxWebhookTarget } from './sandbox.js';

/** What connecting needs of platform mode's merchants: their ids, routes and opened secrets. */
export interface MerchantsForSandbox {
  list(first: number, after: string | null): Promise<{ merchants: Array<{ id: string; routeId: string; status: string }> }>;
  secrets(id: string): Promise<{ apiKey: string; webhookSecret: string } | null>;
}

/** Points the account of each merchant's API key at its merchant's webhook route; returns how many it connected. */
export async function connectMerchantWebhooks(
  sandbox: Pick<Sandbox, 'setAccountWebhook'>,
  merchants: MerchantsForSandbox,
  route: { webhookUrl: string; scheme: SandboxWebhookTarget['scheme'] },
): Promise<number> {
  let connected = 0;
  for (const merchant of (await merchants.list(100, null)).merchants) {
    const secrets = merchant.status === 'OFFBOARDED' ? null : await merchants.secrets(merchant.id);
    if (!secrets?.apiKey.startsWith('sk_test_')) continue;
    sandbox.setAccountWebhook(secrets.apiKey, {
      url: `${route.webhookUrl}/${merchant.routeId}`,
      secret: secrets.webhookSecret,
      scheme: route.scheme,
    });
    connected += 1;
  }
  return connected;
}
