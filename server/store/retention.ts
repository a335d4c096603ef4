import type { Environment } from '../domain/api-key-format.ts';
import type { SqlClient } from './sql-client.ts';

export interface RetentionCandidate {
  id: string;
  tenant_id: string;
  environment: Environment;
}

/**
 * Terminal sessions whose evidence has outlived its retention, oldest first: decided ones (approved,
 * rejected) whose decision is older than `decidedBefore`, abandoned ones (expired, cancelled) that ended
 * before `abandonedBefore`. A session whose liveness selfie an identity holds as its biometric reference
 * is left out: that selfie now belongs to the identity, and the session qualifies again once a newer
 * one is enrolled.
 */
export async function findSessionsPastEvidenceRetention(
  sql: SqlClient,
  cutoffs: { decidedBefore: Date; abandonedBefore: Date },
  limit: number,
): Promise<RetentionCandidate[]> {
  return sql.query<RetentionCandidate>(
    `select s.id, s.tenant_id, s.environment from sessions s
      where s.evidence_deleted_at is null
        and status in ('approved', 'rejected', 'expired', 'cancelled')
        and ((s.status in ('approved', 'rejected') and coalesce(s.decided_at, s.updated_at) < $1)
          or (s.status in ('expired', 'cancelled') and coalesce(s.decided_at, s.updated_at) < $2))
        and not exists (select 1 from identities i where i.biometric_session_id = s.id)
      order by coalesce(s.decided_at, s.updated_at), s.id
      limit $3`,
    [cutoffs.decidedBefore, cutoffs.abandonedBefore, limit],
  );
}

/** Marks a session's evidence as deleted; its `updated_at` is left alone (nothing the tenant sees changed). */
export async function markSessionEvidenceDeleted(
  sql: SqlClient,
  sessionId: string,
  now: Date,
): Promise<void> {
  await sql.query('update sessions set evidence_deleted_at = $2 where id = $1', [sessionId, now]);
}

/**
 * Deletes up to `limit` events created before `cutoff` (API.md §10: kept 30 days). An event still named
 * by a delivery row is kept until the webhook worker purges that delivery on its own 30-day schedule, so
 * the purge never breaks a delivery log. Returns how many went.
 */
export async function purgeEventsBefore(sql: SqlClient, cutoff: Date, limit: number): Promise<number> {
  const rows = await sql.query(
    `delete from events where id in (
       select e.id from events e
        where e.created_at < $1
          and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)
        order by e.created_at
        limit $2)
     returning 1`,
    [cutoff, limit],
  );
  return rows.length;
}
