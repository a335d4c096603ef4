import type { AppDeps } from '../../app-deps.ts';
import { judgeDocumentPhoto, type PhotoKindVerdict } from '../../domain/document-photo-kind.ts';
import type { StepName } from '../../domain/session-steps.ts';
import type { ReadDetails } from '../evidence/document-reading-details.ts';
import { readDetailsOf } from '../evidence/document-reading-details.ts';
import {
  type IdDocumentReadingSummary,
  recordIdDocumentReading,
  recordTextReading,
  type StoredIdDocumentReading,
  type StoredTextReading,
  type TextReadingSummary,
} from '../evidence/document-reading-record.ts';
import { documentNumberIndex, evidenceCipherContext } from '../evidence/evidence-keys.ts';
import { UnprocessableImageError } from '../evidence/image-analyzer.ts';
import type { DocumentReadingRow } from '../../store/document-readings.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { VisionEngine } from '../vision/vision-engine.ts';
import { verifyError } from './verify-errors.ts';

/** What the engine read off one uploaded photo, ready to be stored. */
export type PhotoReading =
  | {
      step: 'id_document';
      stored: StoredIdDocumentReading;
      summary: IdDocumentReadingSummary;
      details: ReadDetails | null;
    }
  | { step: 'proof_of_address'; stored: StoredTextReading; summary: TextReadingSummary };

const DOCUMENT_NAMES: Readonly<Record<string, string>> = {
  passport: 'passport',
  id_card: 'ID card',
  driving_licence: 'driving licence',
  residence_permit: 'residence permit',
};

/** What the end-user is told when a photo plainly is not the document they chose. */
function mismatchMessage(
  seen: Extract<PhotoKindVerdict, { ok: false }>['seen'],
  documentType: string,
): string {
  const name = DOCUMENT_NAMES[documentType] ?? 'document';
  switch (seen) {
    case 'selfie':
      return `This looks like a photo of a face, not of your ${name}. Please photograph the ${name} itself.`;
    case 'text_page':
      return `This looks like a page of text, not your ${name}. Please photograph the ${name} itself.`;
    case 'no_document':
      return `We could not find a ${name} in this photo. Please photograph the whole ${name}.`;
    case 'other_document':
      return `This looks like another kind of document than a ${name}. Please check which document you chose.`;
    default:
      return `This does not look like your ${name}. Please photograph the ${name} itself.`;
  }
}

/**
 * Reads an accepted photo with the vision engine, before anything is stored and without any lock held
 * (models take a while): an identity document's MRZ, barcode and portrait, a proof of address's text.
 * Null when there is nothing to read (no engine on this host, or a step that is not read).
 *
 * @throws 422 `document_type_mismatch` when the identity document photo plainly is not the type chosen
 *   (a selfie, a page of text); `unprocessable_image` when the engine cannot decode the bytes.
 * @example
 * const reading = await readDocumentPhoto(deps.vision, { step: 'id_document', documentType: 'passport', side: 'front' }, bytes, now);
 */
export async function readDocumentPhoto(
  vision: VisionEngine | undefined,
  photo: { step: StepName; documentType: string; side: 'front' | 'back' },
  bytes: Uint8Array,
  now: Date,
): Promise<PhotoReading | null> {
  if (!vision || (photo.step !== 'id_document' && photo.step !== 'proof_of_address')) return null;
  try {
    if (photo.step === 'proof_of_address') {
      return { step: 'proof_of_address', ...recordTextReading(await vision.readText(bytes)) };
    }
    const reading = await vision.readDocument(bytes, { documentType: photo.documentType, side: photo.side });
    const verdict = judgeDocumentPhoto(reading, photo.documentType, photo.side);
    if (!verdict.ok) {
      throw verifyError('document_type_mismatch', mismatchMessage(verdict.seen, photo.documentType), {
        param: 'image',
        extensions: { seen: verdict.seen },
      });
    }
    const { stored, summary } = recordIdDocumentReading(reading, now);
    return { step: 'id_document', stored, summary, details: readDetailsOf(stored) };
  } catch (error) {
    if (!(error instanceof UnprocessableImageError)) throw error;
    throw verifyError('unprocessable_image', 'We could not read this photo. Please take it again.', {
      param: 'image',
    });
  }
}

/**
 * The row that keeps a reading with its upload: the record encrypted and bound to the upload, the summary
 * in the clear, and the blind index of a document number read whole (for the duplicate look-up).
 */
export async function documentReadingRow(
  deps: Pick<AppDeps, 'cipher' | 'clock'>,
  session: SessionRow,
  uploadId: string,
  reading: PhotoReading,
): Promise<DocumentReadingRow> {
  const number = reading.step === 'id_document' ? reading.details?.details.document_number : undefined;
  return {
    upload_id: uploadId,
    tenant_id: session.tenant_id,
    environment: session.environment,
    session_id: session.id,
    step: reading.step,
    reading_enc: await deps.cipher.encryptJson(
      reading.stored,
      evidenceCipherContext.documentReading(uploadId),
    ),
    summary: reading.summary,
    document_number_index: number ? await documentNumberIndex(deps.cipher, number) : null,
    created_at: deps.clock.now(),
  };
}
