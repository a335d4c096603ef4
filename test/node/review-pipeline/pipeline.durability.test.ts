import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ReviewEvidence } from '../../../server/domain/review/index.ts';
import type { EvidenceCollector } from '../../../server/features/review/evidence-collector.ts';
import { findReviewJobsOfSession } from '../../../server/store/jobs.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import {
  completeAndSubmit,
  createSession,
  EvidenceBook,
  eventTypes,
  goodEvidence,
  result,
  worker,
} from './pipeline-support.ts';

/** A collector that can be made to hang (a worker dying mid-job) or to throw. */
class ControllableCollector {
  readonly book = new EvidenceBook();
  mode: 'normal' | 'hang' | 'throw' = 'normal';
  readonly #hung: Array<() => void> = [];

  readonly collector: EvidenceCollector = async (sql, deps, session): Promise<ReviewEvidence> => {
    if (this.mode === 'throw') throw new TypeError('evidence store unreachable');
    if (this.mode === 'hang') await new Promise<void>((resume) => this.#hung.push(resume));
    return this.book.collector(sql, deps, session);
  };

  /** Lets a "dead" worker continue, as a paused process that wakes up after its lease lapsed. */
  wakeTheDead(): void {
    for (const resume of this.#hung.splice(0)) resume();
  }
}

async function decisionCount(h: TestHarness, sessionId: string): Promise<number> {
  const rows = await h.deps.db.query<{ count: number }>(
    `select count(*)::int as count from session_decisions where session_id = $1`,
    [sessionId],
  );
  return rows[0]?.count ?? 0;
}

for (const engine of testEngines()) {
  describe(`automated review pipeline, durability (${engine})`, () => {
    let h: TestHarness;
    const evidence = new ControllableCollector();
    before(async () => {
      h = await createHarness(engine, { collectReviewEvidence: evidence.collector });
    });
    after(() => h.close());

    it('decides after a worker dies mid-job: the lapsed claim is taken over, the dead worker writes nothing', async () => {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key);
      const id = session['session_id'];
      evidence.book.set(id, goodEvidence(h));
      await completeAndSubmit(h, key, id);

      evidence.mode = 'hang';
      const dying = worker(h, { workerId: 'wrk_dying', leaseMs: 30_000 });
      const deadRound = dying.runOnce();
      // Let the dying worker claim the job and get stuck reading evidence.
      for (
        let i = 0;
        i < 50 && (await findReviewJobsOfSession(h.deps.db, id))[0]?.claimed_by !== 'wrk_dying';
        i++
      ) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal((await findReviewJobsOfSession(h.deps.db, id))[0]?.claimed_by, 'wrk_dying');
      assert.equal((await result(h, key, id))['status'], 'processing');

      evidence.mode = 'normal';
      const restarted = worker(h, { workerId: 'wrk_restarted' });
      assert.equal((await restarted.runOnce()).claimed, 0, 'the claim holds while its lease runs');
      h.clock.advance(30_001);
      const round = await restarted.runOnce();
      assert.equal(round.decided, 1, 'the lapsed job is decided by the new worker');
      assert.equal((await result(h, key, id))['decision'], 'approved');

      evidence.wakeTheDead();
      const late = await deadRound;
      assert.equal(late.decided, 0, 'the worker that lost its claim does not decide again');
      assert.equal(await decisionCount(h, id), 1);
      const types = await eventTypes(h, id);
      assert.equal(types.filter((type) => type === 'session.approved').length, 1);
      assert.equal(types.filter((type) => type === 'identity.created').length, 1);
      const [job] = await findReviewJobsOfSession(h.deps.db, id);
      assert.equal(job?.attempts, 2);
      assert.equal(job?.outcome, 'approved');
    });

    it('never lets two concurrent workers process the same job', async () => {
      const key = h.tenant.sandboxKey;
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const session = await createSession(h, key);
        ids.push(session['session_id']);
        evidence.book.set(session['session_id'], goodEvidence(h));
        await completeAndSubmit(h, key, session['session_id']);
      }
      const [first, second] = await Promise.all([
        worker(h, { workerId: 'wrk_a', batchSize: 8 }).runOnce(),
        worker(h, { workerId: 'wrk_b', batchSize: 8 }).runOnce(),
      ]);
      assert.equal(first.claimed + second.claimed, 8, 'every job claimed exactly once');
      assert.equal(first.decided + second.decided, 8);
      for (const id of ids) {
        assert.equal(evidence.book.calls.get(id), 1, 'each session reviewed once');
        assert.equal(await decisionCount(h, id), 1);
        assert.equal((await result(h, key, id))['decision'], 'approved');
      }
    });

    it('retries a job whose review failed, later, and decides it once the failure clears', async () => {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key);
      const id = session['session_id'];
      evidence.book.set(id, goodEvidence(h));
      await completeAndSubmit(h, key, id);
      evidence.mode = 'throw';
      const failing = await worker(h).runOnce();
      assert.equal(failing.failed, 1);
      const [job] = await findReviewJobsOfSession(h.deps.db, id);
      assert.equal(job?.last_error, 'TypeError', 'the class name only, never the message');
      assert.equal(job?.claimed_by, null, 'released for another attempt');
      evidence.mode = 'normal';
      assert.equal((await worker(h).runOnce()).claimed, 0, 'backs off before retrying');
      h.clock.advance(5_000);
      assert.equal((await worker(h).runOnce()).decided, 1);
      assert.equal((await result(h, key, id))['decision'], 'approved');
    });

    it('hands a job that keeps failing to a person instead of looping forever', async () => {
      const key = h.tenant.productionKey;
      const session = await createSession(h, key);
      const id = session['session_id'];
      await completeAndSubmit(h, key, id);
      evidence.mode = 'throw';
      try {
        for (let attempt = 1; attempt <= 3; attempt++) {
          await worker(h, { maxAttempts: 3 }).runOnce();
          h.clock.advance(600_000);
        }
      } finally {
        evidence.mode = 'normal';
      }
      const outcome = await result(h, key, id);
      assert.equal(outcome['status'], 'review_required');
      assert.deepEqual(outcome['checks'], [], 'no check pretends to have run');
      const [job] = await findReviewJobsOfSession(h.deps.db, id);
      assert.equal(job?.outcome, 'failed');
      assert.ok(job?.finished_at);
    });

    it('skips a job whose session is no longer processing', async () => {
      const key = h.tenant.sandboxKey;
      const session = await createSession(h, key);
      const id = session['session_id'];
      evidence.book.set(id, goodEvidence(h));
      await completeAndSubmit(h, key, id);
      // A reviewer-free path decided first (the simulation finishes the job itself).
      await h.deps.db.query(`update sessions set status = 'review_required' where id = $1`, [id]);
      const round = await worker(h).runOnce();
      assert.equal(round.skipped, 1);
      assert.equal((await findReviewJobsOfSession(h.deps.db, id))[0]?.outcome, 'skipped:review_required');
    });
  });
}
