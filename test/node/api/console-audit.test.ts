import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { purgeExpiredAuditEvents } from '../../../server/features/audit/audit-retention.ts';
import { networkPrefixOf } from '../../../server/features/audit/network-prefix.ts';
import { createRetentionSweeper } from '../../../server/workers/retention-sweeper.ts';
import { createSession, EvidenceBook, goodEvidence, simulate } from '../review-pipeline/pipeline-support.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { type Body, type ConsoleUser, expectOk, expectProblem, inviteAndLogIn } from './console-support.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const CALLER = '198.51.100.77';

describe('network prefix of an address (unit)', () => {
  it('truncates IPv4 to /24 and IPv6 to /48, and refuses anything else', () => {
    assert.equal(networkPrefixOf('203.0.113.77'), '203.0.113.0/24');
    assert.equal(networkPrefixOf('::ffff:203.0.113.77'), '203.0.113.0/24');
    assert.equal(networkPrefixOf('2001:db8:85a3::8a2e:370:7334'), '2001:db8:85a3::/48');
    assert.equal(networkPrefixOf('[2001:db8::1]'), '2001:db8:0::/48');
    assert.equal(networkPrefixOf('fe80::1%eth0'), 'fe80:0:0::/48');
    assert.equal(networkPrefixOf('unknown'), null);
    assert.equal(networkPrefixOf('300.1.2.3'), null);
    assert.equal(networkPrefixOf('1:2:3:4:5:6:7:8:9'), null);
  });
});

