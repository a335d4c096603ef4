import type { Environment } from '../domain/api-key-format.ts';
import type { Flow, Tier } from '../domain/session-steps.ts';
import type { Page } from './sessions.ts';
import type { SqlClient } from './sql-client.ts';
import type { EmbeddingSpace } from '../features/vision/vision-engine.ts';

/** Stored status; `reverification_pending` is derived from an open request when read. */
export type StoredIdentityStatus = 'verified' | 'reverification_failed' | 'revoked';

export interface IdentityRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  status: StoredIdentityStatus;
  flow: Flow;
  tier: Tier;
  external_user_ref_enc: string | null;
  external_user_ref_index: string | null;
  attributes_enc: string;
  document_number_index: string | null;
  biometric_session_id: string | null;
  latest_session_id: string;
  verified_at: Date;
  created_at: Date;
  updated_at: Date;
}

type Scope = { tenantId: string; environment: Environment };

export async function insertIdentity(
  sql: SqlClient,
  identity: Omit<IdentityRow, 'updated_at'>,
): Promise<IdentityRow> {
  const rows = await sql.query<IdentityRow>(
    `insert into identities (id, tenant_id, environment, status, flow, tier, external_user_ref_enc,
       external_user_ref_index, attributes_enc, document_number_index, biometric_session_id, latest_session_id,
       verified_at, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)
     returning *`,
    [
      identity.id,
      identity.tenant_id,
      identity.environment,
      identity.status,
      identity.flow,
      identity.tier,
      identity.external_user_ref_enc,
      identity.external_user_ref_index,
      identity.attributes_enc,
      identity.document_number_index,
      identity.biometric_session_id,
      identity.latest_session_id,
      identity.verified_at,
      identity.created_at,
    ],
  );
  return rows[0] as IdentityRow;
}

export type IdentityChanges = Partial<
  Pick<
    IdentityRow,
    | 'status'
    | 'flow'
    | 'tier'
    | 'attributes_enc'
    | 'document_number_index'
    | 'biometric_session_id'
    | 'latest_session_id'
    | 'verified_at'
  >
>;

const CHANGEABLE = [
  'status',
  'flow',
  'tier',
  'attributes_enc',
  'document_number_index',
  'biometric_session_id',
  'latest_session_id',
  'verified_at',
] as const satisfies readonly (keyof IdentityChanges)[];

export async function updateIdentity(
  sql: SqlClient,
  id: string,
  changes: IdentityChanges,
  now: Date,
): Promise<IdentityRow> {
  const sets = ['updated_at = $2'];
  const params: unknown[] = [id, now];
  for (const column of CHANGEABLE) {
    if (!(column in changes)) continue;
    params.push(changes[column]);
    sets.push(`${column} = $${params.length}`);
  }
  const rows = await sql.query<IdentityRow>(
    `update identities set ${sets.join(', ')} where id = $1 returning *`,
    params,
  );
  return rows[0] as IdentityRow;
}

