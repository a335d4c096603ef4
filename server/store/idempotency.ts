import type { SqlClient } from './sql-client.ts';

export interface IdempotencyScope {
  tenantId: string;
  environment: string;
  credentialId: string;
  key: string;
}

export interface IdempotencyRow {
  fingerprint: string;
  status: 'in_progress' | 'done';
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
}

/** Who claims: the process, the attempt, and until when the claim is held unless renewed. */
export interface IdempotencyClaim {
  ownerId: string;
  claimId: string;
  now: Date;
  leaseExpiresAt: Date;
  /** The attempts this process is running now: a claim of this owner not among them is known dead. */
  liveClaimIds: readonly string[];
}

/**
 * Claims a key. Returns null when this request now owns it, else the existing record. A key may be
 * taken over when its answer is past its lifetime (`expiredBefore`), or when it is still `in_progress`
 * but its owner is gone: its lease ran out (the process died or stalled), or it belongs to this very
 * process and no running attempt holds it. Rows from before leases existed are taken over once older
 * than `staleBefore`. So a crash wedges a key for one lease at most, never a whole day.
 */
export async function claimIdempotencyKey(
  sql: SqlClient,
  scope: IdempotencyScope,
  fingerprint: string,
  claim: IdempotencyClaim,
  expiredBefore: Date,
  staleBefore: Date,
): Promise<IdempotencyRow | null> {
  const claimed = await sql.query(
    `insert into idempotency_keys (tenant_id, environment, credential_id, key, fingerprint, status, created_at,
                                   owner_id, claim_id, lease_expires_at)
     values ($1, $2, $3, $4, $5, 'in_progress', $6, $9, $10, $11)
     on conflict (tenant_id, environment, credential_id, key) do update
       set fingerprint = excluded.fingerprint, status = 'in_progress', response_status = null,
           response_body = null, created_at = excluded.created_at, owner_id = excluded.owner_id,
           claim_id = excluded.claim_id, lease_expires_at = excluded.lease_expires_at
       where idempotency_keys.created_at < $7
          or (idempotency_keys.status = 'in_progress'
              and (idempotency_keys.lease_expires_at < $6
                   or (idempotency_keys.lease_expires_at is null and idempotency_keys.created_at < $8)
                   or (idempotency_keys.owner_id = $9
                       and not (idempotency_keys.claim_id = any($12::text[])))))
     returning 1`,
    [
      scope.tenantId,
      scope.environment,
      scope.credentialId,
      scope.key,
      fingerprint,
      claim.now,
      expiredBefore,
      staleBefore,
      claim.ownerId,
      claim.claimId,
      claim.leaseExpiresAt,
      claim.liveClaimIds,
    ],
  );
  if (claimed.length > 0) return null;
  const rows = await sql.query<IdempotencyRow>(
    `select fingerprint, status, response_status, response_body, created_at from idempotency_keys
      where tenant_id = $1 and environment = $2 and credential_id = $3 and key = $4`,
    [scope.tenantId, scope.environment, scope.credentialId, scope.key],
  );
  return rows[0] ?? null;
}

/** Pushes the lease of a running attempt forward; a claim taken over meanwhile is left alone. */
export async function renewIdempotencyLease(
  sql: SqlClient,
  scope: IdempotencyScope,
  claimId: string,
  leaseExpiresAt: Date,
): Promise<void> {
  await sql.query(
    `update idempotency_keys set lease_expires_at = $6
      where tenant_id = $1 and environment = $2 and credential_id = $3 and key = $4
        and claim_id = $5 and status = 'in_progress'`,
    [scope.tenantId, scope.environment, scope.credentialId, scope.key, claimId, leaseExpiresAt],
  );
}

/** An answer sealed for storing, with the claim it completes (see storeAnswerStatement). */
export interface StoredAnswer {
  scope: IdempotencyScope;
  claimId: string;
  status: number;
  /** The encrypted response body. */
  body: string;
  /**
   * Set when the key was not claimed before the effect (claimed with the effect, see
   * claimWithAnswerStatement): the claim's terms, for the statement that claims the key and stores the
   * answer at once.
   */
  unclaimed?: { fingerprint: string; claim: IdempotencyClaim; expiredBefore: Date; staleBefore: Date };
}

