import { ApiError } from '../../errors/api-error.ts';
import type { TenantRow } from '../../store/tenants.ts';

/** The tenant as the API shows it (the `Tenant` schema of tenant-schemas.ts). */
export function toTenantObject(row: TenantRow) {
  return {
    object: 'tenant' as const,
    tenant_id: row.id,
    name: row.name,
    status: row.status as 'active' | 'suspended',
    allowed_origins: row.allowed_origins,
    branding: row.branding,
    minimum_age: row.minimum_age,
    document_authenticity: row.document_authenticity,
    proof_of_address_max_age_days: row.proof_of_address_max_age_days,
    attempts_per_step: row.attempts_per_step,
    require_second_factor: row.require_second_factor,
    review_target_minutes: row.review_target_minutes,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function tenantMissing(): ApiError {
  return new ApiError('resource_missing', 'The tenant no longer exists.');
}
