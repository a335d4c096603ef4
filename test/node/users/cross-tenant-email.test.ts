import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectOk, expectProblem } from '../api/console-support.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';

// No cross-tenant e-mail enumeration (issue 24 item 3): e-mail addresses are unique per tenant, so a
// tenant admin inviting an address that has an account in another tenant gets the answer a new address
// gets, and the invitation makes a separate account with its own password. The login keeps its shape
// ({email, password}); the password picks the account, and `tenant_id` settles the one ambiguous case.

/** The parts of an invitation answer that do not differ by nature from one invitation to the next. */
function shapeOf(body: Record<string, unknown>): Record<string, unknown> {
  return {
    keys: Object.keys(body).sort(),
    object: body['object'],
    status: body['status'],
    role: body['role'],
    token: typeof body['invitation_token'],
  };
}

for (const engine of testEngines()) {
  describe(`e-mail addresses unique per tenant (${engine})`, () => {
    let h: TestHarness;
    let admin: string;
    before(async () => {
      h = await createHarness(engine);
      admin = await h.login();
    });
    after(() => h.close());

    const invite = (email: string) =>
      h.call('POST', '/v1/users', { token: admin, body: { email, role: 'viewer' } });
    const accept = (token: string, password: string) =>
      h.call('POST', '/v1/console/accept-invitation', { body: { invitation_token: token, password } });
    const login = (email: string, password: string, tenantId?: string) =>
      h.call('POST', '/v1/console/login', {
        body: { email, password, ...(tenantId ? { tenant_id: tenantId } : {}) },
      });

    it('answers an address with an account in another tenant exactly as an unknown one', async () => {
      const theirs = await invite(h.other.email.toUpperCase());
      const unknown = await invite(`nobody-${Date.now()}@elsewhere.test`);
      assert.equal(theirs.status, 201);
      assert.equal(unknown.status, 201);
      assert.deepEqual(
        [...theirs.headers.keys()].sort(),
        [...unknown.headers.keys()].sort(),
        'the same headers',
      );
      assert.deepEqual(shapeOf(await json(theirs)), shapeOf(await json(unknown)));
      // Only this tenant's own addresses are in use.
      await expectProblem(await invite(h.tenant.email), 409, 'email_in_use');
    });

    it('makes a separate account: each tenant logs in with its own password, the other is untouched', async () => {
      const email = `shared-${Date.now()}@staff.idv.test`;
      const inA = await expectOk(await invite(email), 201);
      await expectOk(await accept(inA['invitation_token'], 'stapler orbit velvet canyon'));
      const otherAdmin = await h.login(h.other);
      const inB = await expectOk(
        await h.call('POST', '/v1/users', { token: otherAdmin, body: { email, role: 'reviewer' } }),
        201,
      );
      // Tenant B's admin holds B's token: accepting it sets B's account's password, never A's.
      await expectOk(await accept(inB['invitation_token'], 'quiet harbour lantern moss'));

      const intoA = await expectOk(await login(email, 'stapler orbit velvet canyon'));
      assert.equal(intoA['user']['tenant_id'], h.tenant.tenantId);
      assert.equal(intoA['user']['role'], 'viewer');
      const intoB = await expectOk(await login(email, 'quiet harbour lantern moss'));
      assert.equal(intoB['user']['tenant_id'], h.other.tenantId);
      assert.equal(intoB['user']['role'], 'reviewer');
      await expectProblem(await login(email, 'not either password'), 401, 'invalid_credentials');
      // Naming the tenant narrows the login to it.
      await expectProblem(
        await login(email, 'quiet harbour lantern moss', h.tenant.tenantId),
        401,
        'invalid_credentials',
      );
      await expectOk(await login(email, 'quiet harbour lantern moss', h.other.tenantId));
    });

    it('asks which tenant, after the password is proved, when the same password opens two accounts', async () => {
      const email = `same-password-${Date.now()}@staff.idv.test`;
      const password = 'maple drift cobalt verse';
      const inA = await expectOk(await invite(email), 201);
      await expectOk(await accept(inA['invitation_token'], password));
      const otherAdmin = await h.login(h.other);
      const inB = await expectOk(
        await h.call('POST', '/v1/users', { token: otherAdmin, body: { email, role: 'viewer' } }),
        201,
      );
      await expectOk(await accept(inB['invitation_token'], password));

      const ask = await expectProblem(await login(email, password), 400, 'missing_parameter');
      assert.equal(ask['param'], 'tenant_id');
      assert.deepEqual(
        (ask['tenants'] as { tenant_id: string }[]).map((tenant) => tenant.tenant_id).sort(),
        [h.tenant.tenantId, h.other.tenantId].sort(),
      );
      // A wrong password learns nothing of the kind.
      const wrong = await expectProblem(
        await login(email, 'a wrong guess entirely'),
        401,
        'invalid_credentials',
      );
      assert.equal(wrong['tenants'], undefined);
      for (const tenantId of [h.tenant.tenantId, h.other.tenantId]) {
        const answer = await expectOk(await login(email, password, tenantId));
        assert.equal(answer['user']['tenant_id'], tenantId);
        assert.ok(answer['access_token']);
      }
    });

    it("records a failed login in the log of each tenant whose account it was tried against, and no other's", async () => {
      const email = `audited-${Date.now()}@staff.idv.test`;
      const inA = await expectOk(await invite(email), 201);
      await expectOk(await accept(inA['invitation_token'], 'stapler orbit velvet canyon'));
      const otherAdmin = await h.login(h.other);
      const inB = await expectOk(
        await h.call('POST', '/v1/users', { token: otherAdmin, body: { email, role: 'viewer' } }),
        201,
      );
      await expectOk(await accept(inB['invitation_token'], 'quiet harbour lantern moss'));
      const failures = async () =>
        (
          await h.deps.db.query<{ tenant_id: string | null; actor_type: string; actor_id: string }>(
            `select tenant_id, actor_type, actor_id from audit_events
              where action = 'console.login_failed' and target_id = any($1::text[]) order by created_at, id`,
            [[inA['user_id'], inB['user_id']]],
          )
        ).map((row) => `${row.tenant_id}:${row.actor_type}:${row.actor_id}`);
      const inTenantA = `${h.tenant.tenantId}:user:${inA['user_id']}`;
      const inTenantB = `${h.other.tenantId}:user:${inB['user_id']}`;

      // Tried against both accounts: each tenant sees the attempt on its own member.
      await expectProblem(
        await login(email.toUpperCase(), 'not either password'),
        401,
        'invalid_credentials',
      );
      assert.deepEqual((await failures()).sort(), [inTenantA, inTenantB].sort());
      // Naming a tenant tries its account only.
      await expectProblem(
        await login(email, 'not either password', h.other.tenantId),
        401,
        'invalid_credentials',
      );
      assert.deepEqual((await failures()).sort(), [inTenantA, inTenantB, inTenantB].sort());
      // A tenant the address has no account in: recorded as an unknown account, in no tenant's log.
      const unknownBefore = await h.deps.db.query(
        `select 1 from audit_events where action = 'console.login_failed' and tenant_id is null`,
      );
      await expectProblem(
        await login(email, 'not either password', 'ten_not_a_tenant_of_this_address'),
        401,
        'invalid_credentials',
      );
      assert.equal((await failures()).length, 3);
      const unknownAfter = await h.deps.db.query(
        `select 1 from audit_events where action = 'console.login_failed' and tenant_id is null`,
      );
      assert.equal(unknownAfter.length, unknownBefore.length + 1);
      // The rows hold ids, a reason and a network, never the typed address.
      const stored = JSON.stringify(
        await h.deps.db.query(`select * from audit_events where action = 'console.login_failed'`),
      );
      assert.ok(!stored.toLowerCase().includes(email));
      // A success records no failure anywhere.
      await expectOk(await login(email, 'stapler orbit velvet canyon'));
      assert.equal((await failures()).length, 3);
      // The tenants' own logs: each admin lists its member's failures and none of the other tenant's.
      const listed = async (token: string) =>
        (
          (await expectOk(
            await h.call('GET', '/v1/audit-events?action=console.login_failed&limit=100', { token }),
          )) as { data: { target: { id: string } | null }[] }
        ).data.map((event) => event.target?.id);
      const listedA = await listed(admin);
      assert.equal(listedA.filter((id) => id === inA['user_id']).length, 1);
      assert.ok(!listedA.includes(inB['user_id']));
      const listedB = await listed(otherAdmin);
      assert.equal(listedB.filter((id) => id === inB['user_id']).length, 2);
      assert.ok(!listedB.includes(inA['user_id']));
    });
  });
}
