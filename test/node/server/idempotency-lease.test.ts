// An Idempotency-Key whose first attempt died is taken over as soon as its lease runs out (or at once
// when the row names this very process and no attempt here holds it), while a live attempt (one whose
// lease is current, and renewed while it runs) still answers 409 to a retry.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppDeps } from '../../../server/app-deps.ts';
import { ApiError } from '../../../server/errors/api-error.ts';
import type { AppEnv } from '../../../server/http/app-env.ts';
import { PROCESS_OWNER_ID } from '../../../server/http/idempotency-lease.ts';
import { runIdempotently, tenantReplayFailure } from '../../../server/http/idempotent-replay.ts';
import { testEngines } from '../support/test-database.ts';
import { type Instance, startTwoInstances, type TwoInstances } from './two-instances.ts';

const BODY = { country: 'DEU', flow: 'user', tier: 'tier1' };

/** Makes the stored row of `key` look like an attempt still running in `owner`, with the given lease. */
async function pretendRunning(pair: TwoInstances, key: string, owner: string, leaseExpiresAt: Date) {
  const rows = await pair.db.query(
    `update idempotency_keys
        set status = 'in_progress', response_status = null, response_body = null,
            owner_id = $2, claim_id = 'claim-of-a-dead-attempt', lease_expires_at = $3
      where key = $1 returning 1`,
    [key, owner, leaseExpiresAt],
  );
  assert.equal(rows.length, 1, 'the row of the key exists');
}

function createSession(instance: Instance, apiKey: string, idempotencyKey: string) {
  return instance.call('POST', '/v1/sessions', {
    headers: { 'x-api-key': apiKey, 'idempotency-key': idempotencyKey },
    body: BODY,
  });
}

async function sessionCount(pair: TwoInstances): Promise<number> {
  const rows = await pair.db.query<{ count: number }>('select count(*)::int as count from sessions');
  return rows[0]?.count ?? 0;
}

for (const engine of testEngines()) {
  describe(`Idempotency-Key leases across instances (${engine})`, () => {
    let pair: TwoInstances;
    before(async () => {
      pair = await startTwoInstances(engine);
    });
    after(() => pair.close());

    it('takes over a key whose owner died once its lease has run out', async () => {
      const key = `dead-owner-${engine}`;
      const apiKey = pair.tenant.sandboxKey;
      assert.equal((await createSession(pair.first, apiKey, key)).status, 201);
      const before = await sessionCount(pair);
      // A process that crashed mid-request: its lease ran out a second ago and nobody renews it.
      await pretendRunning(pair, key, 'a-process-that-crashed', new Date(pair.clock.now().getTime() - 1000));
      const retried = await createSession(pair.second, apiKey, key);
      assert.equal(retried.status, 201, await retried.clone().text());
      assert.equal(retried.headers.get('idempotent-replayed'), null, 'ran again, not replayed');
      assert.equal(await sessionCount(pair), before + 1);
      const replayed = await createSession(pair.first, apiKey, key);
      assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
      const [row] = await pair.db.query<{ owner_id: string; status: string }>(
        'select owner_id, status from idempotency_keys where key = $1',
        [key],
      );
      assert.deepEqual(row, { owner_id: PROCESS_OWNER_ID, status: 'done' });
    });

    it('answers 409 while the lease of another process is current', async () => {
      const key = `live-owner-${engine}`;
      const apiKey = pair.tenant.sandboxKey;
      assert.equal((await createSession(pair.first, apiKey, key)).status, 201);
      await pretendRunning(pair, key, 'another-live-process', new Date(pair.clock.now().getTime() + 5_000));
      const during = await createSession(pair.second, apiKey, key);
      assert.equal(during.status, 409);
      assert.equal(((await during.json()) as { code: string }).code, 'idempotency_request_in_progress');
      pair.clock.advance(6_000);
      assert.equal((await createSession(pair.second, apiKey, key)).status, 201);
    });

    it('takes over at once a claim of this very process that no running attempt holds', async () => {
      const key = `own-dead-claim-${engine}`;
      const apiKey = pair.tenant.sandboxKey;
      assert.equal((await createSession(pair.first, apiKey, key)).status, 201);
      await pretendRunning(pair, key, PROCESS_OWNER_ID, new Date(pair.clock.now().getTime() + 5_000));
      assert.equal((await createSession(pair.second, apiKey, key)).status, 201);
    });
  });

  describe(`a live attempt keeps its key (${engine})`, () => {
    const LEASE_MS = 300;
    let pair: TwoInstances;
    before(async () => {
      pair = await startTwoInstances(engine, { config: { idempotencyLeaseMs: LEASE_MS } });
    });
    after(() => pair.close());

    /** A route whose handler waits for `release`, run through the real idempotency code on `deps`. */
    function slowApp(deps: AppDeps, release: Promise<void>) {
      const app = new Hono<AppEnv>();
      app.onError((error, c) =>
        c.json(
          { code: error instanceof ApiError ? error.code : 'internal' },
          ((error as ApiError).status ?? 500) as ContentfulStatusCode,
        ),
      );
      app.post('/slow', async (c) => {
        const scope = {
          tenantId: 'tenant-slow',
          environment: 'sandbox',
          credentialId: 'cred-slow',
          key: 'k',
        };
        const replayed = await runIdempotently(
          c,
          deps,
          { scope, request: 'POST /slow', fail: tenantReplayFailure },
          async () => {
            await release;
            c.res = c.json({ done: true }, 201);
          },
        );
        return replayed ?? c.res;
      });
      return app;
    }

    it('answers 409 to a retry on another instance while the first runs, past its first lease', async () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const first = slowApp(pair.first.deps, released);
      const second = slowApp(pair.second.deps, released);
      const running = first.request('/slow', { method: 'POST' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const retry = await second.request('/slow', { method: 'POST' });
      assert.equal(retry.status, 409);
      assert.equal(((await retry.json()) as { code: string }).code, 'idempotency_request_in_progress');
      // The clock passes the first lease; the renewal (every LEASE_MS / 3) pushes it forward again.
      pair.clock.advance(LEASE_MS * 2);
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
      const [row] = await pair.db.query<{ lease_expires_at: Date }>(
        `select lease_expires_at from idempotency_keys where key = 'k' and credential_id = 'cred-slow'`,
      );
      assert.ok(row && row.lease_expires_at.getTime() > pair.clock.now().getTime(), 'the lease was renewed');
      assert.equal((await second.request('/slow', { method: 'POST' })).status, 409);
      release();
      assert.equal((await running).status, 201);
      const replayed = await second.request('/slow', { method: 'POST' });
      assert.equal(replayed.status, 201);
      assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
    });
  });
}