export async function findIdentity(sql: SqlClient, scope: Scope, id: string): Promise<IdentityRow | null> {
  const rows = await sql.query<IdentityRow>(
    'select * from identities where id = $1 and tenant_id = $2 and environment = $3',
    [id, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

/** Locks the identity for the rest of the transaction: approvals and re-verification requests serialise. */
export async function findIdentityForUpdate(
  sql: SqlClient,
  scope: Scope,
  id: string,
): Promise<IdentityRow | null> {
  const rows = await sql.query<IdentityRow>(
    'select * from identities where id = $1 and tenant_id = $2 and environment = $3 for update',
    [id, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

export async function findIdentityByExternalRefForUpdate(
  sql: SqlClient,
  scope: Scope,
  externalUserRefIndex: string,
): Promise<IdentityRow | null> {
  const rows = await sql.query<IdentityRow>(
    `select * from identities where tenant_id = $1 and environment = $2 and external_user_ref_index = $3
      for update`,
    [scope.tenantId, scope.environment, externalUserRefIndex],
  );
  return rows[0] ?? null;
}

/**
 * Whether an identity of another person in the scope holds this document number: a signal for
 * `duplicate_detection` that outlives the sessions' evidence (retention deletes that, identities stay).
 * "Another person" mirrors the session look-up: an identity under a different user reference, or either
 * side without one (nothing says they are the same person). `excludeIdentityId` is the session's own
 * identity (a re-verification), which is never its own duplicate. `documentNumberIndex` must come from
 * `documentNumberIndex()` (server/features/evidence/evidence-keys.ts) so values compare.
 */
export async function isDocumentNumberOnOtherIdentity(
  sql: SqlClient,
  scope: Scope,
  documentNumberIndex: string,
  externalUserRefIndex: string | null,
  excludeIdentityId: string | null,
): Promise<boolean> {
  const rows = await sql.query<{ found: boolean }>(
    `select exists (
       select 1 from identities
        where tenant_id = $1 and environment = $2 and document_number_index = $3
          and ($4::text is null or external_user_ref_index is null or external_user_ref_index <> $4)
          and ($5::text is null or id <> $5)
     ) as found`,
    [scope.tenantId, scope.environment, documentNumberIndex, externalUserRefIndex, excludeIdentityId],
  );
  return rows[0]?.found ?? false;
}

export interface IdentityFilters {
  externalUserRefIndex?: string;
}

/** Newest first, keyset-paginated like the session list. */
export async function listIdentities(
  sql: SqlClient,
  scope: Scope,
  filters: IdentityFilters,
  page: Page,
): Promise<{ rows: IdentityRow[]; hasMore: boolean }> {
  const where = ['tenant_id = $1', 'environment = $2'];
  const params: unknown[] = [scope.tenantId, scope.environment];
  if (filters.externalUserRefIndex) {
    params.push(filters.externalUserRefIndex);
    where.push(`external_user_ref_index = $${params.length}`);
  }
  let order = 'created_at desc, id desc';
  if (page.after) {
    params.push(page.after.created_at, page.after.id);
    where.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
  } else if (page.before) {
    params.push(page.before.created_at, page.before.id);
    where.push(`(created_at, id) > ($${params.length - 1}, $${params.length})`);
    order = 'created_at asc, id asc';
  }
  params.push(page.limit + 1);
  const rows = await sql.query<IdentityRow>(
    `select * from identities where ${where.join(' and ')} order by ${order} limit $${params.length}`,
    params,
  );
  const hasMore = rows.length > page.limit;
  const pageRows = rows.slice(0, page.limit);
  return { rows: page.before ? pageRows.reverse() : pageRows, hasMore };
}

/** Points a session at its identity, before the transition whose event must carry `identity_id`. */
export async function linkSessionToIdentity(
  sql: SqlClient,
  sessionId: string,
  identityId: string,
): Promise<void> {
  await sql.query('update sessions set identity_id = $2 where id = $1', [sessionId, identityId]);
}

/** The identity's enrolled face reference as stored: the embedding encrypted, its space in the clear. */
export interface StoredFaceReference {
  face_reference_enc: string;
  face_reference_space: EmbeddingSpace;
}

/** Replaces the identity's enrolled face reference (the best liveness frame of an approving session). */
export async function setIdentityFaceReference(
  sql: SqlClient,
  id: string,
  reference: StoredFaceReference,
): Promise<void> {
  await sql.query('update identities set face_reference_enc = $2, face_reference_space = $3 where id = $1', [
    id,
    reference.face_reference_enc,
    JSON.stringify(reference.face_reference_space),
  ]);
}

/** The identity's enrolled face reference, null when it has none (verified without face models). */
export async function findIdentityFaceReference(
  sql: SqlClient,
  scope: Scope,
  id: string,
): Promise<StoredFaceReference | null> {
  const rows = await sql.query<StoredFaceReference>(
    `select face_reference_enc, face_reference_space from identities
      where id = $1 and tenant_id = $2 and environment = $3 and face_reference_enc is not null`,
    [id, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}
