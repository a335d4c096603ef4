import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INVALID_VERIFY_TOKEN_LIMIT } from '../../../server/http/verify-rate-limit.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { createVerifySession, verifyCall } from '../verify/verify-support.ts';

/** A well-formed token that no session has. */
const wrongToken = (index: number) => `Wrong${String(index).padStart(23, '0')}`;

for (const engine of testEngines()) {
  describe(`invalid verify tokens are throttled per client address (${engine})`, () => {
    let h: TestHarness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    const from = (address: string, token: string) =>
      verifyCall(h, 'GET', '/v1/verify/session', { token, headers: { 'x-test-client-address': address } });

    it('answers 429 with retry-after past the limit, before any token lookup, for that address only', async () => {
      const guesser = '198.51.100.7';
      for (let i = 0; i < INVALID_VERIFY_TOKEN_LIMIT; i++) {
        const response = await from(guesser, i % 2 ? wrongToken(i) : 'not a token');
        assert.equal(response.status, 401, `wrong token ${i} is refused as invalid`);
        assert.equal((await json(response))['code'], 'invalid_token');
      }
      const limited = await from(guesser, wrongToken(999));
      assert.equal(limited.status, 429);
      assert.equal((await json(limited))['code'], 'rate_limited');
      const retryAfter = Number(limited.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 300, `retry-after ${retryAfter}`);

      // Before any lookup: the database is not asked at all while the address is refused.
      const { token } = await createVerifySession(h);
      const query = h.deps.db.query.bind(h.deps.db);
      let queries = 0;
      h.deps.db.query = ((...args: Parameters<typeof query>) => {
        queries += 1;
        return query(...args);
      }) as typeof query;
      try {
        const refused = await from(guesser, token);
        assert.equal(refused.status, 429, 'even a valid token waits out the window');
        assert.equal(queries, 0, 'no query for a refused address');
      } finally {
        h.deps.db.query = query;
      }

      // Another address (and another host's IPv6 /48) is not affected.
      assert.equal((await from('198.51.100.8', token)).status, 200);
      assert.equal((await from('2001:db8:1::5', token)).status, 200);

      // The next window lets the address in again.
      h.clock.advance(retryAfter * 1000);
      assert.equal((await from(guesser, token)).status, 200);
    });

    it('counts an IPv6 host by its /48, so rotating through its own block does not help', async () => {
      for (let i = 0; i < INVALID_VERIFY_TOKEN_LIMIT; i++) {
        const response = await from(`2001:db8:77:${i.toString(16)}::1`, wrongToken(i));
        assert.equal(response.status, 401);
      }
      const limited = await from('2001:db8:77:ffff::9', wrongToken(1000));
      assert.equal(limited.status, 429);
    });

    it('does not count valid tokens against the address', async () => {
      const { token } = await createVerifySession(h);
      for (let i = 0; i < INVALID_VERIFY_TOKEN_LIMIT + 5; i++) {
        assert.equal((await from('192.0.2.44', token)).status, 200);
      }
      assert.equal((await from('192.0.2.44', wrongToken(1))).status, 401);
    });
  });
}
