/**
 * A tenant's backend, as small as an honest integration gets: it holds the API key (never the browser),
 * creates verification sessions for its users, registers a webhook endpoint, checks every delivery's
 * signature before trusting it, and fetches the identity when a verification is approved.
 *
 * Web-standard (a Hono app over `fetch`), so the same code runs as a Node server (demo/serve-tenant.ts,
 * the Node tests) and, for `npm run demo:offline`, inside the page behind the mock Service Worker.
 */
import { Hono } from 'hono';

export interface TenantBackendOptions {
  /** The id-verify API origin, e.g. `https://api.example.com` (or the mock's). */
  apiBase: string;
  /** A sandbox or live key: server-side configuration, never shipped to a page. */
  apiKey: string;
  /** Where the end-user returns after the hosted page (`?session_id=…&status=…` is appended). */
  returnUrl?: string;
  /** The HTTP client; global `fetch` by default (which MSW intercepts under the mock). */
  fetch?: typeof fetch;
  /** Where verifications are kept (the tenant's database); a fresh Map by default. */
  records?: Map<string, VerificationRecord>;
  /** The signing secret of an endpoint registered earlier, if any. */
  webhookSecret?: string | null;
}

/** What the tenant knows about one of its user's verifications, from the API and from webhooks. */
export interface VerificationRecord {
  sessionId: string;
  userId: string;
  status: string;
  identityId: string | null;
  /** Names the API returned for the verified identity, once approved. */
  verifiedName: string | null;
  /** Event kinds received and verified, in arrival order, de-duplicated by `webhook-id`. */
  events: string[];
}

export interface TenantBackend {
  /** The backend's HTTP interface: `POST /api/verifications`, `GET /api/verifications/:id`, `POST /webhooks/id-verify`. */
  app: Hono;
  /** Registers `url` as the webhook endpoint (all events) and keeps its signing secret. */
  registerWebhook(url: string): Promise<void>;
  records: Map<string, VerificationRecord>;
  /** The current signing secret (null before `registerWebhook`); a real backend keeps it in its secret store. */
  webhookSecret(): string | null;
}

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Constant-time comparison of two equal-length strings, so a forger learns nothing from timing. */
function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** `x-service-signature`: hex HMAC-SHA256 of the raw body keyed with the whole `whsec_…` secret. */
async function signatureValid(secret: string, rawBody: string, header: string | null): Promise<boolean> {
  if (!header || !/^[0-9a-f]{64}$/.test(header)) return false;
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return timingSafeEqual(hex(await crypto.subtle.sign('HMAC', key, encoder.encode(rawBody))), header);
}

/**
 * @example
 * const backend = createTenantBackend({ apiBase: 'https://api.example.com', apiKey: process.env.IDV_API_KEY! });
 * await backend.registerWebhook('https://shop.example/webhooks/id-verify');
 * serve({ fetch: backend.app.fetch, port: 3000 });
 */
export function createTenantBackend(options: TenantBackendOptions): TenantBackend {
  const http = options.fetch ?? ((input, init) => fetch(input, init));
  const records = options.records ?? new Map<string, VerificationRecord>();
  const seenDeliveries = new Set<string>();
  let webhookSecret: string | null = options.webhookSecret ?? null;

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await http(`${options.apiBase}${path}`, {
      method,
      headers: {
        'x-api-key': options.apiKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok)
      throw new Error(`id-verify ${method} ${path}: ${response.status} ${String(json['code'])}`);
    return json;
  };

  const app = new Hono();

  // The page asks for a verification; the key stays here. The user id would come from the tenant's own
  // login session; the demo takes it from the body.
  app.post('/api/verifications', async (c) => {
    const { userId } = (await c.req.json().catch(() => ({}))) as { userId?: unknown };
    if (typeof userId !== 'string' || !/^[\w-]{1,64}$/.test(userId)) {
      return c.json({ error: 'userId must be 1–64 letters, digits, _ or -' }, 400);
    }
    const session = await api('POST', '/v1/sessions', {
      country: 'DEU',
      flow: 'user',
      tier: 'tier2',
      external_user_reference: userId,
      ...(options.returnUrl ? { redirect_url: options.returnUrl } : {}),
    });
    const sessionId = String(session['session_id']);
    records.set(sessionId, {
      sessionId,
      userId,
      status: String(session['status']),
      identityId: null,
      verifiedName: null,
      events: [],
    });
    return c.json({ session_id: sessionId, verify_url: session['verify_url'] }, 201);
  });

  // What the page shows: the tenant's own record, refreshed from the API (never the raw API object).
  app.get('/api/verifications/:id', async (c) => {
    const record = records.get(c.req.param('id'));
    if (!record) return c.json({ error: 'unknown verification' }, 404);
    const result = await api('GET', `/v1/sessions/${encodeURIComponent(record.sessionId)}/result`);
    record.status = String(result['status']);
    return c.json(record);
  });

  app.post('/webhooks/id-verify', async (c) => {
    const raw = await c.req.text();
    if (
      !webhookSecret ||
      !(await signatureValid(webhookSecret, raw, c.req.header('x-service-signature') ?? null))
    ) {
      return c.json({ error: 'bad signature' }, 400);
    }
    // At-least-once delivery: a retry of a delivery already handled is acknowledged and ignored.
    const deliveryId = c.req.header('webhook-id') ?? '';
    if (seenDeliveries.has(deliveryId)) return c.body(null, 204);
    seenDeliveries.add(deliveryId);
    const event = JSON.parse(raw) as { event: string; session_id?: string; identity_id?: string | null };
    const record = event.session_id ? records.get(event.session_id) : undefined;
    if (record) {
      record.events.push(event.event);
      if (event.event === 'session.approved' && event.identity_id) {
        record.identityId = event.identity_id;
        const identity = await api('GET', `/v1/identities/${encodeURIComponent(event.identity_id)}`);
        const attributes = identity['attributes'] as { first_name?: string; last_name?: string } | undefined;
        record.verifiedName = attributes
          ? `${attributes.first_name ?? ''} ${attributes.last_name ?? ''}`.trim()
          : null;
      }
      // Events arrive unordered: the API, not the event, says what the status is now.
      const result = await api('GET', `/v1/sessions/${encodeURIComponent(record.sessionId)}/result`);
      record.status = String(result['status']);
    }
    return c.body(null, 204);
  });

  return {
    app,
    records,
    webhookSecret: () => webhookSecret,
    async registerWebhook(url) {
      const created = await api('POST', '/v1/webhooks', {
        url,
        events: ['*'],
        description: 'tenant backend',
      });
      webhookSecret = String(created['secret']);
    },
  };
}
