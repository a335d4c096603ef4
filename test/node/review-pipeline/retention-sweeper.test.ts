import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resolveRetention } from '../../../server/features/retention/retention-policy.ts';
import { createRetentionSweeper } from '../../../server/workers/retention-sweeper.ts';
import { insertDelivery, purgeDeliveriesBefore } from '../../../server/store/webhook-deliveries.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import {
  createConsentedSession,
  createVerifySession,
  documentForm,
  makeImages,
  verifyCall,
} from '../verify/verify-support.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

for (const engine of testEngines()) {
  describe(`retention sweeper (${engine})`, () => {
    let h: TestHarness;
    let images: Awaited<ReturnType<typeof makeImages>>;
    before(async () => {
      h = await createHarness(engine);
      images = await makeImages();
    });
    after(() => h.close());

    const key = () => h.tenant.sandboxKey;

    /** A session with evidence: consent and one stored document photo. */
    async function withEvidence(): Promise<{ sessionId: string; token: string }> {
      const session = await createConsentedSession(h, { tier: 'tier1' });
      const upload = await verifyCall(h, 'POST', '/v1/verify/documents', {
        token: session.token,
        form: documentForm(images.front),
      });
      assert.equal(upload.status, 201);
      return session;
    }

    async function evidenceOf(sessionId: string) {
      const [row] = await h.deps.db.query<{ uploads: number; consents: number }>(
        `select (select count(*)::int from verify_uploads where session_id = $1) as uploads,
                (select count(*)::int from verify_consents where session_id = $1) as consents`,
        [sessionId],
      );
      const blobs = [...h.blobs.entries()].filter(([blobKey]) => blobKey.includes(sessionId)).length;
      return { uploads: row?.uploads ?? 0, consents: row?.consents ?? 0, blobs };
    }

    async function simulate(sessionId: string, action: string) {
      const response = await h.call('POST', `/v1/sandbox/sessions/${sessionId}/simulate`, {
        key: key(),
        body: { action },
      });
      assert.equal(response.status, 200, await response.clone().text());
    }

    it('deletes an approved session’s evidence 90 days after the decision, keeping the result', async () => {
      const sweeper = createRetentionSweeper(h.deps);
      const { sessionId } = await withEvidence();
      await simulate(sessionId, 'approve');
      h.clock.advance(89 * DAY_MS);
      await sweeper.runOnce();
      assert.deepEqual(await evidenceOf(sessionId), { uploads: 1, consents: 1, blobs: 1 }, 'not yet');

      h.clock.advance(2 * DAY_MS);
      const swept = await sweeper.runOnce();
      assert.ok(swept.sessions >= 1 && swept.images >= 1);
      assert.deepEqual(await evidenceOf(sessionId), { uploads: 0, consents: 0, blobs: 0 });
      const result = await json(await h.call('GET', `/v1/sessions/${sessionId}/result`, { key: key() }));
      assert.equal(result['decision'], 'approved', 'the decision outlives the evidence');
      const listed = await json(await h.call('GET', `/v1/sessions/${sessionId}/evidence`, { key: key() }));
      assert.deepEqual(listed['data'], []);
      const [marked] = await h.deps.db.query<{ evidence_deleted_at: Date | null }>(
        'select evidence_deleted_at from sessions where id = $1',
        [sessionId],
      );
      assert.ok(marked?.evidence_deleted_at instanceof Date);
      assert.equal((await sweeper.runOnce()).sessions, 0, 'a second sweep finds nothing left');
    });

    it('deletes a cancelled session’s evidence after 30 days and an expired one’s too', async () => {
      const sweeper = createRetentionSweeper(h.deps);
      const cancelled = await withEvidence();
      const cancel = await h.call('DELETE', `/v1/sessions/${cancelled.sessionId}`, { key: key() });
      assert.equal(cancel.status, 200);
      const expired = await withEvidence();
      await simulate(expired.sessionId, 'expire');
      h.clock.advance(29 * DAY_MS);
      await sweeper.runOnce();
      assert.equal((await evidenceOf(cancelled.sessionId)).uploads, 1, 'kept for 30 days');
      assert.equal((await evidenceOf(expired.sessionId)).uploads, 1);
      h.clock.advance(2 * DAY_MS);
      await sweeper.runOnce();
      assert.deepEqual(await evidenceOf(cancelled.sessionId), { uploads: 0, consents: 0, blobs: 0 });
      assert.deepEqual(await evidenceOf(expired.sessionId), { uploads: 0, consents: 0, blobs: 0 });
    });

    it('never deletes the evidence of a session that is still open or waiting for a reviewer', async () => {
      const sweeper = createRetentionSweeper(h.deps);
      const inReview = await withEvidence();
      await simulate(inReview.sessionId, 'review');
      const collecting = await withEvidence();
      // Far beyond every period; `collecting` stays so in the table because nothing reads it here.
      h.clock.advance(400 * DAY_MS);
      await sweeper.runOnce();
      assert.equal((await evidenceOf(inReview.sessionId)).uploads, 1);
      assert.equal((await evidenceOf(collecting.sessionId)).uploads, 1);
    });

    it('keeps the session whose selfie an identity holds as its biometric reference', async () => {
      const sweeper = createRetentionSweeper(h.deps);
      const { sessionId } = await withEvidence();
      await simulate(sessionId, 'approve');
      const { identity_id: identityId } = await json(
        await h.call('GET', `/v1/sessions/${sessionId}/result`, { key: key() }),
      );
      await h.deps.db.query('update identities set biometric_session_id = $2 where id = $1', [
        identityId,
        sessionId,
      ]);
      h.clock.advance(200 * DAY_MS);
      await sweeper.runOnce();
      assert.equal((await evidenceOf(sessionId)).uploads, 1);
      // Once a newer selfie is enrolled, the old session's evidence goes.
      await h.deps.db.query('update identities set biometric_session_id = null where id = $1', [identityId]);
      await sweeper.runOnce();
      assert.equal((await evidenceOf(sessionId)).uploads, 0);
    });

    it('purges events older than 30 days, except those a delivery still names', async () => {
      const sweeper = createRetentionSweeper(h.deps);
      const webhook = await h.call('POST', '/v1/webhooks', {
        key: key(),
        body: { url: 'http://127.0.0.1:9/hook', events: ['*'] },
      });
      assert.equal(webhook.status, 201, await webhook.clone().text());
      const webhookId = (await json(webhook))['webhook_id'];
      const old = await createVerifySession(h);
      const oldEvents = await h.deps.db.query<{ id: string; type: string }>(
        'select id, type from events where session_id = $1',
        [old.sessionId],
      );
      assert.ok(oldEvents.length > 0);
      const delivered = oldEvents[0]!;
      await insertDelivery(h.deps.db, {
        id: h.deps.ids('dlv'),
        tenant_id: h.tenant.tenantId,
        environment: 'sandbox',
        webhook_id: webhookId,
        event_id: delivered.id,
        event_type: delivered.type,
        now: h.clock.now(),
        nextAttemptAt: null,
      });
      h.clock.advance(29 * DAY_MS);
      const recent = await createVerifySession(h);
      h.clock.advance(2 * DAY_MS);
      await sweeper.runOnce();
      const left = async (sessionId: string) =>
        (
          await h.deps.db.query<{ id: string }>('select id from events where session_id = $1', [sessionId])
        ).map((row) => row.id);
      assert.deepEqual(await left(old.sessionId), [delivered.id], 'only the delivered event stays');
      assert.ok((await left(recent.sessionId)).length > 0, 'a 2-day-old event stays');
    });

    it('purges finished deliveries before the cutoff in bounded batches, oldest first, never a pending one', async () => {
      const webhook = await h.call('POST', '/v1/webhooks', {
        key: key(),
        body: { url: 'http://127.0.0.1:9/purge', events: ['*'] },
      });
      assert.equal(webhook.status, 201, await webhook.clone().text());
      const webhookId = (await json(webhook))['webhook_id'] as string;
      const start = h.clock.now().getTime();
      const made: { id: string; status: string; at: number }[] = [];
      for (let i = 0; i < 7; i++) {
        // One delivery per event and endpoint: each delivery gets a session of its own.
        const session = await createVerifySession(h);
        const [event] = await h.deps.db.query<{ id: string; type: string }>(
          'select id, type from events where session_id = $1 limit 1',
          [session.sessionId],
        );
        assert.ok(event);
        const id = h.deps.ids('dlv');
        const at = start + i * 1000;
        await insertDelivery(h.deps.db, {
          id,
          tenant_id: h.tenant.tenantId,
          environment: 'sandbox',
          webhook_id: webhookId,
          event_id: event.id,
          event_type: event.type,
          now: new Date(at),
          nextAttemptAt: null,
        });
        // One pending among the old ones; the rest delivered or failed for good.
        const status = i === 2 ? 'pending' : i % 2 === 0 ? 'delivered' : 'failed';
        await h.deps.db.query('update webhook_deliveries set status = $2 where id = $1', [id, status]);
        made.push({ id, status, at });
      }
      const cutoff = new Date(start + 5 * 1000); // the first five are older
      const remaining = async () =>
        (
          await h.deps.db.query<{ id: string }>('select id from webhook_deliveries where webhook_id = $1', [
            webhookId,
          ])
        )
          .map((row) => row.id)
          .sort();
      assert.equal(await purgeDeliveriesBefore(h.deps.db, cutoff, 2), 2);
      const oldestTwoFinished = made
        .filter((d) => d.at < cutoff.getTime() && d.status !== 'pending')
        .slice(0, 2);
      for (const gone of oldestTwoFinished) assert.ok(!(await remaining()).includes(gone.id), 'oldest first');
      assert.equal(await purgeDeliveriesBefore(h.deps.db, cutoff, 2), 2);
      assert.equal(await purgeDeliveriesBefore(h.deps.db, cutoff, 2), 0);
      const kept = made.filter((d) => d.at >= cutoff.getTime() || d.status === 'pending').map((d) => d.id);
      assert.deepEqual(await remaining(), kept.sort());
    });

    it('purges idempotency keys older than 24 hours', async () => {
      const sweeper = createRetentionSweeper(h.deps);
      const { token } = await createVerifySession(h);
      await verifyCall(h, 'POST', '/v1/verify/consent', {
        token,
        headers: { 'idempotency-key': 'retention-key' },
        body: { accepted: true, consent_version: 'v1' },
      });
      const count = async () =>
        (
          await h.deps.db.query<{ n: number }>(
            "select count(*)::int as n from idempotency_keys where key = 'retention-key'",
          )
        )[0]?.n;
      h.clock.advance(23 * 60 * 60 * 1000);
      await sweeper.runOnce();
      assert.equal(await count(), 1);
      h.clock.advance(2 * 60 * 60 * 1000);
      await sweeper.runOnce();
      assert.equal(await count(), 0);
    });

    it('purges console sign-in failures after a day and revocations of expired tokens', async () => {
      const sweeper = createRetentionSweeper(h.deps);
      const failed = await h.call('POST', '/v1/console/login', {
        body: { email: h.tenant.email, password: 'not the password' },
      });
      assert.equal(failed.status, 401);
      const login = await json(
        await h.call('POST', '/v1/console/login', {
          body: { email: h.tenant.email, password: h.tenant.password },
        }),
      );
      // A success clears that e-mail's failures; a failure for an unknown e-mail stays until the sweep.
      await h.call('POST', '/v1/console/login', { body: { email: 'nobody@tenant.test', password: 'x' } });
      const logout = await h.call('POST', '/v1/console/logout', { token: login['access_token'] });
      assert.ok(logout.status < 300, `logout answered ${logout.status}`);
      const rows = async (table: string) =>
        (await h.deps.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]?.n;
      assert.ok(((await rows('login_failures')) ?? 0) >= 1);
      assert.equal(await rows('revoked_tokens'), 1);
      h.clock.advance(2 * 60 * 60 * 1000); // past the token's hour: its revocation has no more use
      await sweeper.runOnce();
      assert.equal(await rows('revoked_tokens'), 0);
      assert.ok(((await rows('login_failures')) ?? 0) >= 1, 'failures are kept a day');
      h.clock.advance(23 * 60 * 60 * 1000);
      await sweeper.runOnce();
      assert.equal(await rows('login_failures'), 0);
    });
  });

  describe(`retention periods from configuration (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine, { config: { retention: { evidenceDaysAfterDecision: 7 } } });
    });
    after(() => h.close());

    it('deletes decided evidence after the configured 7 days', async () => {
      const images = await makeImages();
      const { sessionId, token } = await createVerifySession(h, { tier: 'tier1' });
      await verifyCall(h, 'POST', '/v1/verify/consent', {
        token,
        body: { accepted: true, consent_version: 'v1' },
      });
      await verifyCall(h, 'POST', '/v1/verify/documents', { token, form: documentForm(images.front) });
      await h.call('POST', `/v1/sandbox/sessions/${sessionId}/simulate`, {
        key: h.tenant.sandboxKey,
        body: { action: 'reject' },
      });
      const sweeper = createRetentionSweeper(h.deps);
      h.clock.advance(6 * DAY_MS);
      await sweeper.runOnce();
      const uploads = async () =>
        (
          await h.deps.db.query<{ n: number }>(
            'select count(*)::int as n from verify_uploads where session_id = $1',
            [sessionId],
          )
        )[0]?.n;
      assert.equal(await uploads(), 1);
      h.clock.advance(2 * DAY_MS);
      await sweeper.runOnce();
      assert.equal(await uploads(), 0);
    });

    it('refuses a period that is not a positive number of days at start-up', () => {
      for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        assert.throws(
          () =>
            createRetentionSweeper({
              ...h.deps,
              config: { ...h.deps.config, retention: { evidenceDaysAfterAbandonment: bad } },
            }),
          /evidenceDaysAfterAbandonment must be a positive number of days/,
        );
      }
      assert.equal(resolveRetention().evidenceAfterDecisionMs, 90 * DAY_MS);
      assert.equal(resolveRetention().evidenceAfterAbandonmentMs, 30 * DAY_MS);
    });
  });
}
