import type { AppDeps } from '../app-deps.ts';
import { createPollingLoop } from './polling-loop.ts';
import { randomBase62 } from '../crypto/primitives.ts';
import { transitionSession } from '../features/sessions/transition-session.ts';
import { insertDecision } from '../store/decisions.ts';
import {
  claimDueReviewJobs,
  finishReviewJob,
  lockClaimedReviewJob,
  type ReviewJobRow,
  releaseReviewJob,
} from '../store/jobs.ts';
import { findSession, findSessionForUpdate } from '../store/sessions.ts';
import { applyDecision, requestResubmission } from '../features/review/apply-review-outcome.ts';
import { shouldRequestResubmission } from '../features/review/resubmission.ts';
import { reviewSession } from '../features/review/review-session.ts';

export interface ReviewWorkerOptions {
  /** Names this worker's claims; random by default, so two instances never share one. */
  workerId?: string;
  /** How long a claim holds before another worker may take the job over (default 60 s). */
  leaseMs?: number;
  /** Jobs claimed per round (default 5). */
  batchSize?: number;
  /** Pause between rounds of the background loop when the queue is empty (default 1 s). */
  pollIntervalMs?: number;
  /** Attempts before a job that keeps failing goes to a person (default 5). */
  maxAttempts?: number;
}

/** What one round did, for tests and logs. */
export interface ReviewRound {
  claimed: number;
  decided: number;
  resubmissions: number;
  skipped: number;
  failed: number;
}

export interface ReviewWorker {
  readonly workerId: string;
  /** Claims and processes the due jobs once; the unit of the loop and of tests. */
  runOnce(): Promise<ReviewRound>;
  /** Starts the background loop (idempotent). */
  start(): void;
  /** Stops the loop and waits for the round in progress to end. */
  stop(): Promise<void>;
}

const DEFAULTS = { leaseMs: 60_000, batchSize: 5, pollIntervalMs: 1_000, maxAttempts: 5 };

/** 5 s, 20 s, 80 s… between attempts of a failing job, capped at 10 min. */
function retryDelayMs(attempt: number): number {
  return Math.min(5_000 * 4 ** Math.max(0, attempt - 1), 600_000);
}

type JobOutcome = 'decided' | 'resubmissions' | 'skipped';

/**
 * The in-process automated review worker. It claims due jobs with `FOR UPDATE SKIP LOCKED` under a lease,
 * reviews each session outside any transaction, then writes the outcome in one transaction that also
 * finishes the job, and only while it still holds the claim. A worker that dies mid-job leaves its lease
 * to lapse; the job is then claimed again and decided exactly once. Time comes from `deps.clock`.
 *
 * @example
 * const worker = createReviewWorker(deps);
 * worker.start();
 * // on shutdown
 * await worker.stop();
 */
export function createReviewWorker(deps: AppDeps, options: ReviewWorkerOptions = {}): ReviewWorker {
  const workerId = options.workerId ?? `wrk_${randomBase62(64)}`;
  const settings = { ...DEFAULTS, ...options };

  async function process(job: ReviewJobRow): Promise<JobOutcome> {
    const scope = { tenantId: job.tenant_id, environment: job.environment };
    const session = await findSession(deps.db, scope, job.session_id);
    if (session?.status !== 'processing') {
      await deps.db.transaction(async (tx) => {
        if (await lockClaimedReviewJob(tx, job.id, workerId)) {
          await finishReviewJob(tx, job.id, `skipped:${session?.status ?? 'missing'}`, deps.clock.now());
        }
      });
      return 'skipped';
    }
    const { evidence, result } = await reviewSession(deps, session);
    return deps.db.transaction(async (tx): Promise<JobOutcome> => {
      // Lost the claim (the lease lapsed and another worker took over): write nothing.
      if (!(await lockClaimedReviewJob(tx, job.id, workerId))) return 'skipped';
      const locked = await findSessionForUpdate(tx, scope, job.session_id);
      if (locked?.status !== 'processing') {
        await finishReviewJob(tx, job.id, `skipped:${locked?.status ?? 'missing'}`, deps.clock.now());
        return 'skipped';
      }
      if (shouldRequestResubmission(result, locked, deps.clock.now())) {
        await requestResubmission(tx, deps, locked, result);
        return 'resubmissions';
      }
      await applyDecision(
        tx,
        deps,
        locked,
        { decision: result.decision, reasons: result.reasons, checks: result.checks, decidedBy: 'automated' },
        evidence,
      );
      return 'decided';
    });
  }

  /** A job that failed `maxAttempts` times goes to a person instead of looping forever. */
  async function giveUp(job: ReviewJobRow): Promise<void> {
    await deps.db.transaction(async (tx) => {
      if (!(await lockClaimedReviewJob(tx, job.id, workerId))) return;
      const now = deps.clock.now();
      const scope = { tenantId: job.tenant_id, environment: job.environment };
      const locked = await findSessionForUpdate(tx, scope, job.session_id);
      if (locked?.status === 'processing') {
        await transitionSession(tx, deps, locked, 'review_required', 'decided', {
          decision: 'review_required',
          decided_at: now,
          last_error: {
            code: 'internal_error',
            reason: 'The automated review failed; a reviewer must decide.',
          },
        });
        // No checks: none ran to completion, and the result must not pretend otherwise.
        await insertDecision(tx, {
          tenant_id: job.tenant_id,
          environment: job.environment,
          session_id: job.session_id,
          outcome: 'review_required',
          decided_by: 'automated',
          reviewer_id: null,
          reasons: [],
          checks: [],
          note_enc: null,
          created_at: now,
        });
      }
      await finishReviewJob(tx, job.id, 'failed', now);
    });
  }

  async function runOnce(): Promise<ReviewRound> {
    const now = deps.clock.now();
    const jobs = await claimDueReviewJobs(deps.db, {
      workerId,
      now,
      leaseUntil: new Date(now.getTime() + settings.leaseMs),
      limit: settings.batchSize,
    });
    const report: ReviewRound = { claimed: jobs.length, decided: 0, resubmissions: 0, skipped: 0, failed: 0 };
    for (const job of jobs) {
      try {
        report[await process(job)] += 1;
      } catch (error) {
        report.failed += 1;
        // The class name only: a message could quote evidence, and logs never carry personal data.
        const errorName = error instanceof Error ? error.name : typeof error;
        deps.logger?.error('review job failed', {
          job_id: job.id,
          session_id: job.session_id,
          attempt: job.attempts,
          error: errorName,
        });
        try {
          if (job.attempts >= settings.maxAttempts) await giveUp(job);
          else {
            const at = deps.clock.now();
            await releaseReviewJob(deps.db, {
              id: job.id,
              workerId,
              runAt: new Date(at.getTime() + retryDelayMs(job.attempts)),
              error: errorName,
              now: at,
            });
          }
        } catch {
          // The database is unreachable too: the lease lapses and the job is retried anyway.
        }
      }
    }
    return report;
  }

  const loop = createPollingLoop({
    name: 'review worker round',
    round: runOnce,
    // A full batch means more are waiting: go again at once.
    pauseAfter: (report) => (report.claimed === settings.batchSize ? 0 : settings.pollIntervalMs),
    pauseAfterError: settings.pollIntervalMs,
    logger: deps.logger,
  });

  return { workerId, runOnce, start: loop.start, stop: loop.stop };
}
