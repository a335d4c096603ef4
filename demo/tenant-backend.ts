/**
 * A tenant's backend, as small as an honest integration gets, on `@id-verify/node` (the typed client and
 * its webhook check): it holds the API key (never the browser), creates verification sessions for its
 * users, registers a webhook endpoint, checks every delivery's signature before trusting it, and fetches
 * the identity when a verification is approved.
 *
 * Web-standard (a Hono app over `fetch`), so the same code runs on the real server (`npm start` mounts it
 * at `/demo/tenant/*`, see server/http/pages/demo/) and, for `npm run demo:offline`, inside the page behind the mock
 * Service Worker (where demo/node-shims/ stands in for the `node:crypto` the client imports).
 */
import { Hono } from 'hono';
import {
  createIdVerifyClient,
  IdVerifyError,
  verifyWebhook,
  WebhookVerificationError,
} from '../server/client/src/index.ts';

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
  /** Event kinds received and verified, in arrival order, de-duplicated by `event_id`. */
  events: string[];
}

export interface TenantBackend {
  /** The backend's HTTP interface: `POST /api/verifications`, `GET /api/verifications/:id`, `POST /webhooks/id-verify`. */
  app: Hono;
  /**
   * Makes `url` this backend's webhook endpoint (all events) and keeps its signing secret. An endpoint
   * already registered at `url` (an earlier start of the same backend) gets a new secret instead of a twin,
   * so restarts do not pile up endpoints whose secret nobody holds any more.
   */
  registerWebhook(url: string): Promise<void>;
  records: Map<string, VerificationRecord>;
  /** The current signing secret (null before `registerWebhook`); a real backend keeps it in its secret store. */
  webhookSecret(): string | null;
}

/** The outcomes a sandbox session may be forced to (docs/sandbox-and-testing.md). */
const SANDBOX_OUTCOMES = ['approved', 'rejected', 'review_required'] as const;
type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

/** The statuses after which nothing more happens to a session. */
const FINAL = new Set(['approved', 'rejected', 'review_required', 'expired', 'cancelled']);

/**
 * @example
 * const backend = createTenantBackend({ apiBase: 'https://api.example.com', apiKey: process.env.IDV_API_KEY! });
 * await backend.registerWebhook('https://shop.example/webhooks/id-verify');
 * serve({ fetch: backend.app.fetch, port: 3000 });
 */
export function createTenantBackend(options: TenantBackendOptions): TenantBackend {
  const idv = createIdVerifyClient({
    apiKey: options.apiKey,
    baseUrl: options.apiBase,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const records = options.records ?? new Map<string, VerificationRecord>();
  const seenEvents = new Set<string>();
  let webhookSecret: string | null = options.webhookSecret ?? null;

  const refreshStatus = async (record: VerificationRecord) => {
    // Events arrive unordered and may be retried: the API, not the event, says what the status is now.
    const result = await idv.sessions.result(record.sessionId);
    record.status = result.status;
    if (result.status === 'approved' && result.identity_id && !record.verifiedName) {
      record.identityId = result.identity_id;
      const identity = await idv.identities.get(result.identity_id);
      const { first_name, last_name } = identity.attributes;
      record.verifiedName = [first_name, last_name].filter(Boolean).join(' ') || null;
    }
  };

  const app = new Hono();
  app.onError((error, c) => {
    // The API's problem code, never its detail: it may name what the end-user typed.
    const code = error instanceof IdVerifyError ? error.code : 'backend_error';
    return c.json({ error: code }, 502);
  });

  // The page asks for a verification; the key stays here. The user id would come from the tenant's own
  // login session; the demo takes it from the body, with the sandbox outcome to force, if any.
  app.post('/api/verifications', async (c) => {
    const { userId, outcome } = (await c.req.json().catch(() => ({}))) as {
      userId?: unknown;
      outcome?: unknown;
    };
    if (typeof userId !== 'string' || !/^[\w-]{1,64}$/.test(userId)) {
      return c.json({ error: 'userId must be 1–64 letters, digits, _ or -' }, 400);
    }
    if (outcome !== undefined && outcome !== '' && !SANDBOX_OUTCOMES.includes(outcome as SandboxOutcome)) {
      return c.json({ error: `outcome must be one of ${SANDBOX_OUTCOMES.join(', ')}` }, 400);
    }
    const session = await idv.sessions.create({
      country: 'DEU',
      flow: 'user',
      tier: 'tier2',
      external_user_reference: userId,
      ...(options.returnUrl ? { redirect_url: options.returnUrl } : {}),
      ...(outcome ? { sandbox: { outcome: outcome as SandboxOutcome } } : {}),
    });
    records.set(session.session_id, {
      sessionId: session.session_id,
      userId,
      status: session.status,
      identityId: null,
      verifiedName: null,
      events: [],
    });
    return c.json({ session_id: session.session_id, verify_url: session.verify_url }, 201);
  });

  // What the page shows: the tenant's own record, refreshed from the API (never the raw API object).
  app.get('/api/verifications/:id', async (c) => {
    const record = records.get(c.req.param('id'));
    if (!record) return c.json({ error: 'unknown verification' }, 404);
    if (!FINAL.has(record.status) || (record.status === 'approved' && !record.verifiedName)) {
      await refreshStatus(record);
    }
    return c.json(record);
  });

  app.post('/webhooks/id-verify', async (c) => {
    if (!webhookSecret) return c.json({ error: 'no endpoint registered yet' }, 503);
    const raw = await c.req.text();
    let event: Awaited<ReturnType<typeof verifyWebhook>>;
    try {
      // Both schemes are checked by the client: Standard Webhooks (timestamped) when present.
      event = await verifyWebhook(raw, c.req.raw.headers, webhookSecret);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return c.json({ error: error.code }, 400);
      throw error;
    }
    // At-least-once delivery: a retry of an event already handled is acknowledged and ignored.
    if (seenEvents.has(event.event_id)) return c.body(null, 204);
    seenEvents.add(event.event_id);
    // Every kind names a session except the endpoint test.
    const record = event.event === 'webhook.test' ? undefined : records.get(event.session_id);
    if (record) {
      record.events.push(event.event);
      await refreshStatus(record);
    }
    return c.body(null, 204);
  });

  return {
    app,
    records,
    webhookSecret: () => webhookSecret,
    async registerWebhook(url) {
      for await (const endpoint of idv.webhooks.list({ limit: 100 })) {
        if (endpoint.url !== url) continue;
        // The secret of an earlier start is gone with that process: replace it at once.
        const rotated = await idv.webhooks.rotateSecret(endpoint.webhook_id, {
          previous_secret_expires_in: 0,
        });
        webhookSecret = rotated.secret;
        return;
      }
      const created = await idv.webhooks.create({ url, events: ['*'], description: 'demo shop backend' });
      webhookSecret = created.secret;
    },
  };
}
