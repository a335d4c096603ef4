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

/**
 * The photos of a step that count (`countedPhotos`) and were read, latest first, with their (still
 * encrypted) readings.
 */
export async function reviewedReadings(
  sql: SqlClient,
  session: SessionRow,
  step: StepName,
  uploads?: readonly UploadRow[],
): Promise<ReviewedReading[]> {
  const scope = { tenantId: session.tenant_id, environment: session.environment };
  const [all, readings] = await Promise.all([
    uploads ?? listSessionUploads(sql, scope, session.id, 'document'),
    listSessionDocumentReadings(sql, scope, session.id),
  ]);
  return countedPhotos(all, step)
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
 * if (await idDocumentDetailsRead(tx, session)) complete = sidesAccepted;
 */
export async function idDocumentDetailsRead(sql: SqlClient, session: SessionRow): Promise<boolean> {
  const summaries = (await reviewedReadings(sql, session, 'id_document')).map(
    ({ reading }) => reading.summary as IdDocumentReadingSummary,
  );
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

/** The reviewed identity document's readings, decrypted, latest first. */
export async function idDocumentReadings(
  sql: SqlClient,
  deps: { cipher: FieldCipher },
  session: SessionRow,
  uploads?: readonly UploadRow[],
): Promise<{ upload: UploadRow; stored: StoredIdDocumentReading }[]> {
  const reviewed = (await reviewedReadings(sql, session, 'id_document', uploads)).filter(
    ({ reading }) => reading.summary.kind === 'id_document',
  );
  return Promise.all(
    reviewed.map(async ({ upload, reading }) => ({
      upload,
      stored: await decryptReading<StoredIdDocumentReading>(deps, reading),
    })),
  );
}

/**
 * The details read off the session's reviewed identity document (latest valid MRZ first, else barcode),
 * decrypted; null when nothing complete was read.
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
  const readings = await idDocumentReadings(sql, deps, session);
  return preferredReadDetails(readings.map(({ stored }) => readDetailsOf(stored)));
}

/** The text read off the reviewed proof of address (its latest front), decrypted; null when none. */
export async function proofOfAddressReading(
  sql: SqlClient,
  deps: { cipher: FieldCipher },
  session: SessionRow,
  uploads?: readonly UploadRow[],
): Promise<StoredTextReading | null> {
  const reviewed = (await reviewedReadings(sql, session, 'proof_of_address', uploads)).find(
    ({ reading }) => reading.summary.kind === 'proof_of_address',
  );
  return reviewed ? decryptReading<StoredTextReading>(deps, reviewed.reading) : null;
}
