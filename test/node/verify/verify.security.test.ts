import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer } from '../../../server/runtime/node/start-server.ts';
import {
  createHarness,
  json,
  TEST_BASE_URL,
  TEST_VERIFY_BASE_URL,
  type TestHarness,
} from '../support/test-app.ts';
import { createTestDatabase, testEngines } from '../support/test-database.ts';
import {
  ANNA,
  annaMrz,
  createVerifySession,
  documentForm,
  framesForm,
  makeImages,
  verifyCall,
} from './verify-support.ts';

const ALLOWED = 'https://shop.tenant-a.example';
const STRANGER = 'https://evil.example';

function preflight(h: TestHarness, origin: string) {
  return h.app.request(`${TEST_BASE_URL}/v1/verify/documents`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-verify-token',
    },
  });
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

for (const engine of testEngines()) {
  describe(`end-user endpoints, security (${engine})`, () => {
    let h: TestHarness;
    let images: Awaited<ReturnType<typeof makeImages>>;
    before(async () => {
      h = await createHarness(engine);
      images = await makeImages();
      const admin = await h.login();
      const update = await h.call('PATCH', '/v1/tenant', {
        token: admin,
        body: { allowed_origins: [ALLOWED] },
      });
      assert.equal(update.status, 200);
    });
    after(() => h.close());

    it('answers a preflight with the verify headers; a preflight cannot name the session, so any origin gets one', async () => {
      for (const origin of [ALLOWED, STRANGER, TEST_VERIFY_BASE_URL]) {
        const response = await preflight(h, origin);
        assert.equal(response.status, 204);
        assert.equal(response.headers.get('access-control-allow-origin'), origin);
        assert.match(response.headers.get('access-control-allow-headers') ?? '', /x-verify-token/);
        assert.match(response.headers.get('access-control-allow-methods') ?? '', /PUT/);
      }
    });

    it('lets the tenant’s allowed origin and the hosted origin call a production session, and refuses others before acting', async () => {
      const { token } = await createVerifySession(h, {}, { key: h.tenant.productionKey });
      for (const origin of [ALLOWED, TEST_VERIFY_BASE_URL]) {
        const response = await verifyCall(h, 'GET', '/v1/verify/session', { token, headers: { origin } });
        assert.equal(response.status, 200, origin);
        assert.equal(response.headers.get('access-control-allow-origin'), origin);
      }
      const refused = await verifyCall(h, 'POST', '/v1/verify/consent', {
        token,
        body: { accepted: false, consent_version: 'v1' },
        headers: { origin: STRANGER },
      });
      assert.equal(refused.status, 403);
      assert.equal((await json(refused))['code'], 'origin_not_allowed');
      assert.equal(
        refused.headers.get('access-control-allow-origin'),
        null,
        'the page cannot read the answer',
      );
      const view = await json(await verifyCall(h, 'GET', '/v1/verify/session', { token }));
      assert.equal(view['status'], 'collecting', 'the refused consent was not recorded');
    });

    it('lets any origin call a sandbox session', async () => {
      const { token } = await createVerifySession(h);
      const response = await verifyCall(h, 'GET', '/v1/verify/session', {
        token,
        headers: { origin: STRANGER },
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('access-control-allow-origin'), STRANGER);
    });

    it('lets the page read why a link is invalid (CORS on errors), with no-store', async () => {
      const response = await verifyCall(h, 'GET', '/v1/verify/session', {
        token: 'B'.repeat(28),
        headers: { origin: ALLOWED },
      });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('access-control-allow-origin'), ALLOWED);
      assert.equal(response.headers.get('cache-control'), 'no-store');
    });

    it('never lets a token act on another session: a foreign challenge is 404 and costs nothing', async () => {
      const a = await createVerifySession(h);
      const b = await createVerifySession(h);
      for (const { token } of [a, b]) {
        await verifyCall(h, 'POST', '/v1/verify/consent', {
          token,
          body: { accepted: true, consent_version: 'v1' },
        });
      }
      const { challenge_id: challengeOfB } = await json(
        await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token: b.token }),
      );
      const response = await verifyCall(h, 'POST', '/v1/verify/liveness', {
        token: a.token,
        form: framesForm(challengeOfB, images.frames),
      });
      assert.equal(response.status, 404);
      const viewB = await json(await verifyCall(h, 'GET', '/v1/verify/session', { token: b.token }));
      assert.equal(viewB['steps'][2].attempts_remaining, 3);
      const accepted = await json(
        await verifyCall(h, 'POST', '/v1/verify/liveness', {
          token: b.token,
          form: framesForm(challengeOfB, images.frames),
        }),
      );
      assert.equal(accepted['status'], 'accepted', 'B can still answer its own challenge');
    });

    it('revokes the old link and its handoff links when the tenant issues a fresh verify_url', async () => {
      const { sessionId, token } = await createVerifySession(h);
      const handoff = await json(await verifyCall(h, 'POST', '/v1/verify/handoff', { token }));
      const phoneToken = String(handoff['handoff_url']).split('/verify/')[1];
      const refreshed = await json(
        await h.call('POST', `/v1/sessions/${sessionId}/verify-url`, { key: h.tenant.sandboxKey }),
      );
      const freshToken = String(refreshed['verify_url']).split('/verify/')[1];
      assert.equal((await verifyCall(h, 'GET', '/v1/verify/session', { token })).status, 401);
      assert.equal((await verifyCall(h, 'GET', '/v1/verify/session', { token: phoneToken })).status, 401);
      assert.equal((await verifyCall(h, 'GET', '/v1/verify/session', { token: freshToken })).status, 200);
    });

    it('stores no typed detail, MRZ, IP, user agent or image byte in plaintext, and echoes none to the end-user', async () => {
      const { token } = await createVerifySession(h, { external_user_reference: 'scan-me' });
      const userAgent = 'ScanAgent/9.9 (unique-ua-marker)';
      const ip = '198.51.100.77';
      await verifyCall(h, 'POST', '/v1/verify/consent', {
        token,
        body: { accepted: true, consent_version: 'v1' },
        headers: { 'user-agent': userAgent, 'x-test-client-address': ip },
      });
      await verifyCall(h, 'POST', '/v1/verify/documents', { token, form: documentForm(images.front) });
      await verifyCall(h, 'POST', '/v1/verify/documents', {
        token,
        form: documentForm(images.back, { side: 'back' }),
      });
      const details = await verifyCall(h, 'PUT', '/v1/verify/details', {
        token,
        body: { ...ANNA, mrz: annaMrz() },
      });
      assert.equal(details.status, 200);
      const { challenge_id: challengeId } = await json(
        await verifyCall(h, 'POST', '/v1/verify/liveness/challenge', { token }),
      );
      await verifyCall(h, 'POST', '/v1/verify/liveness', {
        token,
        form: framesForm(challengeId, images.frames),
      });

      const secrets = [
        ANNA.first_name,
        ANNA.last_name,
        ANNA.document_number,
        ANNA.date_of_birth,
        'ERIKSSON',
        'L898902C3',
        ip,
        'unique-ua-marker',
        'DEU',
      ];
      const tables = [
        'verify_uploads',
        'verify_details',
        'verify_consents',
        'liveness_challenges',
        'verify_handoffs',
        'sessions',
        'events',
      ];
      for (const table of tables) {
        const rows = await h.deps.db.query(`select * from ${table}`);
        const dump = JSON.stringify(rows);
        for (const secret of secrets) {
          if (secret === 'DEU' && table === 'sessions') continue; // the session's country is not personal data
          // Three letters turn up by chance in kilobytes of base64url ciphertext (about one table in
          // fifteen): the nationality counts only as a token of its own, as plaintext would stand.
          const found =
            secret === 'DEU' ? /(^|[^A-Za-z0-9_-])DEU([^A-Za-z0-9_-]|$)/.test(dump) : dump.includes(secret);
          assert.ok(!found, `${table} holds "${secret}" in plaintext`);
        }
      }
      const imageSamples = [images.front, images.back, ...images.frames].map((image) =>
        image.subarray(600, 632),
      );
      let blobCount = 0;
      for (const [, stored] of h.blobs.entries()) {
        blobCount += 1;
        assert.deepEqual(
          [...stored.subarray(0, 4)],
          [0x49, 0x44, 0x56, 0x42],
          'every blob is in the encrypted format',
        );
        for (const sample of imageSamples) assert.ok(!contains(stored, sample), 'no image bytes at rest');
      }
      assert.ok(blobCount >= 5);

      const view = JSON.stringify(await json(await verifyCall(h, 'GET', '/v1/verify/session', { token })));
      for (const secret of [...secrets.filter((secret) => secret !== 'DEU'), 'scan-me']) {
        assert.ok(!view.includes(secret), `the end-user view shows "${secret}"`);
      }
    });

    it('limits each session’s requests per minute with 429 and retry-after', async () => {
      const { token } = await createVerifySession(h);
      let limited: Response | undefined;
      for (let i = 0; i < 200 && !limited; i++) {
        const response = await verifyCall(h, 'GET', '/v1/verify/session', { token });
        if (response.status === 429) limited = response;
      }
      assert.ok(limited, 'the limit was reached');
      assert.equal((await json(limited))['code'], 'rate_limited');
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      const other = await createVerifySession(h);
      assert.equal((await verifyCall(h, 'GET', '/v1/verify/session', { token: other.token })).status, 200);
      h.clock.advance(61_000);
      assert.equal((await verifyCall(h, 'GET', '/v1/verify/session', { token })).status, 200);
    });
  });
}

describe('end-user uploads over a real socket', () => {
  it('refuses a 20 MB upload with 413 without reading it all, and stays up for the next request', async () => {
    const h = await createHarness('pglite', { db: await createTestDatabase('pglite') });
    const server = await startServer(h.deps, { port: 0, host: '127.0.0.1' });
    try {
      const { token } = await createVerifySession(h);
      await verifyCall(h, 'POST', '/v1/verify/consent', {
        token,
        body: { accepted: true, consent_version: 'v1' },
      });
      const huge = new Uint8Array(20 * 1024 * 1024);
      huge.set([0xff, 0xd8, 0xff, 0xe0]);
      const response = await fetch(`${server.url}/v1/verify/documents`, {
        method: 'POST',
        headers: { 'x-verify-token': token },
        body: documentForm(huge),
      });
      assert.equal(response.status, 413);
      assert.equal((await json(response))['code'], 'payload_too_large');
      const view = await fetch(`${server.url}/v1/verify/session`, { headers: { 'x-verify-token': token } });
      assert.equal(view.status, 200);
    } finally {
      await server.close();
    }
  });
});
