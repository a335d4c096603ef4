import type { Environment } from '../domain/api-key-format.ts';
import type { Scope } from './sessions.ts';
import type { SqlClient } from './sql-client.ts';

/** Who works on a session in review, until when (null: an admin's assignment, held until released). */
export interface ReviewClaimRow {
  session_id: string;
  tenant_id: string;
  environment: Environment;
  reviewer_id: string;
  assigned_by: string | null;
  claimed_at: Date;
  expires_at: Date | null;
}

/** Whether a claim still holds at `now`: an assignment always does, a claim until its expiry. */
export function claimIsActive(claim: Pick<ReviewClaimRow, 'expires_at'>, now: Date): boolean {
  return claim.expires_at === null || claim.expires_at.getTime() > now.getTime();
}

/** The session's claim if it is still active at `now`; an expired one reads as none. */
export async function findActiveClaim(
  sql: SqlClient,
  scope: Scope,
  sessionId: string,
  now: Date,
): Promise<ReviewClaimRow | null> {
  const rows = await sql.query<ReviewClaimRow>(
    `select * from review_claims where session_id = $1 and tenant_id = $2 and environment = $3
        and (expires_at is null or expires_at > $4)`,
    [sessionId, scope.tenantId, scope.environment, now],
  );
  return rows[0] ?? null;
}

/** Writes the session's claim, replacing whatever claim it had (the caller has checked it may). */
export async function putClaim(sql: SqlClient, claim: ReviewClaimRow): Promise<ReviewClaimRow> {
  const rows = await sql.query<ReviewClaimRow>(
    `insert into review_claims (session_id, tenant_id, environment, reviewer_id, assigned_by, claimed_at,
       expires_at)
     values ($1, $2, $3, $4, $5, $6, $7)
     on conflict (session_id) do update set reviewer_id = excluded.reviewer_id,
       assigned_by = excluded.assigned_by, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
     returning *`,
    [
      claim.session_id,
      claim.tenant_id,
      claim.environment,
      claim.reviewer_id,
      claim.assigned_by,
      claim.claimed_at,
      claim.expires_at,
    ],
  );
  return rows[0] as ReviewClaimRow;
}

/** Ends the session's claim, whoever held it (a decision, a release). */
export async function deleteClaim(sql: SqlClient, scope: Scope, sessionId: string): Promise<void> {
  await sql.query('delete from review_claims where session_id = $1 and tenant_id = $2 and environment = $3', [
    sessionId,
    scope.tenantId,
    scope.environment,
  ]);
}
