// Rate limits and the console login throttle hold across instances: two apps on one database (one
// PGlite, or two pools on PostgreSQL when TEST_DATABASE_URL is set) count against one budget. With a
// memory counter each (the browser mock's choice), they do not: the contrast shows the test can fail.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { memoryRateLimitCounter } from '../../../server/http/rate-limit-counter.ts';
import { testEngines } from '../support/test-database.ts';
import { type Instance, startTwoInstances, type TwoInstances } from './two-instances.ts';

const READS = 8;

function remaining(response: Response): number {
  const match = (response.headers.get('ratelimit') ?? '').match(/^"read";r=(\d+);t=\d+$/);
  assert.ok(match, `no ratelimit header: ${response.headers.get('ratelimit')}`);
  return Number(match[1]);
}

async function readSessions(instance: Instance, key: string): Promise<Response> {
  return instance.call('GET', '/v1/sessions', { headers: { 'x-api-key': key } });
}

async function verifyToken(instance: Instance, key: string): Promise<string> {
  const created = await instance.call('POST', '/v1/sessions', {
    headers: { 'x-api-key': key },
    body: { country: 'DEU', flow: 'user', tier: 'tier1' },
  });
  assert.equal(created.status, 201, await created.clone().text());
  return String(((await created.json()) as { verify_url: string }).verify_url).split('/verify/')[1] as string;
}

for (const engine of testEngines()) {
  describe(`limits shared by two instances on one database (${engine})`, () => {
    let pair: TwoInstances;
    before(async () => {
      pair = await startTwoInstances(engine, { config: { rateLimits: { reads: READS, writes: 100_000 } } });
    });
    after(() => pair.close());

    it("counts an API key's requests on both instances against one limit", async () => {
      const key = pair.tenant.productionKey;
      for (let i = 1; i <= 5; i++) assert.equal(remaining(await readSessions(pair.first, key)), READS - i);
      // The second instance sees the first one's five.
      const onSecond = await readSessions(pair.second, key);
      assert.equal(onSecond.status, 200);
      assert.equal(remaining(onSecond), READS - 6);
      assert.equal(remaining(await readSessions(pair.second, key)), READS - 7);
      assert.equal(remaining(await readSessions(pair.first, key)), 0);
      for (const instance of [pair.second, pair.first]) {
        const limited = await readSessions(instance, key);
        assert.equal(limited.status, 429);
        assert.equal(((await limited.json()) as { code: string }).code, 'rate_limited');
        assert.ok(Number(limited.headers.get('retry-after')) >= 1);
        assert.equal(limited.headers.get('ratelimit-policy'), `"read";q=${READS};w=60`);
        assert.match(limited.headers.get('ratelimit') ?? '', /^"read";r=0;t=\d+$/);
      }
      pair.clock.advance(60_000);
      assert.equal(remaining(await readSessions(pair.second, key)), READS - 1);
    });

    it('lets exactly the limit through when both instances are hit at once', async () => {
      const key = pair.tenant.productionKey;
      pair.clock.advance(60_000);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => readSessions(i % 2 === 0 ? pair.first : pair.second, key)),
      );
      const statuses = responses.map((response) => response.status);
      assert.equal(statuses.filter((status) => status === 200).length, READS);
      assert.equal(statuses.filter((status) => status === 429).length, 20 - READS);
    });

    it('deletes finished windows as the next window starts', async () => {
      const key = pair.tenant.productionKey;
      pair.clock.advance(60_000);
      await readSessions(pair.first, key);
      const rows = await pair.db.query<{ stale: number; current: number }>(
        `select count(*) filter (where expires_at <= $1)::int as stale,
                count(*) filter (where expires_at > $1)::int as current
           from rate_limit_windows`,
        [pair.clock.now()],
      );
      assert.deepEqual(rows[0], { stale: 0, current: 1 });
    });

    it("counts an end-user session's requests on both instances against one limit", async () => {
      const token = await verifyToken(pair.first, pair.tenant.sandboxKey);
      pair.clock.advance(60_000);
      const read = (instance: Instance) =>
        instance.call('GET', '/v1/verify/session', { headers: { 'x-verify-token': token } });
      // 120 reads per session and minute (VERIFY_RATE_LIMITS), split between the two instances.
      for (let i = 0; i < 60; i++) assert.equal((await read(pair.first)).status, 200);
      for (let i = 0; i < 60; i++) assert.equal((await read(pair.second)).status, 200);
      const limited = await read(pair.first);
      assert.equal(limited.status, 429);
      assert.equal(((await limited.json()) as { code: string }).code, 'rate_limited');
      assert.equal((await read(pair.second)).status, 429);
    });

    it('slows an account on the second instance after failures on the first', async () => {
      const headers = { 'x-test-client-address': '198.51.100.23' };
      const login = (instance: Instance, password: string) =>
        instance.call('POST', '/v1/console/login', {
          headers,
          body: { email: pair.tenant.email, password },
        });
      for (let attempt = 0; attempt < 5; attempt++) {
        pair.clock.advance(60_000); // past each growing delay (features/auth/login-throttle.ts)
        assert.equal((await login(pair.first, 'wrong password')).status, 401);
      }
      const blocked = await login(pair.second, pair.tenant.password);
      assert.equal(blocked.status, 429);
      assert.equal(((await blocked.json()) as { code: string }).code, 'too_many_attempts');
      assert.ok(Number(blocked.headers.get('retry-after')) > 0);
      pair.clock.advance(15 * 60 * 1000 + 1000);
      assert.equal((await login(pair.second, pair.tenant.password)).status, 200);
    });
  });
}

describe('two instances with a memory counter each (the browser mock’s choice)', () => {
  let pair: TwoInstances;
  before(async () => {
    pair = await startTwoInstances('pglite', {
      config: { rateLimits: { reads: READS, writes: 100_000 } },
      deps: () => ({ rateLimitCounter: memoryRateLimitCounter() }),
    });
  });
  after(() => pair.close());

  it('count separately, and write nothing to the database', async () => {
    const key = pair.tenant.productionKey;
    for (let i = 1; i <= 5; i++) assert.equal(remaining(await readSessions(pair.first, key)), READS - i);
    assert.equal(remaining(await readSessions(pair.second, key)), READS - 1);
    const rows = await pair.db.query<{ count: number }>(
      'select count(*)::int as count from rate_limit_windows',
    );
    assert.equal(rows[0]?.count, 0);
  });
});
