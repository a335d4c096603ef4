import type { StepName } from '../../domain/session-steps.ts';
import { detailsReadWhole, reviewedReadings } from '../evidence/document-reading-of-session.ts';
import { type DocumentReadingRow, listSessionDocumentReadings } from '../../store/document-readings.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { listSessionUploads } from '../../store/uploads.ts';
import { listVerifyDetails } from '../../store/verify-details.ts';
import { documentSidesAccepted } from './step-progress.ts';

export interface DocumentStepState {
  /**
   * Every required side uploaded without a blocking quality issue, and for `id_document` the details
   * confirmed too, or read whole off the document (then typing them is optional).
   */
  complete: boolean;
  /**
   * For `id_document`: whether the photos that count gave every detail whole (API: `details_required:
   * false`). False for the other steps.
   */
  detailsRead: boolean;
}

/**
 * The state of a document step on the session as stored (API.md §9), reading each table once: the
 * session's document uploads, for `id_document` its readings, and its confirmed details only when the
 * sides are there and the document did not give the details.
 *
 * @example
 * const { complete, detailsRead } = await documentStepState(tx, locked, 'id_document');
 */
export async function documentStepState(
  sql: SqlClient,
  session: SessionRow,
  step: StepName,
): Promise<DocumentStepState> {
  const scope = { tenantId: session.tenant_id, environment: session.environment };
  const [uploads, readings] = await Promise.all([
    listSessionUploads(sql, scope, session.id, 'document'),
    step === 'id_document'
      ? listSessionDocumentReadings(sql, scope, session.id)
      : new Map<string, DocumentReadingRow>(),
  ]);
  const sides = documentSidesAccepted(step, uploads);
  const detailsRead = step === 'id_document' && detailsReadWhole(reviewedReadings(uploads, readings, step));
  if (!sides || step !== 'id_document' || detailsRead) return { complete: sides, detailsRead };
  const confirmed = (await listVerifyDetails(sql, scope, session.id)).some(
    (row) => row.step === 'id_document',
  );
  return { complete: confirmed, detailsRead };
}

/**
 * Whether a document step is complete on the session as stored (`documentStepState`'s `complete`).
 *
 * @example
 * const complete = await documentStepComplete(tx, locked, 'id_document');
 */
export async function documentStepComplete(
  sql: SqlClient,
  session: SessionRow,
  step: StepName,
): Promise<boolean> {
  return (await documentStepState(sql, session, step)).complete;
}
