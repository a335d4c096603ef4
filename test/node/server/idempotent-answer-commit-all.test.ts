// Issue 24, item 8: every operation that accepts an Idempotency-Key and whose effect must not run twice
// stores its answer in the transaction of its effect. For each, the process is "killed" right after that
// transaction commits (mortal-database.ts) and the client's retry, on the other instance, must get the
// first answer replayed (`idempotent-replayed: true`, the same body), not run the effect again: a second
// API key or webhook (whose secrets the client never saw), a second rotation, a second link or challenge,
// a second upload spending an attempt, 409 on a session the first attempt already closed.
// (Session create, submit, verify complete and review: idempotent-answer-commit.test.ts. The PUTs and
// PATCHes, verify details and webhook or watchlist updates, set a state and may simply run again; the
// webhook test sends a delivery whose outcome is the answer, and sending another test is harmless.)
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { sharpImageAnalyzer } from '../../../server/runtime/node/sharp-image-analyzer.ts';
import { memoryBlobStore } from '../../../server/store/blobs/memory-blob-store.ts';
import { documentJpeg } from '../evidence/synthetic-images.ts';
import { testEngines } from '../support/test-database.ts';
import { type Mortal, mortalDatabase } from './mortal-database.ts';
import { type Instance, startTwoInstances, type TwoInstances } from './two-instances.ts';

