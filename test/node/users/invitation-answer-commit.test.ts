// Issue 24: idempotent operations commit their answer with their effect. A staff invitation and its
// reissue answer with an `invitation_token` shown once; the answer is sealed in the transaction that
// creates the account or replaces the token. The process is "killed" right after that commit
// (mortal-database.ts) and the client's retry with the same Idempotency-Key, on the other instance, must
// get the first answer replayed: the token that works, not 409 `email_in_use` for the account the first
// attempt made, nor a fresh token that silently replaces the one the client never saw.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { testEngines } from '../support/test-database.ts';
import { type Mortal, mortalDatabase } from '../server/mortal-database.ts';
import { type Instance, startTwoInstances, type TwoInstances } from '../server/two-instances.ts';

for (const engine of testEngines()) {
  describe(`staff invitations commit their answer with their effect (${engine})`, () => {
    let pair: TwoInstances;
    let consoleToken: string;
    const mortals: Mortal[] = [];
    before(async () => {
      pair = await startTwoInstances(engine, {
        deps: (db) => {
          const { db: wrapped, mortal } = mortalDatabase(db);
          mortals.push(mortal);
          return { db: wrapped };
        },
      });
      const login = await pair.second.call('POST', '/v1/console/login', {
        body: { email: pair.tenant.email, password: pair.tenant.password },
      });
      consoleToken = ((await login.json()) as { access_token: string }).access_token;
    });
    after(() => pair.close());
    afterEach(() => mortals[0]?.restart());

    const headers = (key: string) => ({
      authorization: `Bearer ${consoleToken}`,
      'x-environment': 'sandbox',
      'idempotency-key': key,
    });
    const count = async (sql: string, params: unknown[] = []) =>
      (await pair.db.query<{ count: number }>(sql, params))[0]?.count;
    const accept = (token: unknown, password: string) =>
      pair.second.call('POST', '/v1/console/accept-invitation', {
        body: { invitation_token: token, password },
      });

    /** `send` on the first instance, which dies once `effect` committed, then on the second. */
    async function killedThenRetried(
      effect: RegExp,
      send: (instance: Instance) => Promise<Response>,
      expectedStatus: number,
    ): Promise<Record<string, unknown>> {
      mortals[0]?.dieAfter(effect);
      // What the killed process answered never reaches the client.
      await send(pair.first).catch(() => undefined);
      mortals[0]?.restart();
      const retried = await send(pair.second);
      const text = await retried.text();
      assert.equal(retried.status, expectedStatus, text);
      assert.equal(retried.headers.get('idempotent-replayed'), 'true', `replayed, not run again: ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    }

    it('invite: the invitation token is replayed, not 409 for the account it made', async () => {
      const email = `invited-then-die-${engine}@staff.idv.test`;
      const answer = await killedThenRetried(
        /insert into users/,
        (instance) =>
          instance.call('POST', '/v1/users', {
            headers: headers(`invite-${engine}`),
            body: { email, role: 'reviewer' },
          }),
        201,
      );
      assert.equal(answer['email'], email);
      assert.equal(answer['status'], 'invited');
      assert.match(String(answer['invitation_token']), /^inv_/);
      assert.equal(await count('select count(*)::int as count from users where email = $1', [email]), 1);
      assert.equal(
        await count(
          `select count(*)::int as count from audit_events where action = 'user.invited'
                       and target_id = $1`,
          [answer['user_id']],
        ),
        1,
        'one invitation recorded',
      );
      // The replayed token is the one the account holds.
      const accepted = await accept(answer['invitation_token'], 'stapler orbit velvet canyon');
      assert.equal(accepted.status, 200, await accepted.text());
    });

    it('reissue: the new token is replayed, not replaced by a third', async () => {
      const email = `reissued-then-die-${engine}@staff.idv.test`;
      const invited = await pair.second.call('POST', '/v1/users', {
        headers: headers(`invite-first-${engine}`),
        body: { email, role: 'viewer' },
      });
      assert.equal(invited.status, 201);
      const { user_id: id, invitation_token: first } = (await invited.json()) as {
        user_id: string;
        invitation_token: string;
      };
      const answer = await killedThenRetried(
        /update users set invitation_token_hash/,
        (instance) =>
          instance.call('POST', `/v1/users/${id}/invitation`, { headers: headers(`reissue-${engine}`) }),
        200,
      );
      assert.notEqual(answer['invitation_token'], first);
      assert.equal(
        await count(
          `select count(*)::int as count from audit_events
                      where action = 'user.invitation_reissued' and target_id = $1`,
          [id],
        ),
        1,
        'reissued once',
      );
      assert.equal(
        (await accept(first, 'quiet harbour lantern moss')).status,
        404,
        'the first token is gone',
      );
      const accepted = await accept(answer['invitation_token'], 'quiet harbour lantern moss');
      assert.equal(accepted.status, 200, await accepted.text());
    });

    it('stores no invitation token in clear with the answer', async () => {
      const email = `sealed-${engine}@staff.idv.test`;
      const invited = await pair.second.call('POST', '/v1/users', {
        headers: headers(`sealed-${engine}`),
        body: { email, role: 'viewer' },
      });
      const { invitation_token: token } = (await invited.json()) as { invitation_token: string };
      const stored = await pair.db.query<{ response_body: string }>(
        'select response_body from idempotency_keys where key = $1',
        [`sealed-${engine}`],
      );
      assert.equal(stored.length, 1);
      assert.ok(!stored[0]?.response_body.includes(token), 'the stored answer is encrypted');
      assert.ok(!stored[0]?.response_body.includes(email));
    });
  });
}
