import type { AppDeps } from '../../app-deps.ts';
import type { Principal } from '../../http/app-env.ts';
import type { IdentityRow } from '../../store/identities.ts';
import { findUnsettledReverification } from '../../store/reverifications.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { identityStatus, toIdentityObject } from './identity-object.ts';

/**
 * The identity as this caller may see it: status derived with its open re-verification, personal values
 * masked unless the caller holds `identities:read_pii`.
 */
export async function identityView(
  sql: SqlClient,
  deps: Pick<AppDeps, 'cipher'>,
  principal: Pick<Principal, 'tenantId' | 'environment' | 'capabilities'>,
  row: IdentityRow,
) {
  const unsettled = await findUnsettledReverification(sql, principal, row.id);
  return toIdentityObject(deps, row, {
    status: identityStatus(row, unsettled),
    revealPersonalData: principal.capabilities.has('identities:read_pii'),
  });
}
