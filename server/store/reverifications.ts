import type { Environment } from '../domain/api-key-format.ts';
import type { SessionStatus } from '../domain/session-status.ts';
import type { SqlClient } from './sql-client.ts';

export const REVERIFICATION_MODES = ['full', 'biometric'] as const;
export type ReverificationMode = (typeof REVERIFICATION_MODES)[number];

export const REVERIFICATION_REASON_CODES = [
  'periodic_review',
  'document_expired',
  'account_change',
  'high_risk_action',
  'suspicious_activity',
  'other',
] as const;
export type ReverificationReasonCode = (typeof REVERIFICATION_REASON_CODES)[number];

export interface ReverificationRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  identity_id: string;
  session_id: string;
  reason_enc: string;
  reason_code: ReverificationReasonCode;
  mode: ReverificationMode;
  /** The linked session's terminal status, written once when the request settles. */
  final_status: SessionStatus | null;
  created_at: Date;
  completed_at: Date | null;
}

/** A request together with its linked session's current status (the request mirrors it). */
export interface ReverificationWithSession extends ReverificationRow {
  session_status: SessionStatus;
  session_expires_at: Date;
}

type Scope = { tenantId: string; environment: Environment };

export async function insertReverification(
  sql: SqlClient,
  request: Omit<ReverificationRow, 'final_status' | 'completed_at'>,
): Promise<ReverificationRow> {
  const rows = await sql.query<ReverificationRow>(
    `insert into reverification_requests (id, tenant_id, environment, identity_id, session_id, reason_enc,
       reason_code, mode, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *`,
    [
      request.id,
      request.tenant_id,
      request.environment,
      request.identity_id,
      request.session_id,
      request.reason_enc,
      request.reason_code,
      request.mode,
      request.created_at,
    ],
  );
  return rows[0] as ReverificationRow;
}

const WITH_SESSION = `select r.*, s.status as session_status, s.expires_at as session_expires_at
  from reverification_requests r join sessions s on s.id = r.session_id`;

/** The identity's request not yet settled (at most one), with its session's status. */
export async function findUnsettledReverification(
  sql: SqlClient,
  scope: Scope,
  identityId: string,
): Promise<ReverificationWithSession | null> {
  const rows = await sql.query<ReverificationWithSession>(
    `${WITH_SESSION}
      where r.identity_id = $1 and r.tenant_id = $2 and r.environment = $3 and r.completed_at is null`,
    [identityId, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

export async function findReverification(
  sql: SqlClient,
  scope: Scope,
  id: string,
): Promise<ReverificationWithSession | null> {
  const rows = await sql.query<ReverificationWithSession>(
    `${WITH_SESSION} where r.id = $1 and r.tenant_id = $2 and r.environment = $3`,
    [id, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

/**
 * Settles a request once its session reached a terminal status. Returns false when it was already
 * settled, so the completion event is written exactly once whoever gets there first.
 */
export async function settleReverification(
  sql: SqlClient,
  id: string,
  finalStatus: SessionStatus,
  now: Date,
): Promise<boolean> {
  const rows = await sql.query(
    `update reverification_requests set final_status = $2, completed_at = $3
      where id = $1 and completed_at is null returning id`,
    [id, finalStatus, now],
  );
  return rows.length > 0;
}

/** Marks a session as the one a re-verification request created, for the identity it re-verifies. */
export async function linkSessionToReverification(
  sql: SqlClient,
  sessionId: string,
  links: { reverificationRequestId: string; identityId: string },
): Promise<void> {
  await sql.query('update sessions set reverification_request_id = $2, identity_id = $3 where id = $1', [
    sessionId,
    links.reverificationRequestId,
    links.identityId,
  ]);
}
