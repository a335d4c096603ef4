import type { StepName } from '../../domain/session-steps.ts';
import type { UploadRow } from '../../store/uploads.ts';

/** What says whether an upload counts: its kind, step, document type and side. */
export type PhotoOfStep = Pick<UploadRow, 'kind' | 'step' | 'document_type' | 'side'>;

/** A photo's side; a document photo without one is its front, as the upload's default is. */
export function sideOf(photo: Pick<PhotoOfStep, 'side'>): 'front' | 'back' {
  return photo.side ?? 'front';
}

/**
 * The photos that count for a document step, in upload order: of the step's document photos, those of
 * the document type of its latest upload (the document the end-user settled on; photos of another type
 * stay in the evidence list but are not judged as this document), and of each side only the latest (a
 * retake replaces the earlier photo). The one rule behind whether the step's sides are accepted at
 * upload (`documentSidesAccepted`), which photos the review judges (`capturedDocument`) and whose
 * readings it reads (`reviewedReadings`). Empty when the step has no photo.
 *
 * @example
 * // uploaded in this order; the latest is an ID card, so the passport does not count
 * countedPhotos([cardFront, passport, cardBackBlurry, cardBack], 'id_document') // [cardFront, cardBack]
 */
export function countedPhotos<T extends PhotoOfStep>(uploads: readonly T[], step: StepName): T[] {
  const ofStep = uploads.filter((upload) => upload.kind === 'document' && upload.step === step);
  const latest = ofStep.at(-1);
  if (!latest) return [];
  const sameDocument = ofStep.filter((upload) => upload.document_type === latest.document_type);
  const latestOfSide = new Map<'front' | 'back', T>();
  for (const upload of sameDocument) latestOfSide.set(sideOf(upload), upload);
  return sameDocument.filter((upload) => latestOfSide.get(sideOf(upload)) === upload);
}
