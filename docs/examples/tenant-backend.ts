// A tenant backend with @id-verify/node: start a verification, receive its webhook, read the identity.
import { createIdVerifyClient, verifyWebhook } from '@id-verify/node';

const TIER_1 = { flow: 'user', tier: 'tier1' } as const;
export function tenantBackend(env: { apiKey: string; baseUrl: string; webhookSecret: string }) {
  const idv = createIdVerifyClient({ apiKey: env.apiKey, baseUrl: env.baseUrl });
  const verified = new Map<string, { identity_id: string; name: string }>(); // your user id → identity (your DB)
  return async function handle(request: Request): Promise<Response> {
    const { pathname, searchParams } = new URL(request.url);
    if (request.method === 'POST' && pathname === '/start-verification') {
      const user = searchParams.get('user') ?? 'anonymous';
      const session = await idv.sessions.create({ external_user_reference: user, country: 'DEU', ...TIER_1 });
      return Response.json({ verify_url: session.verify_url }); // send the end-user there
    }
    if (request.method === 'POST' && pathname === '/webhooks/id-verify') {
      const body = await request.text();
      const event = await verifyWebhook(body, request.headers, env.webhookSecret).catch(() => null);
      if (!event) return new Response('bad signature', { status: 400 });
      if (event.event === 'session.approved' && event.identity_id) {
        const identity = await idv.identities.get(event.identity_id); // the event is thin: ids only
        const { first_name, last_name } = identity.attributes;
        const name = [first_name, last_name].filter(Boolean).join(' ');
        verified.set(identity.external_user_reference ?? '', { identity_id: identity.identity_id, name });
      }
      return new Response(null, { status: 204 }); // 2xx quickly; deliveries are retried otherwise
    }
    if (pathname === '/me') return Response.json(verified.get(searchParams.get('user') ?? '') ?? null);
    return new Response('not found', { status: 404 });
  };
}
