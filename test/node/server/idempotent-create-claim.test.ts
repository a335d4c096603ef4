// Session create claims its Idempotency-Key in the statement that inserts the session (no statement of its
// own for the key: bench:api's idempotent create). Concurrent attempts with one key, on two instances,
// create one session; every other attempt is answered as a retry (the same answer replayed, or 409 while
// the first is not committed); the same key with another body is 422; a refusal is stored and replayed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testEngines } from '../support/test-database.ts';
import { type Instance, startTwoInstances, type TwoInstances } from './two-instances.ts';

const BODY = { country: 'DEU', flow: 'user', tier: 'tier1' };

for (const engine of testEngines()) {
  describe(`session create claims its Idempotency-Key with the insert (${engine})`, () => {
    let pair: TwoInstances;
    before(async () => {
      pair = await startTwoInstances(engine);
    });
    after(() => pair.close());

    const create = (instance: Instance, key: string, body: unknown = BODY) =>
      instance.call('POST', '/v1/sessions', {
        headers: { 'x-api-key': pair.tenant.sandboxKey, 'idempotency-key': key },
        body,
      });
    const sessions = async () =>
      (await pair.db.query<{ count: number }>('select count(*)::int as count from sessions'))[0]?.count ?? 0;

    it('creates one session for eight attempts at once with one key', async () => {
      const before = await sessions();
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          create(index % 2 ? pair.first : pair.second, `same-${engine}`),
        ),
      );
      assert.equal(await sessions(), before + 1, 'one session');
      const bodies = await Promise.all(
        answers.map(async (answer) => ({ status: answer.status, body: await answer.json() })),
      );
      const created = bodies.filter((answer) => answer.status === 201);
      assert.ok(created.length >= 1);
      for (const answer of bodies) {
        if (answer.status === 201) assert.equal(answer.body.session_id, created[0]?.body.session_id);
        else assert.equal(answer.body.code, 'idempotency_request_in_progress', JSON.stringify(answer));
      }
      assert.equal(
        answers.filter(
          (answer) => answer.headers.get('idempotent-replayed') === null && answer.status === 201,
        ).length,
        1,
        'one ran',
      );
    });

    it('answers 422 for the same key with another body, and replays a stored refusal', async () => {
      assert.equal((await create(pair.first, `body-${engine}`)).status, 201);
      const reused = await create(pair.second, `body-${engine}`, { ...BODY, tier: 'tier2' });
      assert.equal(reused.status, 422);
      assert.equal(((await reused.json()) as { code: string }).code, 'idempotency_key_reused');

      const refused = await create(pair.first, `refusal-${engine}`, { ...BODY, country: 'XXX' });
      assert.equal(refused.status, 400, 'an unknown country is refused');
      const again = await create(pair.second, `refusal-${engine}`, { ...BODY, country: 'XXX' });
      assert.equal(again.status, 400);
      assert.equal(again.headers.get('idempotent-replayed'), 'true', 'the refusal is stored and replayed');
    });
  });
}
