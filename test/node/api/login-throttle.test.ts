import assert from 'node:assert/strict';
import { PGlite } from '@electric-sql/pglite';
import { after, before, beforeEach, describe, it } from 'node:test';
import { migrate } from '../../../server/store/migrate.ts';
import { MIGRATIONS } from '../../../server/store/migrations/index.ts';
import { pgliteDatabase } from '../../../server/store/pglite-database.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

// Console logins are slowed, never locked (issue 24 items 4 and 6): growing delays per account and
// network, per account from anywhere (capped at 60 s) and per network, and the failures kept as keyed
// digests and networks. The clock is the harness's fake one, so every delay is checked to the second.

const HOUR = 60 * 60 * 1000;

for (const engine of testEngines()) {
  describe(`console login throttling (${engine})`, () => {
    let h: TestHarness;
    /** A fresh /24 per call, so each test's networks start with no failures. */
    let networkCounter = 0;
    const newNetwork = () => {
      networkCounter += 1;
      return `10.${Math.floor(networkCounter / 250)}.${networkCounter % 250}.7`;
    };
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());
    // Each test starts after the window of the one before: its failures no longer count.
    beforeEach(() => h.clock.advance(HOUR + 1000));

    const login = (email: string, password: string, address: string) =>
      h.call('POST', '/v1/console/login', {
        headers: { 'x-test-client-address': address },
        body: { email, password },
      });
    const wrong = (address: string, email = h.tenant.email) => login(email, 'not the password', address);
    const right = (address: string) => login(h.tenant.email, h.tenant.password, address);

    async function refusedFor(response: Response): Promise<number> {
      const body = await json(response);
      assert.equal(response.status, 429, `expected 429, got ${response.status} ${JSON.stringify(body)}`);
      assert.equal(body['code'], 'too_many_attempts');
      return Number(response.headers.get('retry-after'));
    }

    it('five wrong passwords from five networks do not stop the right password from a sixth', async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        assert.equal((await wrong(newNetwork())).status, 401);
      }
      const owner = await right(newNetwork());
      assert.equal(owner.status, 200, await owner.clone().text());
      assert.ok((await json(owner))['access_token']);
    });

    it('slows a guesser at one network with doubling delays up to 15 min, without checking the password', async () => {
      const guesser = newNetwork();
      // Three free failures: typos cost nothing.
      for (let failure = 1; failure <= 4; failure++) assert.equal((await wrong(guesser)).status, 401);
      // After the n-th failure (n > 3), the next try waits 2^(n-4) s, at most 900 s.
      // (Up to 14: the delays then add up to 32 min, well inside the hour the failures count.)
      for (let failures = 4; failures <= 14; failures++) {
        const expected = Math.min(900, 2 ** (failures - 4));
        assert.equal(await refusedFor(await wrong(guesser)), expected, `after ${failures} failures`);
        // The right password is refused too while the delay runs: a throttled try checks nothing.
        assert.equal(await refusedFor(await right(guesser)), expected);
        h.clock.advance(expected * 1000 - 1000);
        assert.equal((await wrong(guesser)).status, 429, 'a second early is still early');
        h.clock.advance(1000);
        if (failures === 6) {
          // Meanwhile the owner, elsewhere, logs in without waiting.
          assert.equal((await right(newNetwork())).status, 200);
        }
        assert.equal((await wrong(guesser)).status, 401);
      }
      // At the cap the guesser gets four tries an hour; the owner at that network, after the wait, gets in.
      const wait = await refusedFor(await right(guesser));
      assert.equal(wait, 900);
      h.clock.advance(wait * 1000);
      assert.equal((await right(guesser)).status, 200);
    });

    it('holds a guesser spread over many networks to one try a minute per account, never locking the owner out', async () => {
      // Ten free failures for the account from anywhere.
      for (let failure = 1; failure <= 11; failure++) assert.equal((await wrong(newNetwork())).status, 401);
      for (const expected of [1, 2, 4, 8, 16, 32, 60, 60, 60]) {
        assert.equal(await refusedFor(await wrong(newNetwork())), expected);
        h.clock.advance(expected * 1000);
        assert.equal((await wrong(newNetwork())).status, 401);
      }
      // The owner from a network of their own waits at most the 60 s cap, then logs in.
      const wait = await refusedFor(await right(newNetwork()));
      assert.ok(wait <= 60, `waited ${wait} s`);
      h.clock.advance(wait * 1000);
      assert.equal((await right(newNetwork())).status, 200);
    });

    it('slows a network spraying many accounts after 20 failures', async () => {
      const sprayer = newNetwork();
      for (let account = 1; account <= 21; account++) {
        assert.equal((await wrong(sprayer, `spray${account}@idv.test`)).status, 401);
      }
      assert.equal(await refusedFor(await login(h.other.email, h.other.password, sprayer)), 1);
      // Another network is not slowed by it.
      assert.equal((await login(h.other.email, h.other.password, newNetwork())).status, 200);
    });

    it('throttles an unknown e-mail exactly as a known one', async () => {
      const network = newNetwork();
      const unknown = 'nobody-here@idv.test';
      for (let failure = 1; failure <= 4; failure++) {
        assert.equal((await wrong(network)).status, 401);
        assert.equal((await wrong(network, unknown)).status, 401);
      }
      const known = await wrong(network);
      const other = await wrong(network, unknown);
      assert.equal(await refusedFor(known), 1);
      assert.equal(await refusedFor(other), 1);
    });

    it('forgets the failures after an hour of quiet, and a success forgets its own network’s', async () => {
      const network = newNetwork();
      for (let failure = 1; failure <= 4; failure++) assert.equal((await wrong(network)).status, 401);
      assert.equal(await refusedFor(await wrong(network)), 1);
      h.clock.advance(HOUR + 1000);
      for (let failure = 1; failure <= 4; failure++) assert.equal((await wrong(network)).status, 401);
      h.clock.advance(1000);
      assert.equal((await right(network)).status, 200);
      // Its own typos then start from nothing again.
      for (let failure = 1; failure <= 4; failure++) assert.equal((await wrong(network)).status, 401);
    });

    it('keeps a keyed digest of the typed e-mail and the /24, never the e-mail or the address', async () => {
      const address = '198.51.77.201';
      const typed = 'Someone.Typed@Example.test';
      await login(typed, 'a wrong password', address);
      const rows = await h.deps.db.query<Record<string, unknown>>(
        'select * from login_failures where network = $1',
        ['198.51.77.0/24'],
      );
      assert.equal(rows.length, 1);
      const stored = JSON.stringify(rows);
      assert.deepEqual(Object.keys(rows[0]!).sort(), ['account_key', 'failed_at', 'network']);
      for (const plaintext of [typed, typed.toLowerCase(), 'someone.typed', address]) {
        assert.ok(!stored.toLowerCase().includes(plaintext.toLowerCase()), `${plaintext} stored`);
      }
      assert.match(String(rows[0]!['account_key']), /^[0-9A-Za-z]{20,}$/);
      // The digest is keyed (the field cipher's index key): the same e-mail, typed differently, is one account.
      await login(' someone.typed@example.TEST ', 'another wrong one', address);
      const keys = await h.deps.db.query<{ account_key: string }>(
        'select distinct account_key from login_failures where network = $1',
        ['198.51.77.0/24'],
      );
      assert.equal(keys.length, 1);
    });
  });
}

describe('migration 15: login failures without plaintext', () => {
  it('drops the plaintext rows and their columns', async () => {
    const db = pgliteDatabase(await PGlite.create());
    try {
      await migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version < 15),
      );
      await db.query(
        "insert into login_failures (email_key, ip, failed_at) values ('a@b.test', '203.0.113.9', now())",
      );
      await migrate(db);
      const columns = await db.query<{ column_name: string }>(
        "select column_name from information_schema.columns where table_name = 'login_failures' order by 1",
      );
      assert.deepEqual(
        columns.map((column) => column.column_name),
        ['account_key', 'failed_at', 'network'],
      );
      assert.equal((await db.query('select * from login_failures')).length, 0);
    } finally {
      await db.close();
    }
  });
});