for (const engine of testEngines()) {
  describe(`console audit log (${engine})`, () => {
    let h: TestHarness;
    let admin: string;
    let adminId: string;
    const book = new EvidenceBook();
    /** Every secret and personal value the actions below handle: none may reach the audit table. */
    const secrets: string[] = [];
    const headers = { 'x-test-client-address': CALLER };
    let invitee: ConsoleUser;
    let apiKeyId: string;
    let webhookId: string;
    let approvedSessionId: string;
    let rejectedSessionId: string;

    async function list(query = '', token = admin): Promise<Body[]> {
      return (await expectOk(await h.call('GET', `/v1/audit-events?limit=100${query}`, { token })))['data'];
    }

    before(async () => {
      h = await createHarness(engine, { collectReviewEvidence: book.collector });
      secrets.push(h.tenant.email, h.tenant.password, h.tenant.sandboxKey, h.tenant.productionKey, CALLER);
      const login = await expectOk(
        await h.call('POST', '/v1/console/login', {
          headers,
          body: { email: h.tenant.email, password: h.tenant.password },
        }),
      );
      admin = login['access_token'];
      adminId = login['user']['user_id'];
      secrets.push(admin);

      // Failed logins: a known address with a wrong password, and an address no account has.
      const wrong = 'definitely-not-the-password';
      secrets.push(wrong, 'nobody-at-all@unknown.idv.test');
      await expectProblem(
        await h.call('POST', '/v1/console/login', {
          headers,
          body: { email: h.tenant.email, password: wrong },
        }),
        401,
        'invalid_credentials',
      );
      await expectProblem(
        await h.call('POST', '/v1/console/login', {
          headers,
          body: { email: 'Nobody-At-All@unknown.idv.test', password: wrong },
        }),
        401,
        'invalid_credentials',
      );

      h.clock.advance(1000); // distinct times, so newest-first is observable
      // Users: invite, accept, role change, disable, enable.
      invitee = await inviteAndLogIn(h, 'viewer', admin);
      secrets.push(invitee.email, invitee.password, invitee.token);
      await expectOk(
        await h.call('PATCH', `/v1/users/${invitee.userId}`, { token: admin, body: { role: 'reviewer' } }),
      );
      await expectOk(
        await h.call('PATCH', `/v1/users/${invitee.userId}`, { token: admin, body: { disabled: true } }),
      );
      // The right password of a disabled user is still a refused login.
      await expectProblem(
        await h.call('POST', '/v1/console/login', {
          headers,
          body: { email: invitee.email, password: invitee.password },
        }),
        403,
        'user_disabled',
      );
      await expectOk(
        await h.call('PATCH', `/v1/users/${invitee.userId}`, { token: admin, body: { disabled: false } }),
      );

      h.clock.advance(1000);
      // API keys.
      const key = await expectOk(
        await h.call('POST', '/v1/api-keys', {
          token: admin,
          headers: { 'x-environment': 'sandbox' },
          body: { name: 'audited key', environment: 'sandbox' },
        }),
        201,
      );
      apiKeyId = key['api_key_id'];
      secrets.push(key['secret']);
      await expectOk(
        await h.call('DELETE', `/v1/api-keys/${apiKeyId}`, {
          token: admin,
          headers: { 'x-environment': 'sandbox' },
        }),
      );

      // Webhooks, in the sandbox (http and loopback allowed): create, update, rotate, test, delete.
      const sandbox = { token: admin, headers: { 'x-environment': 'sandbox' } };
      const hook = await expectOk(
        await h.call('POST', '/v1/webhooks', {
          ...sandbox,
          body: { url: 'http://127.0.0.1:9/private-receiver-path', events: ['session.approved'] },
        }),
        201,
      );
      webhookId = hook['webhook_id'];
      secrets.push(hook['secret'], 'private-receiver-path', 'a description nobody else may read');
      await expectOk(
        await h.call('PATCH', `/v1/webhooks/${webhookId}`, {
          ...sandbox,
          body: { description: 'a description nobody else may read', status: 'disabled' },
        }),
      );
      const rotated = await expectOk(
        await h.call('POST', `/v1/webhooks/${webhookId}/rotate-secret`, sandbox),
      );
      secrets.push(rotated['secret']);
      await expectOk(await h.call('POST', `/v1/webhooks/${webhookId}/test`, sandbox));
      await expectOk(await h.call('DELETE', `/v1/webhooks/${webhookId}`, sandbox));

      h.clock.advance(1000);
      // Manual reviews: one approval, one rejection, by the (re-enabled) reviewer.
      const reviewer = await h.login({ ...h.tenant, email: invitee.email, password: invitee.password });
      const sandboxKey = h.tenant.sandboxKey;
      const approve = await createSession(h, sandboxKey);
      approvedSessionId = approve['session_id'];
      book.set(approvedSessionId, goodEvidence(h));
      await simulate(h, sandboxKey, approvedSessionId, 'review');
      const reject = await createSession(h, sandboxKey);
      rejectedSessionId = reject['session_id'];
      await simulate(h, sandboxKey, rejectedSessionId, 'review');
      const asReviewer = { token: reviewer, headers: { 'x-environment': 'sandbox' } };
      const note = 'reviewer note with personal remarks';
      secrets.push(note);
      await expectOk(
        await h.call('POST', `/v1/sessions/${approvedSessionId}/review`, {
          ...asReviewer,
          body: { decision: 'approve', note },
        }),
      );
      await expectOk(
        await h.call('POST', `/v1/sessions/${rejectedSessionId}/review`, {
          ...asReviewer,
          body: { decision: 'reject', reason_codes: ['face_mismatch'] },
        }),
      );

      // Tenant settings and the watchlist.
      const origin = 'https://private-origin.idv.test';
      secrets.push(origin, 'Jane Watchlisted');
      await expectOk(
        await h.call('PATCH', '/v1/tenant', {
          token: admin,
          body: { name: 'Tenant A renamed', allowed_origins: [origin] },
        }),
      );
      await expectOk(
        await h.call('PUT', '/v1/watchlist', {
          token: admin,
          body: { entries: [{ name: 'Jane Watchlisted', date_of_birth: '1980-01-02' }] },
        }),
      );

      h.clock.advance(1000);
      // Logout last.
      await expectOk(await h.call('POST', '/v1/console/logout', { token: reviewer }));
      admin = await h.login();
    });
    after(() => h.close());

    it('records every audited action with its actor and target ids', async () => {
      const events = await list();
      const find = (action: string, targetId?: string) =>
        events.find(
          (event) => event.action === action && (targetId === undefined || event.target?.id === targetId),
        );
      const expectEvent = (action: string, targetId?: string) => {
        const event = find(action, targetId);
        assert.ok(
          event,
          `no ${action}${targetId ? ` on ${targetId}` : ''} in ${events.map((e) => e.action).join(', ')}`,
        );
        return event;
      };

      // The first login of before() came from CALLER; the harness's own logins come from another address.
      const login = events.find(
        (event) => event.action === 'console.login' && event.ip_prefix !== '203.0.113.0/24',
      );
      assert.ok(login);
      assert.deepEqual(login.actor, { type: 'user', id: adminId });
      assert.equal(login.ip_prefix, '198.51.100.0/24');
      assert.match(login.request_id, /^req_/);
      assert.equal(login.environment, null);

      const failed = expectEvent('console.login_failed', adminId);
      assert.deepEqual(failed.actor, { type: 'user', id: adminId });
      assert.deepEqual(failed.details, { reason: 'invalid_credentials' });

      expectEvent('user.invited', invitee.userId);
      assert.equal(find('user.invited', invitee.userId)?.actor.id, adminId);
      assert.deepEqual(find('user.invited', invitee.userId)?.details, { role: 'viewer' });
      assert.equal(expectEvent('user.invitation_accepted', invitee.userId).actor.id, invitee.userId);
      assert.deepEqual(expectEvent('user.role_changed', invitee.userId).details, {
        previous_role: 'viewer',
        role: 'reviewer',
      });
      expectEvent('user.disabled', invitee.userId);
      assert.deepEqual(expectEvent('console.login_failed', invitee.userId).details, {
        reason: 'user_disabled',
      });
      expectEvent('user.enabled', invitee.userId);

      const created = expectEvent('api_key.created', apiKeyId);
      assert.equal(created.environment, 'sandbox');
      expectEvent('api_key.revoked', apiKeyId);

      for (const action of [
        'webhook.created',
        'webhook.updated',
        'webhook.secret_rotated',
        'webhook.tested',
        'webhook.deleted',
      ]) {
        const event = expectEvent(action, webhookId);
        assert.equal(event.environment, 'sandbox');
        assert.equal(event.actor.id, adminId);
      }
      assert.deepEqual(find('webhook.updated')?.details, {
        fields: ['description', 'status'],
        status: 'disabled',
      });

      const approved = expectEvent('session.review_approved', approvedSessionId);
      assert.equal(approved.actor.id, invitee.userId);
      assert.equal(approved.environment, 'sandbox');
      assert.deepEqual(expectEvent('session.review_rejected', rejectedSessionId).details, {
        reason_codes: ['face_mismatch'],
      });

      assert.deepEqual(expectEvent('tenant.updated', h.tenant.tenantId).details, {
        fields: ['allowed_origins', 'name'],
      });
      const watchlist = expectEvent('watchlist.replaced');
      assert.deepEqual(watchlist.details, { entries: 1 });
      assert.equal(watchlist.environment, 'production');
      assert.equal(expectEvent('console.logout', invitee.userId).actor.id, invitee.userId);

      const times = events.map((event) => Date.parse(event.created_at));
      assert.ok(new Set(times).size >= 5);
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
        'newest first',
      );
    });

    it('records a failed login with an unknown address in no tenant, under a keyed digest only', async () => {
      const rows = await h.deps.db.query<Body>(
        `select * from audit_events where action = 'console.login_failed' and tenant_id is null`,
      );
      assert.equal(rows.length, 1);
      const row = rows[0] as Body;
      assert.equal(row['actor_type'], 'unknown_account');
      assert.match(row['actor_id'], /^[A-Za-z0-9_-]{20,}$/);
      assert.equal(row['ip_prefix'], '198.51.100.0/24');
      // The same address (in any case) gets the same digest, so repeated attempts can be correlated.
      await expectProblem(
        await h.call('POST', '/v1/console/login', {
          body: { email: 'nobody-at-all@UNKNOWN.idv.test', password: 'still-not-the-password' },
        }),
        401,
        'invalid_credentials',
      );
      const again = await h.deps.db.query<Body>(
        `select actor_id from audit_events where action = 'console.login_failed' and tenant_id is null`,
      );
      assert.deepEqual(new Set(again.map((r) => r['actor_id'])), new Set([row['actor_id']]));
      // Tenants never see it.
      assert.ok(!(await list()).some((event) => event.actor.type === 'unknown_account'));
    });

    it('stores no e-mail address, password, token, secret, URL, note, name or full IP address', async () => {
      const stored = JSON.stringify(await h.deps.db.query('select * from audit_events'));
      for (const secret of secrets) {
        assert.ok(
          !stored.toLowerCase().includes(secret.toLowerCase()),
          `the audit table holds ${secret.slice(0, 12)}…`,
        );
      }
      assert.doesNotMatch(stored, /@/, 'no e-mail address of any kind');
      assert.doesNotMatch(stored, /sk_(sandbox|live)_|whsec_|inv_/);
    });

    it('filters by action, actor, target type and id, environment and time, and pages with cursors', async () => {
      const byAction = await list('&action=webhook.created&action=webhook.deleted');
      assert.deepEqual(byAction.map((event) => event.action).sort(), ['webhook.created', 'webhook.deleted']);
      const byActor = await list(`&actor_id=${invitee.userId}`);
      assert.ok(byActor.length >= 3);
      assert.ok(byActor.every((event) => event.actor.id === invitee.userId));
      const sessions = await list('&target_type=session');
      assert.deepEqual(
        new Set(sessions.map((event) => event.target.id)),
        new Set([approvedSessionId, rejectedSessionId]),
      );
      const one = await list(`&target_id=${apiKeyId}`);
      assert.deepEqual(one.map((event) => event.action).sort(), ['api_key.created', 'api_key.revoked']);
      const sandbox = await list('&environment=sandbox');
      assert.ok(sandbox.length > 0 && sandbox.every((event) => event.environment === 'sandbox'));

      const all = await list();
      const newest = all[0] as Body;
      const later = new Date(Date.parse(newest.created_at) + 1).toISOString();
      assert.equal((await list(`&created_gte=${encodeURIComponent(later)}`)).length, 0);
      assert.equal((await list(`&created_lte=${encodeURIComponent(later)}`)).length, all.length);

      const page = await expectOk(await h.call('GET', '/v1/audit-events?limit=3', { token: admin }));
      assert.equal(page['has_more'], true);
      const next = await expectOk(
        await h.call('GET', `/v1/audit-events?limit=3&starting_after=${page['data'][2]['audit_event_id']}`, {
          token: admin,
        }),
      );
      assert.deepEqual(
        [...page['data'], ...next['data']].map((event: Body) => event.audit_event_id),
        all.slice(0, 6).map((event) => event.audit_event_id),
      );
      await expectProblem(
        await h.call('GET', '/v1/audit-events?action=user.deleted_everything', { token: admin }),
        400,
        'invalid_parameter',
      );
    });

    it('shows a tenant only its own events; another tenant’s cursor is invalid', async () => {
      const theirs = await h.login(h.other);
      const theirEvents = await list('', theirs);
      assert.ok(theirEvents.length > 0);
      assert.ok(theirEvents.every((event) => event.actor.id !== adminId));
      await expectProblem(
        await h.call('GET', `/v1/audit-events?starting_after=${theirEvents[0]?.audit_event_id}`, {
          token: admin,
        }),
        400,
        'invalid_cursor',
      );
      await expectProblem(
        await h.call('GET', '/v1/audit-events', { key: h.tenant.productionKey }),
        403,
        'insufficient_capability',
      );
    });

    it('records a replayed idempotent request once', async () => {
      const request = {
        token: admin,
        headers: { 'idempotency-key': `key-create-${Math.random()}`, 'x-environment': 'sandbox' },
        body: { name: 'replayed', environment: 'sandbox' },
      };
      const first = await expectOk(await h.call('POST', '/v1/api-keys', request), 201);
      const second = await h.call('POST', '/v1/api-keys', request);
      assert.equal(second.headers.get('idempotent-replayed'), 'true');
      assert.equal((await list(`&target_id=${first['api_key_id']}`)).length, 1);
    });

    it('is append-only: the database refuses updates and deleting anything younger than a year', async () => {
      await assert.rejects(
        h.deps.db.query(`update audit_events set action = 'console.logout'`),
        /append-only/,
      );
      await assert.rejects(h.deps.db.query('delete from audit_events'), /at least 365 days/);
      await assert.rejects(purgeExpiredAuditEvents(h.deps, { keepDays: 30 }), RangeError);
    });

    it('a retention sweep never deletes events younger than a year, even with a clock years ahead', async () => {
      const before = (await h.deps.db.query<{ n: number }>('select count(*)::int as n from audit_events'))[0]
        ?.n;
      // Two events really older than a year (by the database's clock), as an old installation would hold.
      await h.deps.db.query(
        `insert into audit_events (id, tenant_id, action, actor_type, actor_id, created_at)
         values ('aud_old1', $1, 'console.login', 'user', 'usr_old', now() - interval '400 days'),
                ('aud_old2', $1, 'console.logout', 'user', 'usr_old', now() - interval '800 days')`,
        [h.tenant.tenantId],
      );
      h.clock.advance(3 * 365 * DAY_MS);
      // The sweep purges the audit log too: only the two rows older than a year go.
      await createRetentionSweeper(h.deps).runOnce();
      const after = (await h.deps.db.query<{ n: number }>('select count(*)::int as n from audit_events'))[0]
        ?.n;
      assert.equal(after, before);
      const old = await h.deps.db.query(`select id from audit_events where id in ('aud_old1', 'aud_old2')`);
      assert.equal(old.length, 0);
      assert.equal(
        await purgeExpiredAuditEvents(h.deps, { batchSize: 1 }),
        0,
        'nothing younger is left to go',
      );
      const kept = await purgeExpiredAuditEvents(h.deps, { keepDays: 5000 });
      assert.equal(kept, 0);
    });
  });
}
