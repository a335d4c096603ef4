import type { Reason } from '../domain/review/index.ts';
import type { ReviewClaimRow } from './review-claims.ts';
import {
  type Page,
  type Scope,
  type SessionFilters,
  type SessionRow,
  searchAndReasonClauses,
} from './sessions.ts';
import type { SqlClient } from './sql-client.ts';

/** A session waiting for a person, with what the queue shows beside it. */
export interface ReviewQueueRow {
  session: SessionRow;
  /** When the latest (automated) decision sent it to review; null only for a session never decided. */
  queuedAt: Date | null;
  reasons: Reason[];
  /** Its claim while active. */
  claim: ReviewClaimRow | null;
}

/** Whose claims the queue shows: the caller's, nobody's, or someone else's. */
export type ClaimFilter = 'mine' | 'unclaimed' | 'others';

export interface ReviewQueueFilters extends Pick<SessionFilters, 'search' | 'reasonCodes'> {
  claim?: { filter: ClaimFilter; reviewerId: string } | undefined;
}

/**
 * One page of the sessions in `review_required`, oldest first (by creation, the list's cursor order),
 * with the latest decision's reasons and time and the active claim; one extra row tells whether more
 * exist.
 */
export async function listReviewQueue(
  sql: SqlClient,
  scope: Scope,
  filters: ReviewQueueFilters,
  page: Page,
  now: Date,
): Promise<{ rows: ReviewQueueRow[]; hasMore: boolean }> {
  const params: unknown[] = [scope.tenantId, scope.environment, now];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = [
    'sessions.tenant_id = $1',
    'sessions.environment = $2',
    "sessions.status = 'review_required'",
    ...searchAndReasonClauses(filters, param),
  ];
  if (filters.claim?.filter === 'unclaimed') where.push('claim.session_id is null');
  if (filters.claim?.filter === 'mine') where.push(`claim.reviewer_id = ${param(filters.claim.reviewerId)}`);
  if (filters.claim?.filter === 'others')
    where.push(`claim.reviewer_id <> ${param(filters.claim.reviewerId)}`);
  // A `before` page is read newest first and turned back, so every page reads oldest first.
  const ascending = page.before === undefined;
  const cursor = page.after ?? page.before;
  if (cursor) {
    where.push(
      `(sessions.created_at, sessions.id) ${ascending ? '>' : '<'} (${param(cursor.created_at)}, ${param(cursor.id)})`,
    );
  }
  const direction = ascending ? 'asc' : 'desc';
  const rows = await sql.query<
    SessionRow & {
      queue_queued_at: Date | null;
      queue_reasons: Reason[] | null;
      claim_reviewer_id: string | null;
      claim_assigned_by: string | null;
      claim_claimed_at: Date | null;
      claim_expires_at: Date | null;
    }
  >(
    `select sessions.*, latest.created_at as queue_queued_at, latest.reasons as queue_reasons,
            claim.reviewer_id as claim_reviewer_id, claim.assigned_by as claim_assigned_by,
            claim.claimed_at as claim_claimed_at, claim.expires_at as claim_expires_at
       from sessions
       left join lateral (select d.created_at, d.reasons from session_decisions d
                           where d.session_id = sessions.id order by d.id desc limit 1) latest on true
       left join review_claims claim
         on claim.session_id = sessions.id and (claim.expires_at is null or claim.expires_at > $3)
      where ${where.join(' and ')}
      order by sessions.created_at ${direction}, sessions.id ${direction}
      limit ${param(page.limit + 1)}`,
    params,
  );
  const hasMore = rows.length > page.limit;
  const pageRows = rows.slice(0, page.limit).map((row) => {
    const {
      queue_queued_at: queuedAt,
      queue_reasons: reasons,
      claim_reviewer_id: reviewerId,
      claim_assigned_by: assignedBy,
      claim_claimed_at: claimedAt,
      claim_expires_at: expiresAt,
      ...session
    } = row;
    return {
      session,
      queuedAt,
      reasons: reasons ?? [],
      claim:
        reviewerId === null
          ? null
          : {
              session_id: session.id,
              tenant_id: session.tenant_id,
              environment: session.environment,
              reviewer_id: reviewerId,
              assigned_by: assignedBy,
              claimed_at: claimedAt as Date,
              expires_at: expiresAt,
            },
    };
  });
  return { rows: page.before ? pageRows.reverse() : pageRows, hasMore };
}
