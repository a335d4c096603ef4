import type { Reason } from '../domain/review/index.ts';
import type { DecidedBy, DecisionOutcome } from './decisions.ts';
import type { Scope } from './sessions.ts';
import type { SqlClient } from './sql-client.ts';

/** The latest decision of a session, as an export row shows it. */
export interface LatestDecision {
  session_id: string;
  outcome: DecisionOutcome;
  decided_by: DecidedBy;
  reviewer_id: string | null;
  reasons: Reason[];
}

/** The latest decision of each of the sessions (in the caller's scope) that has one. */
export async function latestDecisionsOf(
  sql: SqlClient,
  scope: Scope,
  sessionIds: readonly string[],
): Promise<Map<string, LatestDecision>> {
  const rows = await sql.query<LatestDecision>(
    `select distinct on (session_id) session_id, outcome, decided_by, reviewer_id, reasons
       from session_decisions
      where tenant_id = $1 and environment = $2 and session_id = any($3::text[])
      order by session_id, id desc`,
    [scope.tenantId, scope.environment, sessionIds],
  );
  return new Map(rows.map((row) => [row.session_id, row]));
}

/** The encrypted `id_document` details of each of the sessions that has them. */
export async function idDocumentDetailsOf(
  sql: SqlClient,
  scope: Scope,
  sessionIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await sql.query<{ session_id: string; details_enc: string }>(
    `select session_id, details_enc from verify_details
      where tenant_id = $1 and environment = $2 and step = 'id_document' and session_id = any($3::text[])`,
    [scope.tenantId, scope.environment, sessionIds],
  );
  return new Map(rows.map((row) => [row.session_id, row.details_enc]));
}
