import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { capabilitiesOfRole } from '../../../server/domain/capabilities.ts';
import { bootstrapTenant } from '../../../server/features/tenants/bootstrap-tenant.ts';
import { assertMayGrant, raisesRole } from '../../../server/features/users/role-rules.ts';
import { createHarness, json, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { type ConsoleUser, expectOk, expectProblem, inviteAndLogIn } from './console-support.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('user management rules (unit)', () => {
  it('says which role changes raise a role', () => {
    assert.equal(raisesRole('viewer', 'reviewer'), true);
    assert.equal(raisesRole('reviewer', 'developer'), true, 'developer holds capabilities a reviewer lacks');
    assert.equal(raisesRole('developer', 'tenant_admin'), true);
    assert.equal(raisesRole('tenant_admin', 'viewer'), false);
    assert.equal(raisesRole('developer', 'viewer'), false);
    assert.equal(raisesRole('reviewer', 'viewer'), true, 'a viewer reads webhooks, a reviewer does not');
  });

  it('refuses to grant a role with capabilities the granter lacks', () => {
    assert.throws(
      () => assertMayGrant('tenant_admin', new Set(capabilitiesOfRole('developer')), 'role'),
      (error: any) => error.code === 'insufficient_capability' && /users:write/.test(error.message),
    );
    assert.doesNotThrow(() => assertMayGrant('viewer', new Set(capabilitiesOfRole('developer')), 'role'));
  });
});

