import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createIdVerifyClient, signTestWebhook } from '../../../server/client/src/index.ts';
import { createWebhookWorker } from '../../../server/workers/webhook-delivery-worker.ts';
import { fetchWebhookSender } from '../../../server/features/webhooks/webhook-sender.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import { installPackedClient } from './support/installed-package.ts';
import { type Listening, listen } from './support/listen.ts';

const EXAMPLE = fileURLToPath(new URL('../../../docs/examples/tenant-backend.ts', import.meta.url));
const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));

describe('docs/examples/tenant-backend.ts against a real server', () => {
  let h: TestHarness;
  let api: Listening;
  let backend: Listening;
  let project: string;
  /** The paths the backend called on the API, to see which deliveries it acted on. */
  const apiPaths: string[] = [];
  before(async () => {
    h = await createHarness('pglite');
    h.deps.webhookSender = fetchWebhookSender(); // real HTTP deliveries, as the server makes them
    api = await listen((request) => {
      apiPaths.push(new URL(request.url).pathname);
      return h.app.fetch(request);
    });
    // A tenant's project: the example beside the packed and installed `@id-verify/node` and nothing else,
    // so it resolves the package by its name, as JavaScript, exactly as a tenant gets it.
    project = installPackedClient().project;
    copyFileSync(EXAMPLE, join(project, 'tenant-backend.ts'));
  });
  after(async () => {
    await backend?.close();
    await api.close();
    await h.close();
    rmSync(dirname(project), { recursive: true, force: true });
  });

  it('fits in 30 lines', () => {
    assert.ok(readFileSync(EXAMPLE, 'utf8').trimEnd().split('\n').length <= 30);
  });

  it('type-checks in a tenant project against the package’s own types', () => {
    const compilerOptions = {
      target: 'es2023',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      lib: ['es2023', 'dom'],
      types: ['node'],
      typeRoots: [join(REPOSITORY, 'node_modules', '@types')],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      allowImportingTsExtensions: true,
      verbatimModuleSyntax: true,
      erasableSyntaxOnly: true,
    };
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions, files: ['tenant-backend.ts'] }),
    );
    const tsc = spawnSync(join(REPOSITORY, 'node_modules', '.bin', 'tsc'), ['-p', project], {
      encoding: 'utf8',
    });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  });

  it('creates a session, verifies the webhook the server delivers and records the verified identity', async () => {
    const admin = createIdVerifyClient({ apiKey: h.tenant.sandboxKey, baseUrl: api.url });
    // The webhook is registered first (its secret is the backend's); the backend's URL is known after listen.
    let handle: ((request: Request) => Promise<Response>) | undefined;
    backend = await listen((request) => handle!(request));
    const webhook = await admin.webhooks.create({ url: `${backend.url}/webhooks/id-verify`, events: ['*'] });
    const { tenantBackend } = (await import(pathToFileURL(join(project, 'tenant-backend.ts')).href)) as {
      tenantBackend: (env: object) => (request: Request) => Promise<Response>;
    };
    handle = tenantBackend({ apiKey: h.tenant.sandboxKey, baseUrl: api.url, webhookSecret: webhook.secret });

    const started = await fetch(`${backend.url}/start-verification?user=user_42`, { method: 'POST' });
    assert.equal(started.status, 200);
    assert.match(((await started.json()) as { verify_url: string }).verify_url, /\/verify\//);

    // The end-user's part, played by the sandbox: the session is approved.
    const session = (await admin.sessions.list({ external_user_reference: 'user_42' }).page()).data[0]!;
    await admin.sandbox.simulate(session.session_id, { action: 'approve' });
    const worker = createWebhookWorker(h.deps);
    for (let round = 0; round < 5; round++) await worker.runOnce();

    const deliveries = await admin.webhooks.deliveries.list(webhook.webhook_id, { limit: 100 }).page();
    assert.ok(deliveries.data.length > 0, 'the server delivered to the backend');
    assert.ok(
      deliveries.data.every((delivery) => delivery.status === 'succeeded'),
      `every delivery verified and answered 2xx: ${JSON.stringify(deliveries.data.map((d) => d.status))}`,
    );
    // The backend verified `session.approved` and fetched the identity it names. (A sandbox approval
    // without documents carries no name, so the name is the identity's, whatever it holds.)
    const approved = await admin.sessions.get(session.session_id);
    assert.ok(approved.identity_id);
    const identity = await admin.identities.get(approved.identity_id);
    const me = (await (await fetch(`${backend.url}/me?user=user_42`)).json()) as Record<
      string,
      string
    > | null;
    assert.deepEqual(me, {
      identity_id: approved.identity_id,
      name: [identity.attributes.first_name, identity.attributes.last_name].filter(Boolean).join(' '),
    });

    // A captured delivery replayed without its `webhook-*` headers is refused; with them, it is done once.
    const captured = signTestWebhook(
      { event: 'session.approved', event_id: 'evt_replayed', identity_id: approved.identity_id },
      webhook.secret,
    );
    const stripped = Object.fromEntries(
      Object.entries(captured.headers).filter(([name]) => !name.startsWith('webhook-')),
    );
    const replayed = await fetch(`${backend.url}/webhooks/id-verify`, {
      method: 'POST',
      body: captured.body,
      headers: stripped,
    });
    assert.equal(replayed.status, 400);
    const identityReads = () => apiPaths.filter((path) => path.startsWith('/v1/identities/')).length;
    const readsBefore = identityReads();
    for (let delivery = 0; delivery < 2; delivery++) {
      const again = await fetch(`${backend.url}/webhooks/id-verify`, {
        method: 'POST',
        body: captured.body,
        headers: captured.headers,
      });
      assert.equal(again.status, 204);
    }
    assert.equal(identityReads() - readsBefore, 1, 'the second delivery of one webhook-id did nothing');

    // A forged delivery is refused by the example.
    const forged = await fetch(`${backend.url}/webhooks/id-verify`, {
      method: 'POST',
      body: '{"event":"session.approved","identity_id":"idn_x"}',
      headers: { 'x-service-signature': '0'.repeat(64) },
    });
    assert.equal(forged.status, 400);
  });
});
