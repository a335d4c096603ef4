import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createIdVerifyClient,
  type IdVerifyClient,
  IdVerifyError,
} from '../../../server/client/src/index.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import { createConsentedSession, documentForm, makeImages, verifyCall } from '../verify/verify-support.ts';
import { type Listening, listen } from './support/listen.ts';

describe('@id-verify/node client against a real server', () => {
  let h: TestHarness;
  let server: Listening;
  let idv: IdVerifyClient;
  before(async () => {
    h = await createHarness('pglite');
    server = await listen((request) => h.app.fetch(request));
    idv = createIdVerifyClient({ apiKey: h.tenant.sandboxKey, baseUrl: server.url });
  });
  after(async () => {
    await server.close();
    await h.close();
  });

  it('creates a session, reads it back and walks a list across pages with the async iterator', async () => {
    const created = [];
    for (let i = 0; i < 5; i++) {
      h.clock.advance(1000); // distinct creation times, so "newest first" has one answer
      created.push(
        await idv.sessions.create({
          external_user_reference: `user_${i}`,
          country: 'DEU',
          flow: 'user',
          tier: 'tier1',
        }),
      );
    }
    const first = created[0]!;
    assert.equal(first.object, 'session');
    assert.match(first.session_id, /^sess_/);
    assert.equal((await idv.sessions.get(first.session_id)).session_id, first.session_id);

    const page = await idv.sessions.list({ limit: 2 }).page();
    assert.equal(page.data.length, 2);
    assert.equal(page.has_more, true);

    const seen: string[] = [];
    for await (const session of idv.sessions.list({ limit: 2 })) seen.push(session.session_id);
    // Newest first, every session once, over three pages.
    assert.deepEqual(seen, created.map((session) => session.session_id).reverse());
  });

  it('fetches the result and the identity of a session the sandbox approved', async () => {
    const session = await idv.sessions.create({
      external_user_reference: 'user_result',
      country: 'DEU',
      flow: 'user',
      tier: 'tier1',
    });
    await idv.sandbox.simulate(session.session_id, { action: 'approve' });
    const result = await idv.sessions.result(session.session_id);
    assert.equal(result.session_id, session.session_id);
    assert.equal(result.decision, 'approved');
    const identityId = (await idv.sessions.get(session.session_id)).identity_id;
    assert.ok(identityId);
    const identity = await idv.identities.get(identityId);
    assert.equal(identity.identity_id, identityId);
    const listed = [];
    for await (const item of idv.identities.list({ limit: 1 })) listed.push(item.identity_id);
    assert.ok(listed.includes(identityId));
  });

  it('throws a typed IdVerifyError: 404 resource_missing with the request id', async () => {
    const error = await idv.sessions.get('sess_doesnotexist').catch((caught: unknown) => caught);
    assert.ok(error instanceof IdVerifyError);
    assert.equal(error.status, 404);
    assert.equal(error.code, 'resource_missing');
    assert.match(error.request_id ?? '', /^req_/);
    assert.equal(error.problem?.status, 404);
  });

  it('throws a typed IdVerifyError with `param`: 400 on a bad country, 422 on a refused webhook URL', async () => {
    const invalid = await idv.sessions
      .create({ external_user_reference: 'x', country: 'XXX', flow: 'user', tier: 'tier1' })
      .catch((caught: unknown) => caught);
    assert.ok(invalid instanceof IdVerifyError);
    assert.equal(invalid.status, 400);
    assert.equal(invalid.param, 'country');

    const refused = await idv.webhooks
      .create({ url: 'http://169.254.169.254/hook', events: ['*'] })
      .catch((caught: unknown) => caught);
    assert.ok(refused instanceof IdVerifyError);
    assert.equal(refused.status, 422);
    assert.equal(refused.code, 'webhook_url_not_allowed');
    assert.equal(refused.param, 'url');
  });

  it('replays a create sent twice with one idempotency key, and refuses the key with another body', async () => {
    const body = {
      external_user_reference: 'user_idem',
      country: 'DEU',
      flow: 'user',
      tier: 'tier1',
    } as const;
    const once = await idv.sessions.create(body, { idempotencyKey: 'client-test-key-1' });
    const twice = await idv.sessions.create(body, { idempotencyKey: 'client-test-key-1' });
    assert.equal(twice.session_id, once.session_id);
    const reused = await idv.sessions
      .create({ ...body, country: 'FRA' }, { idempotencyKey: 'client-test-key-1' })
      .catch((caught: unknown) => caught);
    assert.ok(reused instanceof IdVerifyError);
    assert.equal(reused.status, 422);
    assert.equal(reused.code, 'idempotency_key_reused');
  });

  it('covers webhooks: create, list, update, rotate, deliveries, events', async () => {
    const webhook = await idv.webhooks.create({ url: 'https://hooks.example.com/idv', events: ['*'] });
    assert.match(webhook.secret, /^whsec_/);
    const ids: string[] = [];
    for await (const item of idv.webhooks.list()) ids.push(item.webhook_id);
    assert.ok(ids.includes(webhook.webhook_id));
    assert.equal((await idv.webhooks.update(webhook.webhook_id, { status: 'disabled' })).status, 'disabled');
    const rotated = await idv.webhooks.rotateSecret(webhook.webhook_id);
    assert.notEqual(rotated.secret, webhook.secret);
    assert.equal((await idv.webhooks.deliveries.list(webhook.webhook_id).page()).object, 'list');
    const events = await idv.events.list({ limit: 3 }).page();
    assert.ok(events.data.length > 0);
    assert.equal((await idv.events.get(events.data[0]!.event_id)).event_id, events.data[0]!.event_id);
    await idv.webhooks.delete(webhook.webhook_id);
  });
  it('reaches the route of every other method (paths, methods and bodies as the server expects)', async () => {
    const tier1 = { country: 'DEU', flow: 'user', tier: 'tier1' } as const;
    // Sessions: submit, refresh the link, cancel, evidence, review.
    const open = await idv.sessions.create({ external_user_reference: 'user_methods', ...tier1 });
    const refreshed = await idv.sessions.refreshVerifyUrl(open.session_id);
    assert.ok(refreshed.verify_url && refreshed.verify_url !== open.verify_url);
    const notReady = await idv.sessions.submit(open.session_id).catch((caught: unknown) => caught);
    assert.ok(notReady instanceof IdVerifyError);
    assert.equal(notReady.code, 'steps_incomplete');
    assert.equal((await idv.sessions.evidence.list(open.session_id)).object, 'list');
    assert.equal((await idv.sessions.cancel(open.session_id)).status, 'cancelled');
    const queued = await idv.sessions.create({ external_user_reference: 'user_review', ...tier1 });
    await idv.sandbox.simulate(queued.session_id, { action: 'review' });
    assert.equal((await idv.sessions.get(queued.session_id)).status, 'review_required');
    await idv.sessions.review(queued.session_id, { decision: 'approve' });
    const decided = await idv.sessions.get(queued.session_id);
    assert.equal(decided.status, 'approved');

    // Re-verification of the identity that approval made.
    const identityId = decided.identity_id!;
    const missing = await idv.reverification.getOpen(identityId).catch((caught: unknown) => caught);
    assert.ok(missing instanceof IdVerifyError);
    assert.equal(missing.code, 'no_reverification_request');
    const request = await idv.reverification.create(identityId, { reason: 'Annual KYC refresh' });
    assert.equal(
      (await idv.reverification.getOpen(identityId)).reverification_request_id,
      request.reverification_request_id,
    );

    // Watchlist, tenant, stats.
    const watchlist = await idv.watchlist.put({ entries: [{ name: 'FICTITIOUS, Ivan' }] });
    assert.equal((await idv.watchlist.get()).entries.length, watchlist.entries.length);
    assert.equal((await idv.tenant.get()).tenant_id, h.tenant.tenantId);
    assert.equal((await idv.stats.get({ days: 7 })).object, 'stats');

    // A webhook test delivery (nothing listens at that address) and its retry.
    const webhook = await idv.webhooks.create({ url: 'https://hooks.example.com/test', events: ['*'] });
    const tested = await idv.webhooks.test(webhook.webhook_id);
    assert.equal(tested.object, 'webhook_test');
    const retried = await idv.webhooks.deliveries.retry(webhook.webhook_id, tested.delivery_id);
    assert.equal(retried.delivery_id, tested.delivery_id);
  });
  it('lists and downloads the evidence of a session', async () => {
    const session = await createConsentedSession(h);
    const { front } = await makeImages();
    const upload = await verifyCall(h, 'POST', '/v1/verify/documents', {
      token: session.token,
      form: documentForm(front),
    });
    assert.equal(upload.status, 201, await upload.clone().text());
    const evidence = await idv.sessions.evidence.list(session.sessionId);
    const first = evidence.data[0];
    assert.ok(first, 'the upload is listed');
    const file = await idv.sessions.evidence.download(session.sessionId, first.upload_id);
    assert.match(file.contentType, /^image\/(jpeg|png|webp)$/);
    assert.ok(file.bytes.length > 100);
  });
});