for (const engine of testEngines()) {
  describe(`console users (${engine})`, () => {
    let h: TestHarness;
    let admin: string;
    let viewer: ConsoleUser;
    before(async () => {
      h = await createHarness(engine);
      admin = await h.login();
      viewer = await inviteAndLogIn(h, 'viewer', admin);
    });
    after(() => h.close());

    it('invites a user, who sets a password with the token once and then logs in with the role given', async () => {
      const email = `New.Reviewer-${Date.now()}@Staff.idv.test`;
      const invited = await expectOk(
        await h.call('POST', '/v1/users', { token: admin, body: { email: `  ${email} `, role: 'reviewer' } }),
        201,
      );
      assert.equal(invited['object'], 'user');
      assert.equal(invited['status'], 'invited');
      assert.equal(invited['email'], email.toLowerCase(), 'addresses are stored trimmed and lower-cased');
      assert.equal(invited['role'], 'reviewer');
      assert.equal(invited['tenant_id'], h.tenant.tenantId);
      assert.match(invited['invitation_token'], /^inv_[0-9A-Za-z]{20,}$/);
      assert.ok(Date.parse(invited['invitation_expires_at']) > h.clock.now().getTime() + 6 * DAY_MS);
      const { rows } = {
        rows: await h.deps.db.query<any>('select * from users where id = $1', [invited['user_id']]),
      };
      assert.ok(
        !JSON.stringify(rows).includes(invited['invitation_token']),
        'the token is stored only hashed',
      );

      // Shown once: reading the user again never reveals it.
      const read = await expectOk(await h.call('GET', `/v1/users/${invited['user_id']}`, { token: admin }));
      assert.equal(read['invitation_token'], undefined);

      // Before acceptance the account cannot log in with anything.
      await expectProblem(
        await h.call('POST', '/v1/console/login', { body: { email, password: 'anything at all here' } }),
        401,
        'invalid_credentials',
      );
      const password = 'correct horse battery staple';
      await expectProblem(
        await h.call('POST', '/v1/console/accept-invitation', {
          body: { invitation_token: invited['invitation_token'], password: 'short' },
        }),
        400,
        'invalid_parameter',
      );
      const accepted = await expectOk(
        await h.call('POST', '/v1/console/accept-invitation', {
          body: { invitation_token: invited['invitation_token'], password },
        }),
      );
      assert.equal(accepted['status'], 'active');
      assert.equal(accepted['invitation_expires_at'], null);
      await expectProblem(
        await h.call('POST', '/v1/console/accept-invitation', {
          body: { invitation_token: invited['invitation_token'], password: 'another good passphrase' },
        }),
        404,
        'resource_missing',
      );
      const login = await expectOk(await h.call('POST', '/v1/console/login', { body: { email, password } }));
      assert.equal(login['user']['role'], 'reviewer');
      assert.ok(login['capabilities'].includes('sessions:review'));
      assert.equal(login['default_path'], '/console/reviews');
    });

    it('refuses an expired invitation; a reissued one works and the old token stops', async () => {
      const email = `late-${Date.now()}@staff.idv.test`;
      const invited = await expectOk(
        await h.call('POST', '/v1/users', { token: admin, body: { email, role: 'developer' } }),
        201,
      );
      h.clock.advance(7 * DAY_MS + 1000);
      const password = 'a perfectly fine passphrase';
      await expectProblem(
        await h.call('POST', '/v1/console/accept-invitation', {
          body: { invitation_token: invited['invitation_token'], password },
        }),
        410,
        'invitation_expired',
      );
      const adminNow = await h.login(); // the earlier token has expired with the clock
      const reissued = await expectOk(
        await h.call('POST', `/v1/users/${invited['user_id']}/invitation`, { token: adminNow }),
      );
      assert.notEqual(reissued['invitation_token'], invited['invitation_token']);
      await expectProblem(
        await h.call('POST', '/v1/console/accept-invitation', {
          body: { invitation_token: invited['invitation_token'], password },
        }),
        404,
        'resource_missing',
      );
      await expectOk(
        await h.call('POST', '/v1/console/accept-invitation', {
          body: { invitation_token: reissued['invitation_token'], password },
        }),
      );
      // An active user has no invitation to reissue.
      await expectProblem(
        await h.call('POST', `/v1/users/${invited['user_id']}/invitation`, { token: adminNow }),
        404,
        'resource_missing',
      );
      admin = adminNow;
    });

    it('lists the tenant’s users newest first with cursors and filters, never another tenant’s', async () => {
      const first = await expectOk(await h.call('GET', '/v1/users?limit=2', { token: admin }));
      assert.equal(first['object'], 'list');
      assert.equal(first['data'].length, 2);
      assert.equal(first['has_more'], true);
      const next = await expectOk(
        await h.call('GET', `/v1/users?limit=100&starting_after=${first['data'][1]['user_id']}`, {
          token: admin,
        }),
      );
      const all = [...first['data'], ...next['data']];
      assert.ok(all.every((user: any) => user.tenant_id === h.tenant.tenantId));
      assert.ok(all.some((user: any) => user.email === h.tenant.email));
      assert.ok(!all.some((user: any) => user.email === h.other.email));
      const times = all.map((user: any) => Date.parse(user.created_at));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
      );
      const back = await expectOk(
        await h.call('GET', `/v1/users?ending_before=${next['data'][0]['user_id']}`, { token: admin }),
      );
      assert.deepEqual(
        back['data'].map((user: any) => user.user_id),
        first['data'].map((user: any) => user.user_id),
      );
      const viewers = await expectOk(await h.call('GET', '/v1/users?role=viewer', { token: admin }));
      assert.ok(viewers['data'].length >= 1);
      assert.ok(viewers['data'].every((user: any) => user.role === 'viewer'));
      const theirs = await json(await h.call('GET', '/v1/users', { token: await h.login(h.other) }));
      await expectProblem(
        await h.call('GET', `/v1/users?starting_after=${theirs['data'][0]['user_id']}`, { token: admin }),
        400,
        'invalid_cursor',
      );
      await expectProblem(
        await h.call('GET', '/v1/users?colour=red', { token: admin }),
        400,
        'unknown_parameter',
      );
    });

    it('gives a viewer 403 on every user operation and the audit log, but the statistics', async () => {
      // A fresh token: an earlier test moved the clock past the first one's lifetime.
      const token = await h.login({ ...h.tenant, email: viewer.email, password: viewer.password });
      const target = viewer.userId;
      for (const [method, path, body] of [
        ['GET', '/v1/users', undefined],
        ['GET', `/v1/users/${target}`, undefined],
        ['POST', '/v1/users', { email: 'x@staff.idv.test', role: 'viewer' }],
        ['PATCH', `/v1/users/${target}`, { role: 'tenant_admin' }],
        ['PATCH', `/v1/users/${target}`, { disabled: true }],
        ['POST', `/v1/users/${target}/invitation`, undefined],
        ['GET', '/v1/audit-events', undefined],
      ] as const) {
        await expectProblem(await h.call(method, path, { token, body }), 403, 'insufficient_capability');
      }
      await expectOk(await h.call('GET', '/v1/stats', { token }));
      // API keys administer no users either.
      await expectProblem(
        await h.call('POST', '/v1/users', {
          key: h.tenant.productionKey,
          body: { email: 'y@staff.idv.test', role: 'viewer' },
        }),
        403,
        'insufficient_capability',
      );
      await expectProblem(
        await h.call('GET', '/v1/users', { key: h.tenant.productionKey }),
        403,
        'insufficient_capability',
      );
    });

    it('keeps e-mail addresses unique within a tenant, whatever their case', async () => {
      await expectProblem(
        await h.call('POST', '/v1/users', {
          token: admin,
          body: { email: viewer.email.toUpperCase(), role: 'viewer' },
        }),
        409,
        'email_in_use',
      );
      // Another tenant's address is a new one here: test/node/users/cross-tenant-email.test.ts.
      await expectProblem(
        await h.call('POST', '/v1/users', {
          token: admin,
          body: { email: 'not-an-address', role: 'viewer' },
        }),
        400,
        'invalid_parameter',
      );
      await expectProblem(
        await h.call('POST', '/v1/users', {
          token: admin,
          body: { email: 'z@staff.idv.test', role: 'owner' },
        }),
        400,
        'invalid_parameter',
      );
      await expectProblem(
        await h.call('POST', '/v1/users', {
          token: admin,
          body: { email: 'z@staff.idv.test', role: 'viewer', password: 'x' },
        }),
        400,
        'unknown_parameter',
      );
    });

    it('answers 404 for another tenant’s user on every operation', async () => {
      const theirAdmin = await h.login(h.other);
      const theirs = await inviteAndLogIn(h, 'viewer', theirAdmin, h.other);
      const path = `/v1/users/${theirs.userId}`;
      await expectProblem(await h.call('GET', path, { token: admin }), 404, 'resource_missing');
      await expectProblem(
        await h.call('PATCH', path, { token: admin, body: { disabled: true } }),
        404,
        'resource_missing',
      );
      await expectProblem(
        await h.call('POST', `${path}/invitation`, { token: admin }),
        404,
        'resource_missing',
      );
      // …and it is untouched.
      assert.equal((await expectOk(await h.call('GET', path, { token: theirAdmin })))['status'], 'active');
    });

    it('changes a role, effective on the user’s next request', async () => {
      const user = await inviteAndLogIn(h, 'viewer', admin);
      await expectProblem(
        await h.call('GET', '/v1/watchlist', { token: user.token }),
        403,
        'insufficient_capability',
      );
      const changed = await expectOk(
        await h.call('PATCH', `/v1/users/${user.userId}`, { token: admin, body: { role: 'reviewer' } }),
      );
      assert.equal(changed['role'], 'reviewer');
      const me = await expectOk(await h.call('GET', '/v1/me', { token: user.token }));
      assert.ok(me['capabilities'].includes('sessions:review'));
      assert.equal(me['default_path'], '/console/reviews');
      await expectProblem(
        await h.call('PATCH', `/v1/users/${user.userId}`, { token: admin, body: {} }),
        400,
        'missing_parameter',
      );
      await expectProblem(
        await h.call('PATCH', `/v1/users/${user.userId}`, { token: admin, body: { email: 'a@b.test' } }),
        400,
        'unknown_parameter',
      );
    });

    it('disables a user: no login, and the tokens they hold stop working at once; enabling restores both', async () => {
      const user = await inviteAndLogIn(h, 'developer', admin);
      await expectOk(await h.call('GET', '/v1/me', { token: user.token }));
      const disabled = await expectOk(
        await h.call('PATCH', `/v1/users/${user.userId}`, { token: admin, body: { disabled: true } }),
      );
      assert.equal(disabled['status'], 'disabled');
      await expectProblem(await h.call('GET', '/v1/me', { token: user.token }), 403, 'user_disabled');
      await expectProblem(await h.call('GET', '/v1/sessions', { token: user.token }), 403, 'user_disabled');
      await expectProblem(
        await h.call('POST', '/v1/console/login', { body: { email: user.email, password: user.password } }),
        403,
        'user_disabled',
      );
      const enabled = await expectOk(
        await h.call('PATCH', `/v1/users/${user.userId}`, { token: admin, body: { disabled: false } }),
      );
      assert.equal(enabled['status'], 'active');
      await h.login({ ...h.tenant, email: user.email, password: user.password });
    });

    it('a disabled invitee cannot accept; enabled again, the invitation is open again', async () => {
      const invited = await expectOk(
        await h.call('POST', '/v1/users', {
          token: admin,
          body: { email: `paused-${Date.now()}@staff.idv.test`, role: 'viewer' },
        }),
        201,
      );
      await expectOk(
        await h.call('PATCH', `/v1/users/${invited['user_id']}`, { token: admin, body: { disabled: true } }),
      );
      const body = { invitation_token: invited['invitation_token'], password: 'a perfectly fine passphrase' };
      await expectProblem(
        await h.call('POST', '/v1/console/accept-invitation', { body }),
        403,
        'user_disabled',
      );
      const enabled = await expectOk(
        await h.call('PATCH', `/v1/users/${invited['user_id']}`, { token: admin, body: { disabled: false } }),
      );
      assert.equal(enabled['status'], 'invited');
      await expectOk(await h.call('POST', '/v1/console/accept-invitation', { body }));
    });

    it('never lets the last active tenant admin be demoted or disabled', async () => {
      // A tenant of its own, so its admins are only the ones made here.
      const fresh = await bootstrapTenant(h.deps, {
        tenantName: 'Tenant C',
        adminEmail: `owner-${Date.now()}@tenant-c.idv.test`,
      });
      const tenantC = { ...h.tenant, tenantId: fresh.tenantId, email: fresh.email, password: fresh.password };
      const owner = await h.login(tenantC);
      const ownerId = (await expectOk(await h.call('GET', '/v1/me', { token: owner })))['user']['user_id'];
      const demote = await expectProblem(
        await h.call('PATCH', `/v1/users/${ownerId}`, { token: owner, body: { role: 'developer' } }),
        409,
        'last_tenant_admin',
      );
      assert.equal(demote['param'], 'role');
      await expectProblem(
        await h.call('PATCH', `/v1/users/${ownerId}`, { token: owner, body: { disabled: true } }),
        409,
        'last_tenant_admin',
      );
      // An invited admin does not count: they cannot act yet.
      const pending = await expectOk(
        await h.call('POST', '/v1/users', {
          token: owner,
          body: { email: `pending-admin-${Date.now()}@staff.idv.test`, role: 'tenant_admin' },
        }),
        201,
      );
      await expectProblem(
        await h.call('PATCH', `/v1/users/${ownerId}`, { token: owner, body: { role: 'viewer' } }),
        409,
        'last_tenant_admin',
      );
      // With a second active admin, the first may step down; the second is then the last one.
      await expectOk(
        await h.call('POST', '/v1/console/accept-invitation', {
          body: { invitation_token: pending['invitation_token'], password: 'second admin passphrase' },
        }),
      );
      const stepped = await expectOk(
        await h.call('PATCH', `/v1/users/${ownerId}`, { token: owner, body: { role: 'viewer' } }),
      );
      assert.equal(stepped['role'], 'viewer');
      await expectProblem(
        await h.call('PATCH', `/v1/users/${ownerId}`, { token: owner, body: { role: 'tenant_admin' } }),
        403,
        'insufficient_capability',
      );
      const second = await h.login({
        ...tenantC,
        email: pending['email'],
        password: 'second admin passphrase',
      });
      await expectProblem(
        await h.call('PATCH', `/v1/users/${pending['user_id']}`, {
          token: second,
          body: { disabled: true },
        }),
        409,
        'last_tenant_admin',
      );
      // Two admins demoting each other at the same moment: exactly one succeeds.
      await expectOk(
        await h.call('PATCH', `/v1/users/${ownerId}`, { token: second, body: { role: 'tenant_admin' } }),
      );
      const ownerAgain = await h.login(tenantC);
      const race = await Promise.all([
        h.call('PATCH', `/v1/users/${pending['user_id']}`, {
          token: ownerAgain,
          body: { role: 'viewer' },
        }),
        h.call('PATCH', `/v1/users/${ownerId}`, { token: second, body: { role: 'viewer' } }),
      ]);
      const statuses = race.map((response) => response.status).sort();
      assert.ok(
        statuses[0] === 200 && (statuses[1] === 409 || statuses[1] === 403),
        `expected one success and one refusal, got ${statuses.join(', ')}`,
      );
      const admins = await h.deps.db.query<{ n: number }>(
        `select count(*)::int as n from users where tenant_id = $1 and role = 'tenant_admin' and status = 'active'`,
        [tenantC.tenantId],
      );
      assert.equal(admins[0]?.n, 1);
    });

    it('documents every user operation in the OpenAPI document', async () => {
      const document = await json(await h.call('GET', '/v1/openapi.json'));
      const paths = document['paths'];
      assert.equal(paths['/v1/users']['get']['operationId'], 'listUsers');
      assert.equal(paths['/v1/users']['post']['operationId'], 'inviteUser');
      assert.equal(paths['/v1/users/{id}']['patch']['operationId'], 'updateUser');
      assert.ok(paths['/v1/users/{id}']['patch']['responses']['409']);
      assert.ok(paths['/v1/users/{id}/invitation']['post']);
      assert.ok(paths['/v1/console/accept-invitation']['post']);
      assert.ok(paths['/v1/audit-events']['get']);
      assert.ok(paths['/v1/stats']['get']);
    });
  });
}