for (const engine of testEngines()) {
  describe(`every idempotent operation commits its answer with its effect (${engine})`, () => {
    let pair: TwoInstances;
    let consoleToken: string;
    const mortals: Mortal[] = [];
    before(async () => {
      const blobs = memoryBlobStore();
      pair = await startTwoInstances(engine, {
        deps: (db) => {
          const { db: wrapped, mortal } = mortalDatabase(db);
          mortals.push(mortal);
          return { db: wrapped, images: sharpImageAnalyzer(), blobs };
        },
      });
      const login = await pair.second.call('POST', '/v1/console/login', {
        body: { email: pair.tenant.email, password: pair.tenant.password },
      });
      consoleToken = ((await login.json()) as { access_token: string }).access_token;
    });
    after(() => pair.close());
    afterEach(() => mortals[0]?.restart());

    const tenantHeaders = (key: string) => ({ 'x-api-key': pair.tenant.sandboxKey, 'idempotency-key': key });
    const consoleHeaders = (key: string) => ({
      authorization: `Bearer ${consoleToken}`,
      'x-environment': 'sandbox',
      'idempotency-key': key,
    });

    /**
     * Sends `send` on the first instance, which dies once `effect` committed; then the same request on the
     * second. Returns the retry's answer after checking that it is the replayed first one.
     */
    async function killedThenRetried(
      effect: RegExp,
      send: (instance: Instance) => Promise<Response>,
      expectedStatus: number,
    ): Promise<Record<string, unknown>> {
      mortals[0]?.dieAfter(effect);
      // What the killed process answered never reaches the client.
      await send(pair.first);
      mortals[0]?.restart();
      const retried = await send(pair.second);
      const text = await retried.text();
      assert.equal(retried.status, expectedStatus, text);
      assert.equal(retried.headers.get('idempotent-replayed'), 'true', `replayed, not run again: ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    }

    const count = async (sql: string, params: unknown[] = []) =>
      (await pair.db.query<{ count: number }>(sql, params))[0]?.count;

    async function newSession(): Promise<{ id: string; token: string }> {
      const created = await pair.second.call('POST', '/v1/sessions', {
        headers: { 'x-api-key': pair.tenant.sandboxKey },
        body: { country: 'DEU', flow: 'user', tier: 'tier2' },
      });
      const body = (await created.json()) as { session_id: string; verify_url: string };
      return { id: body.session_id, token: body.verify_url.split('/verify/')[1] as string };
    }

    const verify = (token: string, key: string, body?: unknown) => ({
      headers: { 'x-verify-token': token, 'idempotency-key': key },
      ...(body === undefined ? {} : { body }),
    });

    async function consented(): Promise<{ id: string; token: string }> {
      const session = await newSession();
      const consent = await pair.second.call(
        'POST',
        '/v1/verify/consent',
        verify(session.token, crypto.randomUUID(), { accepted: true, consent_version: 'v1' }),
      );
      assert.equal(consent.status, 200);
      return session;
    }

    it('API key create: the secret shown once is replayed, no second key', async () => {
      const keys = await count('select count(*)::int as count from api_keys');
      const body = { name: 'ci', environment: 'sandbox' };
      const answer = await killedThenRetried(
        /insert into api_keys/,
        (instance) =>
          instance.call('POST', '/v1/api-keys', { headers: consoleHeaders('key-then-die'), body }),
        201,
      );
      assert.match(String(answer['secret']), /^sk_sandbox_/);
      assert.equal(await count('select count(*)::int as count from api_keys'), (keys ?? 0) + 1);
    });

    it('webhook create: the signing secret is replayed, no second endpoint', async () => {
      const body = { url: 'https://receiver.example/hook', events: ['session.created'] };
      const answer = await killedThenRetried(
        /insert into webhooks/,
        (instance) => instance.call('POST', '/v1/webhooks', { headers: tenantHeaders('wh-then-die'), body }),
        201,
      );
      assert.equal(await count('select count(*)::int as count from webhooks where url = $1', [body.url]), 1);
      assert.ok(answer['secret']);
    });

    it('webhook secret rotation: the new secret is replayed, not rotated again', async () => {
      const created = await pair.second.call('POST', '/v1/webhooks', {
        headers: { 'x-api-key': pair.tenant.sandboxKey },
        body: { url: 'https://receiver.example/rotate', events: ['session.created'] },
      });
      const { webhook_id: id } = (await created.json()) as { webhook_id: string };
      const answer = await killedThenRetried(
        /update webhooks/,
        (instance) =>
          instance.call('POST', `/v1/webhooks/${id}/rotate-secret`, {
            headers: tenantHeaders('rotate-then-die'),
          }),
        200,
      );
      // Rotated once: the secret the answer carries is the one that signs now (the previous is the original).
      const rotatedAgain = await pair.second.call('POST', `/v1/webhooks/${id}/rotate-secret`, {
        headers: tenantHeaders('rotate-then-die'),
      });
      assert.equal(((await rotatedAgain.json()) as { secret: string }).secret, answer['secret']);
    });

    it('session cancel: replayed, not 409 on the session it cancelled', async () => {
      const { id } = await newSession();
      const answer = await killedThenRetried(
        /update sessions/,
        (instance) =>
          instance.call('DELETE', `/v1/sessions/${id}`, { headers: tenantHeaders(`cancel-${id}`) }),
        200,
      );
      assert.equal(answer['status'], 'cancelled');
    });

    it('verify link refresh: the new link is replayed, not a third one', async () => {
      const { id } = await newSession();
      const answer = await killedThenRetried(
        /update sessions/,
        (instance) =>
          instance.call('POST', `/v1/sessions/${id}/verify-url`, { headers: tenantHeaders(`url-${id}`) }),
        200,
      );
      const token = String(answer['verify_url']).split('/verify/')[1] as string;
      const viewed = await pair.second.call('GET', '/v1/verify/session', {
        headers: { 'x-verify-token': token },
      });
      assert.equal(viewed.status, 200, 'the replayed link is the one that works');
    });

    it('consent refused: replayed, not 409 on the session the refusal cancelled', async () => {
      const { token } = await newSession();
      const answer = await killedThenRetried(
        /insert into verify_consents/,
        (instance) =>
          instance.call(
            'POST',
            '/v1/verify/consent',
            verify(token, 'refuse-then-die', { accepted: false, consent_version: 'v1' }),
          ),
        200,
      );
      assert.equal(answer['session_status'], 'cancelled');
    });

    it('liveness challenge: the same challenge is replayed, not a second one', async () => {
      const { id, token } = await consented();
      const answer = await killedThenRetried(
        /insert into liveness_challenges/,
        (instance) =>
          instance.call('POST', '/v1/verify/liveness/challenge', verify(token, 'challenge-then-die')),
        201,
      );
      assert.equal(
        await count('select count(*)::int as count from liveness_challenges where session_id = $1', [id]),
        1,
      );
      assert.match(String(answer['challenge_id']), /^lvc_/);
    });

    it('handoff: the same link is replayed, not a second one', async () => {
      const { id, token } = await newSession();
      const answer = await killedThenRetried(
        /insert into verify_handoffs/,
        (instance) => instance.call('POST', '/v1/verify/handoff', verify(token, 'handoff-then-die')),
        201,
      );
      assert.equal(
        await count('select count(*)::int as count from verify_handoffs where session_id = $1', [id]),
        1,
      );
      assert.ok(answer['handoff_url']);
    });

    it('document upload: replayed, no second upload', async () => {
      const { id, token } = await consented();
      const image = await documentJpeg({ seed: 3 });
      const upload = (instance: Instance) => {
        const form = new FormData();
        for (const [name, value] of Object.entries({
          step: 'id_document',
          document_type: 'id_card',
          issuing_country: 'DEU',
          side: 'front',
        }))
          form.set(name, value);
        form.set('image', new File([image as Uint8Array<ArrayBuffer>], 'front.jpg', { type: 'image/jpeg' }));
        return Promise.resolve(
          instance.app.request('http://api.idv.test/v1/verify/documents', {
            method: 'POST',
            headers: { 'x-verify-token': token, 'idempotency-key': 'upload-then-die' },
            body: form,
          }),
        );
      };
      const answer = await killedThenRetried(/insert into verify_uploads/, upload, 201);
      assert.equal(
        await count('select count(*)::int as count from verify_uploads where session_id = $1', [id]),
        1,
      );
      assert.equal(answer['object'], 'upload');
    });
  });
}
