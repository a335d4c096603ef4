import type { FieldCipher } from '../../crypto/field-cipher.ts';
import { listSessionDocumentReadings } from '../../store/document-readings.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { listSessionUploads, type UploadRow } from '../../store/uploads.ts';
import type { ReadDetails } from './document-reading-details.ts';
import type { StoredTextReading } from './document-reading-record.ts';
import {
  type IdDocumentReading,
  idDocumentReadings,
  proofOfAddressReading,
  readDetailsOfDocument,
  reviewedReadings,
} from './document-reading-of-session.ts';
import { type FaceReference, faceReferenceOf } from './enrolled-reference.ts';
import { type LivenessAttemptRead, readLatestLivenessAttempt } from './liveness-evidence.ts';

/**
 * What the end-user submitted and the models read of it, for one decision, read from the store once and
 * decrypted once: everything the review, the identity vault and the face-reference enrolment take from
 * the uploads, the document readings and the liveness readings.
 */
export interface StoredEvidence {
  /** Every upload of the session (documents and liveness frames), in upload order. */
  uploads: UploadRow[];
  /** The reviewed identity document's readings (of the photos that count), decrypted, latest first. */
  idReadings: IdDocumentReading[];
  /** The text read off the reviewed proof of address, decrypted; null when none. */
  addressReading: StoredTextReading | null;
  /** The latest answered liveness attempt with its frames, embeddings decrypted; undefined when none. */
  liveness: LivenessAttemptRead | undefined;
}

/**
 * Reads a session's evidence once: its uploads, its document readings and its latest answered liveness
 * attempt (one statement per table), decrypting what the decision needs. Scoped by the session's tenant
 * and environment, as every look-up of its rows is.
 *
 * @example
 * const stored = await readSessionEvidence(deps.db, deps, session);
 * stored.idReadings[0]?.stored.mrz?.parsed?.valid // true
 */
export async function readSessionEvidence(
  sql: SqlClient,
  deps: { cipher: FieldCipher },
  session: SessionRow,
): Promise<StoredEvidence> {
  const scope = { tenantId: session.tenant_id, environment: session.environment };
  const [uploads, readings, liveness] = await Promise.all([
    listSessionUploads(sql, scope, session.id),
    listSessionDocumentReadings(sql, scope, session.id),
    readLatestLivenessAttempt(sql, deps, session),
  ]);
  const [idReadings, addressReading] = await Promise.all([
    idDocumentReadings(deps, reviewedReadings(uploads, readings, 'id_document')),
    proofOfAddressReading(deps, reviewedReadings(uploads, readings, 'proof_of_address')),
  ]);
  return { uploads, idReadings, addressReading, liveness };
}

/** What an approval takes from the evidence besides the review's own: for the vault and the enrolment. */
export interface ApprovalSources {
  /** The details read off the identity document (latest valid MRZ, else barcode); null when none. */
  documentDetails: ReadDetails | null;
  /** The best frame of an accepted liveness attempt, to enrol; null when there is none. */
  faceReference: FaceReference | null;
}

/** The approval's sources out of the one read of the evidence. */
export function approvalSourcesOf(stored: StoredEvidence): ApprovalSources {
  return {
    documentDetails: readDetailsOfDocument(stored.idReadings),
    faceReference: faceReferenceOf(stored.liveness),
  };
}
