import { DEFAULT_ATTEMPTS_PER_STEP } from '../../domain/session-steps.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { findTenant } from '../../store/tenants.ts';

/**
 * The attempts per step a tenant's new sessions get (its `attempts_per_step` setting), read from its row;
 * the default when the tenant is gone (its session insert then fails on its own). Session create reads it
 * through a short cache (http/attempts-per-step-cache.ts); a re-verification opens rarely and reads it here.
 *
 * @example
 * initialStepProgress(steps, await attemptsPerStepOf(deps.db, principal.tenantId))
 */
export async function attemptsPerStepOf(sql: SqlClient, tenantId: string): Promise<number> {
  return (await findTenant(sql, tenantId))?.attempts_per_step ?? DEFAULT_ATTEMPTS_PER_STEP;
}
