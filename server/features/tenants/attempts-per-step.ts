import { DEFAULT_ATTEMPTS_PER_STEP } from '../../domain/session-steps.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { findTenant } from '../../store/tenants.ts';

/**
 * The attempts per step a tenant's new sessions get (its `attempts_per_step` setting), read fresh at each
 * session's creation so a change in the console applies to the next session; the default when the
 * tenant is gone (its session insert then fails on its own).
 *
 * @example
 * initialStepProgress(steps, await attemptsPerStepOf(deps.db, principal.tenantId))
 */
export async function attemptsPerStepOf(sql: SqlClient, tenantId: string): Promise<number> {
  return (await findTenant(sql, tenantId))?.attempts_per_step ?? DEFAULT_ATTEMPTS_PER_STEP;
}
