import type { AppDeps } from '../../app-deps.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { deleteRecoveryCodes, hasSecondFactor, secondFactorSummary } from '../../store/second-factors.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { findTenant } from '../../store/tenants.ts';
import type { Context } from 'hono';
import type { AuditAction } from '../audit/audit-actions.ts';
import { actorOf, auditOriginOf, recordAuditEvent } from '../audit/record-audit-event.ts';
import { assertMayChangeSecondFactors } from './enrolment.ts';

/**
 * Removes one second factor in a transaction: `remove` deletes it (false: there was none). A tenant that
 * requires a second factor keeps its members from removing their last one (409 `last_second_factor`);
 * once a user has none left, their recovery codes go too (they would complete no login). Audited.
 */
export async function removeSecondFactor(
  c: Context<AppEnv>,
  deps: Pick<AppDeps, 'db' | 'ids' | 'clock' | 'clientAddress'>,
  remove: (tx: SqlClient, userId: string) => Promise<boolean>,
  audit: { action: AuditAction; details?: Record<string, string> },
): Promise<boolean> {
  const principal = c.get('principal');
  const userId = (principal.user as NonNullable<typeof principal.user>).id;
  return deps.db.transaction(async (tx) => {
    await assertMayChangeSecondFactors(tx, principal);
    if (!(await remove(tx, userId))) return false;
    const summary = await secondFactorSummary(tx, userId);
    if (!hasSecondFactor(summary)) {
      const tenant = await findTenant(tx, principal.tenantId);
      if (tenant?.require_second_factor) {
        throw new ApiError(
          'last_second_factor',
          'Your organisation requires a second factor: enrol another one before removing this one.',
        );
      }
      await deleteRecoveryCodes(tx, userId);
    }
    await recordAuditEvent(tx, deps, auditOriginOf(c, deps), {
      action: audit.action,
      tenantId: principal.tenantId,
      actor: actorOf(principal),
      target: { type: 'user', id: userId },
      ...(audit.details ? { details: audit.details } : {}),
    });
    return true;
  });
}
