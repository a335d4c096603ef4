// A process killed right after the effect of an Idempotency-Key request committed (the session created,
// submitted or decided) and before anything else: the retry, on another instance, must get the first
// answer replayed, not run the effect again (a second session, or 409 on a session already submitted).
// The "kill" here is a database wrapper that refuses every statement once the effect's statement (or its
// transaction) committed, as a dead process sends none.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { testEngines } from '../support/test-database.ts';
import { type Mortal, mortalDatabase } from './mortal-database.ts';
import { type Instance, startTwoInstances, type TwoInstances } from './two-instances.ts';

const BODY = { country: 'DEU', flow: 'user', tier: 'tier1', sandbox: { outcome: 'approved' } };

for (const engine of testEngines()) {
  describe(`an Idempotency-Key answer commits with its effect (${engine})`, () => {
    let pair: TwoInstances;
    const mortals: Mortal[] = [];
    before(async () => {
      pair = await startTwoInstances(engine, {
        deps: (db) => {
          const { db: wrapped, mortal } = mortalDatabase(db);
          mortals.push(mortal);
          return { db: wrapped };
        },
      });
    });
    after(() => pair.close());
    afterEach(() => first().restart());

    const first = () => mortals[0] as Mortal;
    const post = (instance: Instance, path: string, key: string, body?: unknown) =>
      instance.call('POST', path, {
        headers: { 'x-api-key': pair.tenant.sandboxKey, 'idempotency-key': key },
        ...(body === undefined ? {} : { body }),
      });
    const count = async (sql: string, params: unknown[] = []) =>
      (await pair.db.query<{ count: number }>(sql, params))[0]?.count;

    /** A sandbox session with every step done, as the end-user leaves it before the submit. */
    async function readySession(): Promise<string> {
      const created = await post(pair.second, '/v1/sessions', crypto.randomUUID(), BODY);
      const { session_id: id } = (await created.json()) as { session_id: string };
      await pair.db.query(
        `update sessions set status = 'collecting',
           steps = (select jsonb_agg(step || '{"status":"completed"}') from jsonb_array_elements(steps) step)
         where id = $1`,
        [id],
      );
      return id;
    }

    it('replays the create of a process killed right after the insert', async () => {
      const sessions = await count('select count(*)::int as count from sessions');
      first().dieAfter(/insert into sessions/);
      // What the killed process answered never reaches the client.
      await post(pair.first, '/v1/sessions', 'create-then-die', BODY);
      first().restart();
      const retried = await post(pair.second, '/v1/sessions', 'create-then-die', BODY);
      assert.equal(retried.status, 201, await retried.clone().text());
      assert.equal(retried.headers.get('idempotent-replayed'), 'true', 'replayed, not created again');
      const { session_id: id } = (await retried.json()) as { session_id: string };
      assert.equal(await count('select count(*)::int as count from sessions'), (sessions ?? 0) + 1);
      assert.equal(await count('select count(*)::int as count from sessions where id = $1', [id]), 1);
    });

    it('replays the submit of a process killed right after its transaction committed', async () => {
      const id = await readySession();
      first().dieAfter(/insert into review_jobs/);
      const path = `/v1/sessions/${id}/submit`;
      await post(pair.first, path, 'submit-then-die');
      first().restart();
      const retried = await post(pair.second, path, 'submit-then-die');
      assert.equal(retried.status, 200, await retried.clone().text());
      assert.equal(retried.headers.get('idempotent-replayed'), 'true');
      assert.equal(((await retried.json()) as { status: string }).status, 'processing');
      assert.equal(
        await count('select count(*)::int as count from review_jobs where session_id = $1', [id]),
        1,
      );
    });

    it('runs the request again when the process died before its effect committed', async () => {
      const id = await readySession();
      // Dies inside the transaction, before its commit: nothing happened, so the retry submits.
      first().dieAt(/insert into review_jobs/);
      const path = `/v1/sessions/${id}/submit`;
      assert.equal((await post(pair.first, path, 'die-before-commit')).status, 500);
      first().restart();
      const retried = await post(pair.second, path, 'die-before-commit');
      assert.equal(retried.status, 200, await retried.clone().text());
      assert.equal(retried.headers.get('idempotent-replayed'), null, 'ran, not replayed');
    });
  });
}
