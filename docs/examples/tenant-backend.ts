// A tenant backend with @id-verify/node: start a verification, receive its webhook, read the identity.
import { createIdVerifyClient, verifyWebhook } from '@id-verify/node';
const TIER_1 = { flow: 'user', tier: 'tier1' } as const;
export function tenantBackend(env: { apiKey: string; baseUrl: string; webhookSecret: string }) {
  const idv = createIdVerifyClient({ apiKey: env.apiKey, baseUrl: env.baseUrl });
  const verified = new Map<string, { identity_id: string; name: string }>(); // your user id → identity (your DB)
  const processed = new Set<string>(); // webhook-ids done (your DB): a retry or a replay changes nothing
  return async function handle(req: Request): Promise<Response> {
    const { pathname, searchParams } = new URL(req.url);
    if (req.method === 'POST' && pathname === '/start-verification') {
      const user = searchParams.get('user') ?? 'anonymous';
      const session = await idv.sessions.create({ external_user_reference: user, country: 'DEU', ...TIER_1 });
      return Response.json({ verify_url: session.verify_url }); // send the end-user there
    }
    if (req.method === 'POST' && pathname === '/webhooks/id-verify') {
      const event = await verifyWebhook(await req.text(), req.headers, env.webhookSecret).catch(() => null);
      if (!event) return new Response('bad signature', { status: 400 });
      if (event.event === 'session.approved' && event.identity_id && !processed.has(event.event_id)) {
        const identity = await idv.identities.get(event.identity_id); // the event is thin: ids only
        const { first_name, last_name } = identity.attributes;
        const name = [first_name, last_name].filter(Boolean).join(' ');
        verified.set(identity.external_user_reference ?? '', { identity_id: identity.identity_id, name });
      }
      processed.add(event.event_id); // webhook-id; verifyWebhook refused the delivery if it was not timestamped
      return new Response(null, { status: 204 }); // 2xx quickly; deliveries are retried otherwise
    }
    if (pathname === '/me') return Response.json(verified.get(searchParams.get('user') ?? '') ?? null);
    return new Response('not found', { status: 404 });
  };
}
