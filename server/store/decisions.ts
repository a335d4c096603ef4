import type { Environment } from '../domain/api-key-format.ts';
import type { Check, Reason } from '../domain/review/index.ts';
import type { SqlClient } from './sql-client.ts';

export type DecisionOutcome = 'approved' | 'rejected' | 'review_required' | 'resubmission_requested';
export type DecidedBy = 'automated' | 'reviewer';

/** One outcome of a session's review, automated or manual (API.md §5). */
export interface DecisionRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  session_id: string;
  outcome: DecisionOutcome;
  decided_by: DecidedBy;
  reviewer_id: string | null;
  reasons: Reason[];
  checks: Check[];
  note_enc: string | null;
  created_at: Date;
}

export type NewDecision = Omit<DecisionRow, 'id'>;

export async function insertDecision(sql: SqlClient, decision: NewDecision): Promise<void> {
  await sql.query(
    `insert into session_decisions (tenant_id, environment, session_id, outcome, decided_by, reviewer_id,
       reasons, checks, note_enc, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      decision.tenant_id,
      decision.environment,
      decision.session_id,
      decision.outcome,
      decision.decided_by,
      decision.reviewer_id,
      JSON.stringify(decision.reasons),
      JSON.stringify(decision.checks),
      decision.note_enc,
      decision.created_at,
    ],
  );
}

/** The newest outcome of a session in the caller's scope, or null before the first review. */
export async function findLatestDecision(
  sql: SqlClient,
  scope: { tenantId: string; environment: Environment },
  sessionId: string,
): Promise<DecisionRow | null> {
  const rows = await sql.query<DecisionRow>(
    `select id::text as id, tenant_id, environment, session_id, outcome, decided_by, reviewer_id, reasons,
            checks, note_enc, created_at
       from session_decisions
      where session_id = $1 and tenant_id = $2 and environment = $3
      order by id desc limit 1`,
    [sessionId, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

/**
 * Counts a processing → collecting resubmission on the session (API.md §4 allows two); run in the
 * transaction that makes the move.
 */
export async function countResubmission(sql: SqlClient, sessionId: string): Promise<void> {
  await sql.query('update sessions set resubmissions = resubmissions + 1 where id = $1', [sessionId]);
}
