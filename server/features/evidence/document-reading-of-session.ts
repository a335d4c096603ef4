import type { FieldCipher } from '../../crypto/field-cipher.ts';
import type { StepName } from '../../domain/session-steps.ts';
import { type DocumentReadingRow, listSessionDocumentReadings } from '../../store/document-readings.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { listSessionUploads, type UploadRow } from '../../store/uploads.ts';
import { countedPhotos } from './counted-photos.ts';
import { preferredReadDetails, type ReadDetails, readDetailsOf } from './document-reading-details.ts';
import type {
  IdDocumentReadingSummary,
  StoredDocumentReading,
  StoredIdDocumentReading,
  StoredTextReading,
} from './document-reading-record.ts';
import { evidenceCipherContext } from './evidence-keys.ts';

/** One reviewed photo with the reading made of it. */
export interface ReviewedReading {
  upload: UploadRow;
  reading: DocumentReadingRow;
}

/** One reviewed photo of the identity document with its reading, decrypted. */
export interface IdDocumentReading {
  upload: UploadRow;
  stored: StoredIdDocumentReading;
}

/**
 * The photos of a step that count (`countedPhotos`) and were read, latest first, with their (still
 * encrypted) readings. Reads nothing: the caller lists the session's uploads and readings once.
 *
 * @example
 * reviewedReadings(uploads, readings, 'id_document') // [{ upload: back, reading }, { upload: front, reading }]
 */
export function reviewedReadings(
  uploads: readonly UploadRow[],
  readings: ReadonlyMap<string, DocumentReadingRow>,
  step: StepName,
): ReviewedReading[] {
  return countedPhotos(uploads, step)
    .reverse()
    .flatMap((upload) => {
      const reading = readings.get(upload.id);
      return reading ? [{ upload, reading }] : [];
    });
}

/**
 * Whether the reviewed identity document's photos gave every detail whole, so the end-user need not type
 * them (API: `details_required: false`). Reads the summaries only, so no decryption is needed.
 *
 * @example
 * detailsReadWhole(reviewedReadings(uploads, readings, 'id_document')) // true after a passport's valid MRZ
 */
export function detailsReadWhole(reviewed: readonly ReviewedReading[]): boolean {
  const summaries = reviewed.map(({ reading }) => reading.summary as IdDocumentReadingSummary);
  const preferred =
    summaries.find((summary) => summary.details_source === 'mrz') ??
    summaries.find((summary) => summary.details_source === 'barcode');
  return preferred !== undefined && !preferred.details_required;
}

/** Decrypts one reading. */
export function decryptReading<T extends StoredDocumentReading>(
  deps: { cipher: FieldCipher },
  row: DocumentReadingRow,
): Promise<T> {
  return deps.cipher.decryptJson<T>(row.reading_enc, evidenceCipherContext.documentReading(row.upload_id));
}

/** The reviewed identity document's readings (see `reviewedReadings`), decrypted, latest first. */
export function idDocumentReadings(
  deps: { cipher: FieldCipher },
  reviewed: readonly ReviewedReading[],
): Promise<IdDocumentReading[]> {
  return Promise.all(
    reviewed
      .filter(({ reading }) => reading.summary.kind === 'id_document')
      .map(async ({ upload, reading }) => ({
        upload,
        stored: await decryptReading<StoredIdDocumentReading>(deps, reading),
      })),
  );
}

/**
 * The details read off the reviewed identity document (latest valid MRZ first, else barcode); null when
 * nothing complete was read.
 */
export function readDetailsOfDocument(readings: readonly IdDocumentReading[]): ReadDetails | null {
  return preferredReadDetails(readings.map(({ stored }) => readDetailsOf(stored)));
}

/**
 * The details read off the session's reviewed identity document (latest valid MRZ first, else barcode),
 * decrypted; null when nothing complete was read. Lists the uploads and the readings once each: for the
 * end-user's prefill; a review has them in its one read of the evidence (`readSessionEvidence`).
 *
 * @example
 * const read = await readIdDocumentDetails(deps.db, deps, session);
 * read?.details.document_number // 'L898902C3'
 */
export async function readIdDocumentDetails(
  sql: SqlClient,
  deps: { cipher: FieldCipher },
  session: SessionRow,
): Promise<ReadDetails | null> {
  const scope = { tenantId: session.tenant_id, environment: session.environment };
  const [uploads, readings] = await Promise.all([
    listSessionUploads(sql, scope, session.id, 'document'),
    listSessionDocumentReadings(sql, scope, session.id),
  ]);
  return readDetailsOfDocument(
    await idDocumentReadings(deps, reviewedReadings(uploads, readings, 'id_document')),
  );
}

/** The text read off the reviewed proof of address (its latest front), decrypted; null when none. */
export async function proofOfAddressReading(
  deps: { cipher: FieldCipher },
  reviewed: readonly ReviewedReading[],
): Promise<StoredTextReading | null> {
  const found = reviewed.find(({ reading }) => reading.summary.kind === 'proof_of_address');
  return found ? decryptReading<StoredTextReading>(deps, found.reading) : null;
}
