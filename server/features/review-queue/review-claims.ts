import type { AppDeps } from '../../app-deps.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { Principal } from '../../http/app-env.ts';
import { deleteClaim, findActiveClaim, putClaim, type ReviewClaimRow } from '../../store/review-claims.ts';
import { findSessionForUpdate, type Scope, type SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';

/** How long a claim holds without being renewed: a reviewer's console renews it while they work. */
export const CLAIM_MINUTES = 30;

/** The claim as the API shows it (`ReviewClaim`). */
export function toReviewClaimObject(row: ReviewClaimRow) {
  return {
    object: 'review_claim' as const,
    session_id: row.session_id,
    reviewer_id: row.reviewer_id,
    claimed_at: row.claimed_at.toISOString(),
    expires_at: row.expires_at ? row.expires_at.toISOString() : null,
    assigned_by: row.assigned_by,
  };
}

export type ReviewClaimObject = ReturnType<typeof toReviewClaimObject>;

/** 409 `review_claimed`: someone else holds the session; the problem says who and until when. */
export function reviewClaimedError(claim: ReviewClaimRow): ApiError {
  return new ApiError(
    'review_claimed',
    'Another reviewer is working on this session. Take it over to decide it yourself.',
    {
      extensions: {
        claimed_by: claim.reviewer_id,
        claimed_until: claim.expires_at ? claim.expires_at.toISOString() : null,
      },
    },
  );
}

/** The person behind the request: claims are held by people, never by an API key. */
export function reviewerOf(principal: Principal): string {
  if (!principal.user) {
    throw new ApiError(
      'insufficient_capability',
      'Claims are held by console users; an API key cannot hold one.',
    );
  }
  return principal.user.id;
}

/**
 * Locks the session (claims of one session serialise on its row) and checks it waits for a person: only
 * a `review_required` session has a claim. Answers the locked row.
 */
export async function lockSessionInReview(
  tx: SqlClient,
  scope: Scope,
  sessionId: string,
): Promise<SessionRow> {
  const session = await findSessionForUpdate(tx, scope, sessionId);
  if (!session)
    throw new ApiError('resource_missing', `No session \`${sessionId}\` exists in this environment.`);
  if (session.status !== 'review_required') {
    throw new ApiError(
      'invalid_state_transition',
      `Only a session in \`review_required\` can be claimed; this one is \`${session.status}\`.`,
      { extensions: { current_status: session.status } },
    );
  }
  return session;
}

/**
 * Refuses with 409 `review_claimed` when someone other than `personId` holds an active claim on the
 * session (the review decision calls it in its transaction). Answers the active claim, if any.
 */
export async function assertNotClaimedByOther(
  sql: SqlClient,
  scope: Scope,
  sessionId: string,
  personId: string,
  now: Date,
): Promise<ReviewClaimRow | null> {
  const claim = await findActiveClaim(sql, scope, sessionId, now);
  if (claim && claim.reviewer_id !== personId) throw reviewClaimedError(claim);
  return claim;
}

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** What a claim change did: the new claim, and whose active claim it replaced (for the audit log). */
export interface ClaimChange {
  claim: ReviewClaimRow;
  previousReviewerId: string | null;
}

/**
 * Claims the session for `reviewerId` or renews their claim for another {@link CLAIM_MINUTES}; an
 * assignment to them stays an assignment. `takeOver` takes it from whoever else holds it; without it,
 * someone else's active claim is 409 `review_claimed`.
 */
export async function claimSession(
  deps: Deps,
  scope: Scope,
  sessionId: string,
  reviewerId: string,
  options: { takeOver: boolean },
  inTransaction: (tx: SqlClient, change: ClaimChange) => Promise<void> = async () => {},
): Promise<ClaimChange> {
  return deps.db.transaction(async (tx) => {
    await lockSessionInReview(tx, scope, sessionId);
    const now = deps.clock.now();
    const current = await findActiveClaim(tx, scope, sessionId, now);
    if (current && current.reviewer_id !== reviewerId && !options.takeOver) throw reviewClaimedError(current);
    const mine = current?.reviewer_id === reviewerId;
    const claim = await putClaim(tx, {
      session_id: sessionId,
      tenant_id: scope.tenantId,
      environment: scope.environment,
      reviewer_id: reviewerId,
      assigned_by: mine ? current.assigned_by : null,
      claimed_at: mine ? current.claimed_at : now,
      expires_at:
        mine && current.expires_at === null ? null : new Date(now.getTime() + CLAIM_MINUTES * 60_000),
    });
    const change = { claim, previousReviewerId: current && !mine ? current.reviewer_id : null };
    await inTransaction(tx, change);
    return change;
  });
}

/**
 * An admin gives the session to `reviewerId` with no expiry, replacing any claim (API.md §4). The caller
 * has checked the reviewer may review.
 */
export async function assignSession(
  deps: Deps,
  scope: Scope,
  sessionId: string,
  reviewerId: string,
  assignedBy: string | null,
  inTransaction: (tx: SqlClient, change: ClaimChange) => Promise<void> = async () => {},
): Promise<ClaimChange> {
  return deps.db.transaction(async (tx) => {
    await lockSessionInReview(tx, scope, sessionId);
    const now = deps.clock.now();
    const current = await findActiveClaim(tx, scope, sessionId, now);
    const claim = await putClaim(tx, {
      session_id: sessionId,
      tenant_id: scope.tenantId,
      environment: scope.environment,
      reviewer_id: reviewerId,
      assigned_by: assignedBy,
      claimed_at: now,
      expires_at: null,
    });
    const change = { claim, previousReviewerId: current ? current.reviewer_id : null };
    await inTransaction(tx, change);
    return change;
  });
}

/**
 * Ends the session's active claim. The holder may always release it; someone else only with
 * `mayReleaseOthers` (`sessions:assign`), else 409 `review_claimed`. Answers the released claim, or null
 * when there was none (releasing twice is harmless).
 */
export async function releaseClaim(
  deps: Deps,
  scope: Scope,
  sessionId: string,
  personId: string | null,
  mayReleaseOthers: boolean,
  inTransaction: (tx: SqlClient, released: ReviewClaimRow) => Promise<void> = async () => {},
): Promise<ReviewClaimRow | null> {
  return deps.db.transaction(async (tx) => {
    const session = await findSessionForUpdate(tx, scope, sessionId);
    if (!session)
      throw new ApiError('resource_missing', `No session \`${sessionId}\` exists in this environment.`);
    const current = await findActiveClaim(tx, scope, sessionId, deps.clock.now());
    if (!current) return null;
    if (current.reviewer_id !== personId && !mayReleaseOthers) throw reviewClaimedError(current);
    await deleteClaim(tx, scope, sessionId);
    await inTransaction(tx, current);
    return current;
  });
}
