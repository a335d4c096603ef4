// The store conformance suite: the same SQL must behave the same on the embedded engine (PGlite) and on
// a PostgreSQL server. Every engine-sensitive behaviour the app relies on is pinned here: types coming
// back, transactions, row locks, compare-and-set, keyset pagination and the idempotency claim.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomIds } from '../../../server/crypto/ids.ts';
import { requiredSteps } from '../../../server/domain/session-steps.ts';
import { findApiKeyByKeyId, insertApiKey, revokeApiKey } from '../../../server/store/api-keys.ts';
import { claimIdempotencyKey, completeIdempotencyKey } from '../../../server/store/idempotency.ts';
import { migrate } from '../../../server/store/migrate.ts';
import { MIGRATIONS } from '../../../server/store/migrations/index.ts';
import {
  findOverdueSessionIds,
  findSession,
  findSessionForUpdate,
  insertSession,
  insertSessionWithEvent,
  newSessionRow,
  listSessions,
  type NewSession,
  type Scope,
  type SessionRow,
  updateSession,
} from '../../../server/store/sessions.ts';
import { type EventRow, listEventsOfSession } from '../../../server/store/events.ts';
import type { Database } from '../../../server/store/sql-client.ts';
import { insertTenant } from '../../../server/store/tenants.ts';
import { createTestDatabase, testEngines } from '../support/test-database.ts';

const T0 = new Date('2026-03-01T10:00:00.123Z');

function newSession(scope: Scope, overrides: Partial<NewSession> = {}): NewSession {
  const steps = requiredSteps('user', 'tier1');
  return {
    id: randomIds('sess'),
    tenant_id: scope.tenantId,
    environment: scope.environment,
    country: 'DEU',
    flow: 'user',
    tier: 'tier1',
    external_user_ref_enc: null,
    external_user_ref_index: null,
    redirect_url: null,
    metadata_enc: null,
    required_steps: steps,
    steps: steps.map((step) => ({ step, status: 'pending' as const, attempts_remaining: 3 })),
    verify_token_hash: null,
    verify_token_nonce: null,
    sandbox: null,
    expires_at: new Date(T0.getTime() + 86_400_000),
    created_at: T0,
    ...overrides,
  };
}

