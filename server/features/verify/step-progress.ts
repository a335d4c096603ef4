import type { StepName, StepProgress } from '../../domain/session-steps.ts';
import { countedPhotos, type PhotoOfStep, sideOf } from '../evidence/counted-photos.ts';

/** Sides an identity document needs (API.md §9): a passport has one page to show, cards have two. */
export function requiredSides(documentType: string): ('front' | 'back')[] {
  return documentType === 'passport' ? ['front'] : ['front', 'back'];
}

/** A document photo as the step's progress sees it: which photo it is and whether its quality passed. */
export type DocumentPhotoState = PhotoOfStep & { quality: { ok: boolean } };

/**
 * Whether the uploads of a document step are enough: of the photos that count (`countedPhotos`: the
 * latest photo of each side of the latest upload's document type), every required side is there with no
 * blocking quality issue. Identity documents need front and back (passport: front); a proof of address
 * or business document needs its front.
 *
 * @example
 * documentSidesAccepted('id_document', [
 *   { kind: 'document', step: 'id_document', document_type: 'passport', side: 'front', quality: { ok: true } },
 * ]) // true
 */
export function documentSidesAccepted(step: StepName, uploads: readonly DocumentPhotoState[]): boolean {
  const counted = countedPhotos(uploads, step);
  const documentType = counted.at(-1)?.document_type;
  if (!documentType) return false;
  const sides = step === 'id_document' ? requiredSides(documentType) : ['front'];
  return sides.every((side) => counted.find((photo) => sideOf(photo) === side)?.quality.ok === true);
}

export type StepOutcome = 'completed' | 'pending' | 'failed_attempt';

/**
 * The steps after one outcome: `completed` or `pending` set the status, `failed_attempt` costs one of the
 * step's attempts (never below 0) and reopens it. `exhausted` is true when that was the last attempt.
 *
 * @example
 * applyStepOutcome(steps, 'liveness', 'failed_attempt') // { steps: [... attempts_remaining: 2 ...], exhausted: false }
 */
export function applyStepOutcome(
  steps: readonly StepProgress[],
  step: StepName,
  outcome: StepOutcome,
): { steps: StepProgress[]; exhausted: boolean } {
  let exhausted = false;
  const next = steps.map((entry): StepProgress => {
    if (entry.step !== step) return entry;
    if (outcome !== 'failed_attempt') return { ...entry, status: outcome };
    const attempts = Math.max(0, entry.attempts_remaining - 1);
    exhausted = attempts === 0;
    return { ...entry, status: 'pending', attempts_remaining: attempts };
  });
  return { steps: next, exhausted };
}

export function stepOf(steps: readonly StepProgress[], step: StepName): StepProgress | undefined {
  return steps.find((entry) => entry.step === step);
}
