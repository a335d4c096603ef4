import type { SqlClient } from './sql-client.ts';

export interface TenantBranding {
  primary_color?: string;
  accent_color?: string;
  logo_url?: string;
}

/** How document authenticity is judged: by the offline checks alone, or always by a person. */
export const DOCUMENT_AUTHENTICITY_POLICIES = ['offline_checks', 'manual_review'] as const;
export type DocumentAuthenticityPolicy = (typeof DOCUMENT_AUTHENTICITY_POLICIES)[number];

export interface TenantRow {
  id: string;
  name: string;
  status: string;
  allowed_origins: string[];
  branding: TenantBranding;
  minimum_age: number;
  document_authenticity: DocumentAuthenticityPolicy;
  /** How many days old a proof of address may be (its issue date against the review's day). */
  proof_of_address_max_age_days: number;
  /** Judged tries an end-user gets at each step of a new session (1–10). */
  attempts_per_step: number;
  /** Every member must log in with a second factor; one without can only enrol one (issue #24). */
  require_second_factor: boolean;
  /** Minutes a session may wait in the review queue before it shows as over target (issue #25). */
  review_target_minutes: number;
  created_at: Date;
  updated_at: Date;
}

export async function insertTenant(
  sql: SqlClient,
  tenant: { id: string; name: string; now: Date },
): Promise<void> {
  await sql.query(
    `insert into tenants (id, name, status, created_at, updated_at) values ($1, $2, 'active', $3, $3)`,
    [tenant.id, tenant.name, tenant.now],
  );
}

export async function findTenant(sql: SqlClient, tenantId: string): Promise<TenantRow | null> {
  const rows = await sql.query<TenantRow>('select * from tenants where id = $1', [tenantId]);
  return rows[0] ?? null;
}

export async function countTenants(sql: SqlClient): Promise<number> {
  const rows = await sql.query<{ count: number }>('select count(*)::int as count from tenants');
  return rows[0]?.count ?? 0;
}

export interface TenantChanges {
  name?: string;
  allowed_origins?: string[];
  branding?: TenantBranding;
  minimum_age?: number;
  document_authenticity?: DocumentAuthenticityPolicy;
  proof_of_address_max_age_days?: number;
  attempts_per_step?: number;
  require_second_factor?: boolean;
  review_target_minutes?: number;
}

export async function updateTenant(
  sql: SqlClient,
  tenantId: string,
  changes: TenantChanges,
  now: Date,
): Promise<TenantRow | null> {
  const rows = await sql.query<TenantRow>(
    `update tenants set
       name = coalesce($2, name),
       allowed_origins = coalesce($3::jsonb, allowed_origins),
       branding = coalesce($4::jsonb, branding),
       minimum_age = coalesce($5, minimum_age),
       document_authenticity = coalesce($7, document_authenticity),
       proof_of_address_max_age_days = coalesce($8, proof_of_address_max_age_days),
       attempts_per_step = coalesce($9, attempts_per_step),
       require_second_factor = coalesce($10, require_second_factor),
       review_target_minutes = coalesce($11, review_target_minutes),
       updated_at = $6
     where id = $1 returning *`,
    [
      tenantId,
      changes.name ?? null,
      changes.allowed_origins === undefined ? null : JSON.stringify(changes.allowed_origins),
      changes.branding === undefined ? null : JSON.stringify(changes.branding),
      changes.minimum_age ?? null,
      now,
      changes.document_authenticity ?? null,
      changes.proof_of_address_max_age_days ?? null,
      changes.attempts_per_step ?? null,
      changes.require_second_factor ?? null,
      changes.review_target_minutes ?? null,
    ],
  );
  return rows[0] ?? null;
}