for (const engine of testEngines()) {
  describe(`store conformance (${engine})`, () => {
    let db: Database;
    const tenantA: Scope = { tenantId: 'ten_conformanceA', environment: 'sandbox' };
    const tenantB: Scope = { tenantId: 'ten_conformanceB', environment: 'sandbox' };

    before(async () => {
      db = await createTestDatabase(engine);
      await insertTenant(db, { id: tenantA.tenantId, name: 'A', now: T0 });
      await insertTenant(db, { id: tenantB.tenantId, name: 'B', now: T0 });
    });
    after(() => db.close());

    describe('migrations', () => {
      it('records every version once and applies nothing on a second run', async () => {
        assert.deepEqual(await migrate(db), []);
        const rows = await db.query<{ version: number }>(
          'select version from schema_migrations order by version',
        );
        assert.deepEqual(
          rows.map((row) => row.version),
          MIGRATIONS.map((migration) => migration.version),
        );
      });

      it('keeps versions strictly increasing', () => {
        const versions = MIGRATIONS.map((migration) => migration.version);
        assert.deepEqual(
          versions,
          [...versions].sort((a, b) => a - b),
        );
        assert.equal(new Set(versions).size, versions.length);
      });
    });

    describe('types and transactions', () => {
      it('returns timestamptz as Date with milliseconds, jsonb parsed, integers as numbers, nulls as null', async () => {
        const session = await insertSession(
          db,
          newSession(tenantA, { sandbox: { outcome: 'approved', n: 2 } }),
        );
        const found = (await findSession(db, tenantA, session.id))!;
        assert.ok(found.created_at instanceof Date);
        assert.equal(found.created_at.toISOString(), T0.toISOString());
        assert.deepEqual(found.sandbox, { outcome: 'approved', n: 2 });
        assert.deepEqual(found.required_steps, ['consent', 'id_document']);
        assert.equal(found.resubmissions, 0);
        assert.equal(typeof found.resubmissions, 'number');
        assert.equal(found.decided_at, null);
      });

      it('rolls the whole transaction back when the work throws, nested work included', async () => {
        const id = randomIds('sess');
        await assert.rejects(
          db.transaction(async (tx) => {
            await insertSession(tx, newSession(tenantA, { id }));
            await tx.transaction(async (nested) => {
              await nested.query('update sessions set country = $2 where id = $1', [id, 'FRA']);
            });
            throw new Error('boom');
          }),
          /boom/,
        );
        assert.equal(await findSession(db, tenantA, id), null);
      });

      it('commits when the work succeeds', async () => {
        const id = randomIds('sess');
        await db.transaction((tx) => insertSession(tx, newSession(tenantA, { id })));
        assert.ok(await findSession(db, tenantA, id));
      });

      it('serialises read-modify-write under FOR UPDATE: no lost update', async () => {
        const session = await insertSession(db, newSession(tenantA));
        const bump = () =>
          db.transaction(async (tx) => {
            const locked = (await findSessionForUpdate(tx, tenantA, session.id))!;
            await new Promise((resolve) => setTimeout(resolve, 5));
            await tx.query('update sessions set resubmissions = $2 where id = $1', [
              session.id,
              locked.resubmissions + 1,
            ]);
          });
        await Promise.all([bump(), bump(), bump(), bump()]);
        assert.equal((await findSession(db, tenantA, session.id))!.resubmissions, 4);
      });
    });

    describe('sessions', () => {
      it('scopes every lookup by tenant and environment', async () => {
        const session = await insertSession(db, newSession(tenantA));
        assert.equal(await findSession(db, tenantB, session.id), null);
        assert.equal(await findSession(db, { ...tenantA, environment: 'production' }, session.id), null);
        assert.equal(await findSessionForUpdate(db, tenantB, session.id), null);
      });

      it('inserts a session and its created event in one statement, both or neither', async () => {
        const createdEvent = (session: NewSession, id: string): EventRow => ({
          id,
          tenant_id: session.tenant_id,
          environment: session.environment,
          type: 'session.created',
          session_id: session.id,
          identity_id: null,
          payload: { event: 'session.created', event_id: id, session_id: session.id },
          created_at: T0,
        });
        const first = newSession(tenantA);
        await insertSessionWithEvent(db, first, createdEvent(first, 'evt_conformance1'));
        // The create route answers from newSessionRow before the insert: it must be the row written.
        const expected = newSessionRow(first);
        const written = (await findSession(db, tenantA, first.id)) as SessionRow;
        assert.deepEqual(
          Object.fromEntries(
            Object.keys(expected).map((column) => [column, written[column as keyof SessionRow]]),
          ),
          expected,
        );
        const events = await listEventsOfSession(db, first.id);
        assert.deepEqual(
          events.map((event) => [event.id, event.type, event.tenant_id, event.payload['session_id']]),
          [['evt_conformance1', 'session.created', tenantA.tenantId, first.id]],
        );
        // The event id is taken, so the event insert fails: the session insert must not survive it.
        const second = newSession(tenantA);
        const keyScope = { ...tenantA, credentialId: 'key_insert', key: 'create-1' };
        const claim = {
          ownerId: 'process-a',
          claimId: 'claim-insert',
          now: T0,
          leaseExpiresAt: new Date(T0.getTime() + 10_000),
          liveClaimIds: [],
        };
        assert.equal(await claimIdempotencyKey(db, keyScope, 'fp', claim, T0, T0), null);
        const answer = { scope: keyScope, claimId: 'claim-insert', status: 201, body: 'sealed answer' };
        await assert.rejects(
          insertSessionWithEvent(db, second, createdEvent(second, 'evt_conformance1'), answer),
        );
        assert.equal(await findSession(db, tenantA, second.id), null);
        const keyRow = () =>
          db.query<{ status: string; response_status: number | null; response_body: string | null }>(
            'select status, response_status, response_body from idempotency_keys where key = $1',
            [keyScope.key],
          );
        assert.deepEqual(await keyRow(), [
          { status: 'in_progress', response_status: null, response_body: null },
        ]);
        // The answer of an Idempotency-Key commits with the session, in the same statement.
        await insertSessionWithEvent(db, second, createdEvent(second, 'evt_conformance2'), answer);
        assert.deepEqual(await keyRow(), [
          { status: 'done', response_status: 201, response_body: 'sealed answer' },
        ]);
      });

      it('lets only one of two racing transitions win (compare-and-set on status)', async () => {
        const session = await insertSession(db, newSession(tenantA));
        const results = await Promise.all([
          updateSession(db, session.id, 'created', { status: 'collecting' }, T0),
          updateSession(db, session.id, 'created', { status: 'cancelled' }, T0),
        ]);
        assert.equal(results.filter((row) => row !== null).length, 1);
        assert.equal(await updateSession(db, session.id, 'created', { status: 'expired' }, T0), null);
      });

      it('stores step progress and last_error as JSON', async () => {
        const session = await insertSession(db, newSession(tenantA));
        const steps = session.steps.map((step) => ({ ...step, status: 'completed' as const }));
        const updated = await updateSession(
          db,
          session.id,
          'created',
          { steps, last_error: { code: 'document_unreadable', reason: 'blurry' } },
          T0,
        );
        assert.deepEqual(updated!.steps, steps);
        assert.deepEqual(updated!.last_error, { code: 'document_unreadable', reason: 'blurry' });
      });

      it('pages newest first with keyset cursors both ways and filters', async () => {
        const scope: Scope = { tenantId: tenantB.tenantId, environment: 'production' };
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const row = await insertSession(
            db,
            newSession(scope, {
              created_at: new Date(T0.getTime() + i * 1000),
              country: i % 2 ? 'FRA' : 'DEU',
            }),
          );
          ids.push(row.id);
        }
        const newestFirst = [...ids].reverse();
        const first = await listSessions(db, scope, {}, { limit: 2 });
        assert.deepEqual(
          first.rows.map((row) => row.id),
          newestFirst.slice(0, 2),
        );
        assert.equal(first.hasMore, true);
        const second = await listSessions(db, scope, {}, { limit: 2, after: first.rows[1]! });
        assert.deepEqual(
          second.rows.map((row) => row.id),
          newestFirst.slice(2, 4),
        );
        const back = await listSessions(db, scope, {}, { limit: 2, before: second.rows[0]! });
        assert.deepEqual(
          back.rows.map((row) => row.id),
          newestFirst.slice(0, 2),
        );
        const last = await listSessions(db, scope, {}, { limit: 2, after: second.rows[1]! });
        assert.deepEqual(
          last.rows.map((row) => row.id),
          newestFirst.slice(4),
        );
        assert.equal(last.hasMore, false);
        const french = await listSessions(db, scope, { country: 'FRA' }, { limit: 10 });
        assert.equal(french.rows.length, 2);
        const statuses = await listSessions(db, scope, { statuses: ['created', 'expired'] }, { limit: 10 });
        assert.equal(statuses.rows.length, 5);
        const window = await listSessions(
          db,
          scope,
          { createdGte: new Date(T0.getTime() + 1000), createdLte: new Date(T0.getTime() + 3000) },
          { limit: 10 },
        );
        assert.equal(window.rows.length, 3);

        // Oldest first: the same keyset cursors, following the list's order.
        const oldest = await listSessions(db, scope, {}, { limit: 2 }, 'asc');
        assert.deepEqual(
          oldest.rows.map((row) => row.id),
          ids.slice(0, 2),
        );
        assert.equal(oldest.hasMore, true);
        const next = await listSessions(db, scope, {}, { limit: 2, after: oldest.rows[1]! }, 'asc');
        assert.deepEqual(
          next.rows.map((row) => row.id),
          ids.slice(2, 4),
        );
        const previous = await listSessions(db, scope, {}, { limit: 2, before: next.rows[0]! }, 'asc');
        assert.deepEqual(
          previous.rows.map((row) => row.id),
          ids.slice(0, 2),
        );
        const end = await listSessions(db, scope, {}, { limit: 2, after: next.rows[1]! }, 'asc');
        assert.deepEqual(
          end.rows.map((row) => row.id),
          ids.slice(4),
        );
        assert.equal(end.hasMore, false);
      });

      it('finds open sessions past their deadline, and only those', async () => {
        const scope: Scope = { tenantId: tenantA.tenantId, environment: 'production' };
        const overdue = await insertSession(
          db,
          newSession(scope, { expires_at: new Date(T0.getTime() + 1000) }),
        );
        const fresh = await insertSession(
          db,
          newSession(scope, { expires_at: new Date(T0.getTime() + 10_000_000) }),
        );
        const closed = await insertSession(
          db,
          newSession(scope, { expires_at: new Date(T0.getTime() + 1000) }),
        );
        await updateSession(db, closed.id, 'created', { status: 'cancelled' }, T0);
        const found = (await findOverdueSessionIds(db, new Date(T0.getTime() + 5000), 100)).map(
          (row) => row.id,
        );
        assert.ok(found.includes(overdue.id));
        assert.ok(!found.includes(fresh.id));
        assert.ok(!found.includes(closed.id));
      });
    });

    describe('api keys', () => {
      it('finds a key by its public key id with the tenant status, and marks it revoked', async () => {
        const id = randomIds('key');
        await insertApiKey(db, {
          id,
          tenant_id: tenantA.tenantId,
          environment: 'sandbox',
          name: 'ci',
          key_id: 'Ab3dEf7h',
          secret_hash: 'hash',
          last4: 'wxyz',
          created_by: null,
          created_at: T0,
        });
        const found = (await findApiKeyByKeyId(db, 'Ab3dEf7h'))!;
        assert.equal(found.id, id);
        assert.equal(found.tenant_status, 'active');
        assert.equal(found.revoked_at, null);
        await revokeApiKey(db, tenantA.tenantId, id, T0);
        assert.ok((await findApiKeyByKeyId(db, 'Ab3dEf7h'))!.revoked_at instanceof Date);
      });
    });

    describe('idempotency keys', () => {
      const scope = { tenantId: tenantA.tenantId, environment: 'sandbox', credentialId: 'key_1', key: 'k-1' };
      const day = 86_400_000;
      let claims = 0;
      /** A claim at `now` by `owner` with a 10 s lease and no other live attempt; answers null when won. */
      const claimAt = (keyScope: typeof scope, fingerprint: string, now: Date, owner = 'process-a') =>
        claimIdempotencyKey(
          db,
          keyScope,
          fingerprint,
          {
            ownerId: owner,
            claimId: `claim-${++claims}`,
            now,
            leaseExpiresAt: new Date(now.getTime() + 10_000),
            liveClaimIds: [],
          },
          new Date(now.getTime() - day),
          new Date(now.getTime() - 60_000),
        );

      it('gives a key to exactly one of two racing claims', async () => {
        const raceScope = { ...scope, key: 'race' };
        const results = await Promise.all([
          claimAt(raceScope, 'fp', T0, 'process-a'),
          claimAt(raceScope, 'fp', T0, 'process-b'),
        ]);
        assert.equal(results.filter((claim) => claim === null).length, 1);
      });

      it('returns the stored response to a later claim, and frees the key after 24 h', async () => {
        assert.equal(await claimAt(scope, 'fp', T0), null);
        await completeIdempotencyKey(db, {
          scope,
          claimId: `claim-${claims}`,
          status: 201,
          body: '{"ok":true}',
        });
        const replay = await claimAt(scope, 'fp', new Date(T0.getTime() + 1000));
        assert.equal(replay?.status, 'done');
        assert.equal(replay?.response_status, 201);
        assert.equal(replay?.response_body, '{"ok":true}');
        assert.equal(await claimAt(scope, 'fp2', new Date(T0.getTime() + day + 1000)), null);
      });

      it('lets another process take over a claim once its lease has run out, not before', async () => {
        const staleScope = { ...scope, key: 'stale' };
        assert.equal(await claimAt(staleScope, 'fp', T0, 'process-a'), null);
        const withinLease = await claimAt(staleScope, 'fp', new Date(T0.getTime() + 9_000), 'process-b');
        assert.equal(withinLease?.status, 'in_progress');
        assert.equal(await claimAt(staleScope, 'fp', new Date(T0.getTime() + 11_000), 'process-b'), null);
      });

      it('takes over a lease-less claim from before the lease columns after 60 s', async () => {
        const legacyScope = { ...scope, key: 'legacy' };
        await db.query(
          `insert into idempotency_keys (tenant_id, environment, credential_id, key, fingerprint, status, created_at)
           values ($1, $2, $3, $4, 'fp', 'in_progress', $5)`,
          [legacyScope.tenantId, legacyScope.environment, legacyScope.credentialId, legacyScope.key, T0],
        );
        assert.equal(
          (await claimAt(legacyScope, 'fp', new Date(T0.getTime() + 30_000)))?.status,
          'in_progress',
        );
        assert.equal(await claimAt(legacyScope, 'fp', new Date(T0.getTime() + 61_000)), null);
      });
    });
  });
}
