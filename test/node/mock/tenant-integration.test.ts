// Issue 6 acceptance: a tenant's backend tested the way a tenant would, against `id-verify/mock/node`
// with no id-verify server and no network: it creates a session, the sandbox endpoint completes it, and
// the backend receives, verifies and acts on the signed webhooks.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve, type ServerType } from '@hono/node-server';
import { Webhook } from 'standardwebhooks';
import { createTenantBackend, type TenantBackend } from '../../../demo/tenant-backend.ts';
import { MOCK_FIXTURES } from '../../../mock/index.ts';
import { type MockServer, startMockServer } from '../../../mock/node.ts';

const API = 'https://api.tenant-test.idv.test';

async function until<T>(
  read: () => T | undefined | null | false,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a tenant backend against the mock under setupServer', () => {
  let mock: MockServer;
  let backend: TenantBackend;
  let tenantServer: ServerType;
  let tenantUrl: string;
  const raw: { headers: Headers; body: string }[] = [];

  before(async () => {
    // Background workers on (the default): deliveries arrive by themselves, as from a real server.
    mock = await startMockServer({ origin: API });
    backend = createTenantBackend({
      apiBase: API,
      apiKey: MOCK_FIXTURES.sandboxKey,
      returnUrl: 'https://shop.test/done',
    });
    // A real socket on loopback: the mock's webhook `fetch` reaches it through MSW's passthrough.
    const app = backend.app;
    tenantServer = serve({
      fetch: async (request) => {
        if (request.method === 'POST' && new URL(request.url).pathname === '/webhooks/id-verify') {
          raw.push({ headers: request.headers, body: await request.clone().text() });
        }
        return app.fetch(request);
      },
      port: 0,
      hostname: '127.0.0.1',
    });
    await new Promise((resolve) => tenantServer.once('listening', resolve));
    tenantUrl = `http://127.0.0.1:${(tenantServer.address() as AddressInfo).port}`;
    await backend.registerWebhook(`${tenantUrl}/webhooks/id-verify`);
  });

  after(async () => {
    await new Promise((resolve) => tenantServer.close(resolve));
    await mock.close();
  });

  it('creates a session, sees it approved by webhook and reads the identity', async () => {
    const started = await fetch(`${tenantUrl}/api/verifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'customer-7' }),
    });
    assert.equal(started.status, 201);
    const { session_id: sessionId, verify_url: verifyUrl } = (await started.json()) as Record<string, string>;
    assert.ok(verifyUrl?.startsWith(`${API}/verify/`), 'the end-user link points at the (mock) hosted page');

    // What a tenant's test does instead of a person with a passport: the sandbox simulation.
    const simulated = await fetch(`${API}/v1/sandbox/sessions/${sessionId}/simulate`, {
      method: 'POST',
      headers: { 'x-api-key': MOCK_FIXTURES.sandboxKey, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'approve' }),
    });
    assert.equal(simulated.status, 200, await simulated.clone().text());

    const record = await until(() => {
      const current = backend.records.get(sessionId!);
      return current?.events.includes('session.approved') && current.events.includes('identity.created')
        ? current
        : null;
    }, 'session.approved and identity.created');
    assert.equal(record.userId, 'customer-7');
    assert.equal(record.status, 'approved');
    assert.match(record.identityId ?? '', /^idn_/);

    const view = (await (await fetch(`${tenantUrl}/api/verifications/${sessionId}`)).json()) as Record<
      string,
      unknown
    >;
    assert.equal(view['status'], 'approved');
  });

  it('receives deliveries carrying both signatures: the seed header and the Standard Webhooks headers', async () => {
    const approved = raw.find((delivery) => JSON.parse(delivery.body).event === 'session.approved');
    assert.ok(approved, 'the approval delivery reached the real socket');
    assert.match(approved.headers.get('x-service-signature') ?? '', /^[0-9a-f]{64}$/);
    assert.equal(approved.headers.get('webhook-id'), JSON.parse(approved.body).event_id);
    assert.ok(approved.headers.get('webhook-signature')?.startsWith('v1,'));
  });

  it('refuses a forged delivery (the backend answers 400 and records nothing)', async () => {
    // Genuine deliveries of earlier events (the backend subscribes to all) may still be arriving: what
    // must not change is what the forgery claims, an approval and its identity.
    const approvalsOf = () =>
      [...backend.records.values()].map((record) => ({
        identityId: record.identityId,
        approvals: record.events.filter((event) => event === 'session.approved').length,
      }));
    const before = approvalsOf();
    const forged = JSON.stringify({
      event: 'session.approved',
      session_id: [...backend.records.keys()][0],
      identity_id: 'idn_forged',
    });
    const response = await fetch(`${tenantUrl}/webhooks/id-verify`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-signature': 'a'.repeat(64),
        'webhook-id': 'evt_forged',
      },
      body: forged,
    });
    assert.equal(response.status, 400);
    assert.deepEqual(approvalsOf(), before);
  });

  it('does not leave the machine: the API origin has no server, yet every call above succeeded', async () => {
    mock.server.close();
    await assert.rejects(fetch(`${API}/v1/me`), 'without MSW the mock origin does not resolve');
    mock.server.listen({ onUnhandledFrame: 'bypass' });
  });
});

// Standard Webhooks verification needs the secret, which only the backend holds; prove it with a second
// endpoint whose secret the test keeps.
describe('Standard Webhooks signatures from the mock', () => {
  it('verify with the standardwebhooks library', async () => {
    const mock = await startMockServer({ origin: 'https://api.tenant-test-2.idv.test' });
    const received: { headers: Record<string, string>; body: string }[] = [];
    const server = serve({
      fetch: async (request) => {
        received.push({ headers: Object.fromEntries(request.headers), body: await request.text() });
        return new Response(null, { status: 204 });
      },
      port: 0,
      hostname: '127.0.0.1',
    });
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const headers = { 'x-api-key': MOCK_FIXTURES.sandboxKey, 'content-type': 'application/json' };
      const created = await fetch('https://api.tenant-test-2.idv.test/v1/webhooks', {
        method: 'POST',
        headers,
        body: JSON.stringify({ url, events: ['session.expired'] }),
      });
      const { secret } = (await created.json()) as { secret: string };
      const session = await fetch('https://api.tenant-test-2.idv.test/v1/sessions', {
        method: 'POST',
        headers,
        body: JSON.stringify({ country: 'FRA', flow: 'user', tier: 'tier1' }),
      });
      const { session_id: sessionId } = (await session.json()) as { session_id: string };
      await mock.mock.scenarios.expireSession(sessionId);
      await mock.mock.flush();
      const delivery = await until(() => received[0], 'the session.expired delivery');
      const verified = new Webhook(secret).verify(delivery.body, delivery.headers) as Record<string, unknown>;
      assert.equal(verified['event'], 'session.expired');
      assert.equal(verified['session_id'], sessionId);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await mock.close();
    }
  });
});