/**
 * The `update` that stores an answer, with its parameters from `$first` on (storeAnswerParams gives
 * them): a route whose effect is one statement runs it as a CTE of that statement, so the effect and its
 * answer commit together. Nothing is stored when another attempt took the key over after this one's
 * lease ran out.
 */
export function storeAnswerStatement(first: number): string {
  const $ = (offset: number) => `$${first + offset}`;
  return `update idempotency_keys set status = 'done', response_status = ${$(5)}, response_body = ${$(6)},
            lease_expires_at = null
      where tenant_id = ${$(0)} and environment = ${$(1)} and credential_id = ${$(2)} and key = ${$(3)}
        and claim_id = ${$(4)}`;
}

export function storeAnswerParams(answer: StoredAnswer): unknown[] {
  const { scope } = answer;
  return [
    scope.tenantId,
    scope.environment,
    scope.credentialId,
    scope.key,
    answer.claimId,
    answer.status,
    answer.body,
  ];
}

/** Stores the answer on its own, or inside the caller's transaction when `sql` is one. */
/**
 * Claims a key and stores its answer in one statement, on the same terms as claimIdempotencyKey (a free
 * key, an expired one, or an in-progress one whose attempt is known dead): `returning 1` when it did, no
 * row when another attempt holds or answered the key. For an effect in the same statement that runs only
 * when this one returned a row (see insertSessionWithEvent): one round trip fewer than claiming first.
 */
export function claimWithAnswerStatement(first: number): string {
  const $ = (offset: number) => `$${first + offset}`;
  return `insert into idempotency_keys (tenant_id, environment, credential_id, key, fingerprint, status, created_at,
                                   owner_id, claim_id, lease_expires_at, response_status, response_body)
     values (${$(0)}, ${$(1)}, ${$(2)}, ${$(3)}, ${$(5)}, 'done', ${$(6)}, ${$(9)}, ${$(4)}, null, ${$(11)}, ${$(12)})
     on conflict (tenant_id, environment, credential_id, key) do update
       set fingerprint = excluded.fingerprint, status = 'done', response_status = excluded.response_status,
           response_body = excluded.response_body, created_at = excluded.created_at,
           owner_id = excluded.owner_id, claim_id = excluded.claim_id, lease_expires_at = null
       where idempotency_keys.created_at < ${$(7)}
          or (idempotency_keys.status = 'in_progress'
              and (idempotency_keys.lease_expires_at < ${$(6)}
                   or (idempotency_keys.lease_expires_at is null and idempotency_keys.created_at < ${$(8)})
                   or (idempotency_keys.owner_id = ${$(9)}
                       and not (idempotency_keys.claim_id = any(${$(10)}::text[])))))
     returning 1`;
}

/** The parameters of claimWithAnswerStatement, for an answer whose key is `unclaimed`. */
export function claimWithAnswerParams(
  answer: StoredAnswer & Required<Pick<StoredAnswer, 'unclaimed'>>,
): unknown[] {
  const { scope, unclaimed } = answer;
  return [
    scope.tenantId,
    scope.environment,
    scope.credentialId,
    scope.key,
    answer.claimId,
    unclaimed.fingerprint,
    unclaimed.claim.now,
    unclaimed.expiredBefore,
    unclaimed.staleBefore,
    unclaimed.claim.ownerId,
    unclaimed.claim.liveClaimIds,
    answer.status,
    answer.body,
  ];
}

export async function completeIdempotencyKey(sql: SqlClient, answer: StoredAnswer): Promise<void> {
  await sql.query(storeAnswerStatement(1), storeAnswerParams(answer));
}

/** Lets a later retry run again when the first attempt died before producing any answer. */
export async function releaseIdempotencyKey(
  sql: SqlClient,
  scope: IdempotencyScope,
  claimId: string,
): Promise<void> {
  await sql.query(
    `delete from idempotency_keys where tenant_id = $1 and environment = $2 and credential_id = $3 and key = $4
       and status = 'in_progress' and claim_id = $5`,
    [scope.tenantId, scope.environment, scope.credentialId, scope.key, claimId],
  );
}

export async function deleteExpiredIdempotencyKeys(sql: SqlClient, before: Date): Promise<void> {
  await sql.query('delete from idempotency_keys where created_at < $1', [before]);
}
