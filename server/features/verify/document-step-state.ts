import type { StepName } from '../../domain/session-steps.ts';
import { idDocumentDetailsRead } from '../evidence/document-reading-of-session.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { listSessionUploads } from '../../store/uploads.ts';
import { listVerifyDetails } from '../../store/verify-details.ts';
import { documentSidesAccepted } from './step-progress.ts';

/**
 * Whether a document step is complete on the session as stored (API.md §9): every required side
 * uploaded without a blocking quality issue, and for `id_document` the details confirmed too, or read
 * whole off the document (then typing them is optional).
 */
export async function documentStepComplete(
  sql: SqlClient,
  session: SessionRow,
  step: StepName,
): Promise<boolean> {
  const scope = { tenantId: session.tenant_id, environment: session.environment };
  const sides = documentSidesAccepted(step, await listSessionUploads(sql, scope, session.id, 'document'));
  if (!sides || step !== 'id_document') return sides;
  const confirmed = (await listVerifyDetails(sql, scope, session.id)).some(
    (row) => row.step === 'id_document',
  );
  return confirmed || (await idDocumentDetailsRead(sql, session));
}
