import type { Environment } from '../domain/api-key-format.ts';
import type { LivenessAction } from '../domain/liveness-challenge.ts';
import type { LivenessJudgement } from '../domain/liveness-judgement.ts';
import type { SqlClient } from './sql-client.ts';
import type { Scope } from './sessions.ts';

export interface LivenessChallengeRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  session_id: string;
  actions: LivenessAction[];
  expires_at: Date;
  created_at: Date;
  answered_at: Date | null;
  outcome: 'accepted' | 'retry' | null;
  retry_reason: string | null;
  /** The models' verdict per action; null when no model judged the attempt (see migration 007). */
  judgement: LivenessJudgement | null;
}

export async function insertLivenessChallenge(
  sql: SqlClient,
  row: Omit<LivenessChallengeRow, 'answered_at' | 'outcome' | 'retry_reason' | 'judgement'>,
): Promise<void> {
  await sql.query(
    `insert into liveness_challenges (id, tenant_id, environment, session_id, actions, expires_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      row.id,
      row.tenant_id,
      row.environment,
      row.session_id,
      JSON.stringify(row.actions),
      row.expires_at,
      row.created_at,
    ],
  );
}

/**
 * The challenge as it stands, without a lock: read before the write transaction to decide whether the
 * models should look at the frames (they run outside any lock); the locked read decides the answer.
 */
export async function findLivenessChallenge(
  sql: SqlClient,
  scope: Scope,
  sessionId: string,
  id: string,
): Promise<LivenessChallengeRow | null> {
  const rows = await sql.query<LivenessChallengeRow>(
    `select * from liveness_challenges
      where id = $1 and session_id = $2 and tenant_id = $3 and environment = $4`,
    [id, sessionId, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

/** The challenge, only if it belongs to this session: a nonce never answers for another session. */
export async function findLivenessChallengeForUpdate(
  sql: SqlClient,
  scope: Scope,
  sessionId: string,
  id: string,
): Promise<LivenessChallengeRow | null> {
  const rows = await sql.query<LivenessChallengeRow>(
    `select * from liveness_challenges
      where id = $1 and session_id = $2 and tenant_id = $3 and environment = $4 for update`,
    [id, sessionId, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

/**
 * Marks the challenge answered, with the models' judgement when they judged it; only the first answer
 * counts (returns false for a second one).
 */
export async function answerLivenessChallenge(
  sql: SqlClient,
  id: string,
  outcome: 'accepted' | 'retry',
  retryReason: string | null,
  now: Date,
  judgement: LivenessJudgement | null = null,
): Promise<boolean> {
  const rows = await sql.query(
    `update liveness_challenges set answered_at = $2, outcome = $3, retry_reason = $4, judgement = $5
      where id = $1 and answered_at is null returning id`,
    [id, now, outcome, retryReason, judgement === null ? null : JSON.stringify(judgement)],
  );
  return rows.length > 0;
}

/** The newest answered challenge of the session, i.e. the latest liveness attempt. */
export async function latestAnsweredChallenge(
  sql: SqlClient,
  scope: Scope,
  sessionId: string,
): Promise<LivenessChallengeRow | null> {
  const rows = await sql.query<LivenessChallengeRow>(
    `select * from liveness_challenges
      where session_id = $1 and tenant_id = $2 and environment = $3 and answered_at is not null
      order by seq desc limit 1`,
    [sessionId, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

export async function deleteLivenessChallenges(sql: SqlClient, sessionId: string): Promise<void> {
  await sql.query('delete from liveness_challenges where session_id = $1', [sessionId]);
}
