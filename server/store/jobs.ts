import type { Environment } from '../domain/api-key-format.ts';
import type { SqlClient } from './sql-client.ts';

/** One automated review of one session, waiting, running (claimed) or finished. */
export interface ReviewJobRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  session_id: string;
  run_at: Date;
  attempts: number;
  claimed_by: string | null;
  claimed_until: Date | null;
  last_error: string | null;
  outcome: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

/**
 * Queues the review of a session; call in the transaction that moved it to `processing`. A session has at
 * most one unfinished job, so a repeated submit adds nothing.
 */
export async function insertReviewJob(
  sql: SqlClient,
  job: Pick<ReviewJobRow, 'id' | 'tenant_id' | 'environment' | 'session_id' | 'run_at' | 'created_at'>,
): Promise<void> {
  await sql.query(
    `insert into review_jobs (id, tenant_id, environment, session_id, run_at, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $6)
     on conflict (session_id) where finished_at is null do nothing`,
    [job.id, job.tenant_id, job.environment, job.session_id, job.run_at, job.created_at],
  );
}

/**
 * Claims up to `limit` due jobs for `workerId` until `leaseUntil` and commits the claim at once.
 * `FOR UPDATE SKIP LOCKED` lets several server instances claim concurrently without ever taking the same
 * job; a job whose lease lapsed (its worker died) is due again.
 */
export async function claimDueReviewJobs(
  sql: SqlClient,
  options: { workerId: string; now: Date; leaseUntil: Date; limit: number },
): Promise<ReviewJobRow[]> {
  return sql.query<ReviewJobRow>(
    `with due as (
       select id from review_jobs
        where finished_at is null and run_at <= $1 and (claimed_until is null or claimed_until <= $1)
        order by run_at, id
        limit $4
        for update skip locked
     )
     update review_jobs as job
        set claimed_by = $2, claimed_until = $3, attempts = job.attempts + 1, updated_at = $1
       from due
      where job.id = due.id
     returning job.*`,
    [options.now, options.workerId, options.leaseUntil, options.limit],
  );
}

/**
 * Locks a job for finishing, only while `workerId` still holds it: a worker whose lease lapsed and was
 * taken over must not write a second decision.
 */
export async function lockClaimedReviewJob(
  sql: SqlClient,
  id: string,
  workerId: string,
): Promise<ReviewJobRow | null> {
  const rows = await sql.query<ReviewJobRow>(
    `select * from review_jobs where id = $1 and claimed_by = $2 and finished_at is null for update`,
    [id, workerId],
  );
  return rows[0] ?? null;
}

/** Marks a job done with what came of it (a decision, `resubmission_requested`, `skipped:<status>`). */
export async function finishReviewJob(sql: SqlClient, id: string, outcome: string, now: Date): Promise<void> {
  await sql.query(
    `update review_jobs set finished_at = $2, outcome = $3, claimed_until = null, updated_at = $2
      where id = $1 and finished_at is null`,
    [id, now, outcome],
  );
}

/** Finishes a session's open job, whoever holds it: a reviewer or a simulation decided instead. */
export async function finishOpenReviewJobOfSession(
  sql: SqlClient,
  sessionId: string,
  outcome: string,
  now: Date,
): Promise<void> {
  await sql.query(
    `update review_jobs set finished_at = $2, outcome = $3, claimed_until = null, updated_at = $2
      where session_id = $1 and finished_at is null`,
    [sessionId, now, outcome],
  );
}

/**
 * Hands a failed attempt back to the queue for a later retry. Only the holder may release; `error` is a
 * class name or code, never a message that could quote personal data.
 */
export async function releaseReviewJob(
  sql: SqlClient,
  options: { id: string; workerId: string; runAt: Date; error: string; now: Date },
): Promise<void> {
  await sql.query(
    `update review_jobs set claimed_by = null, claimed_until = null, run_at = $3, last_error = $4, updated_at = $5
      where id = $1 and claimed_by = $2 and finished_at is null`,
    [options.id, options.workerId, options.runAt, options.error, options.now],
  );
}

export async function findReviewJobsOfSession(sql: SqlClient, sessionId: string): Promise<ReviewJobRow[]> {
  return sql.query<ReviewJobRow>('select * from review_jobs where session_id = $1 order by created_at, id', [
    sessionId,
  ]);
}
