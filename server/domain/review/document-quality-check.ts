import type { StepName } from '../session-steps.ts';
import { type Check, type CheckDetails, failed, inconclusive, passed } from './checks.ts';
import type { ReasonCode } from './reasons.ts';
import {
  BUSINESS_DOCUMENT_TYPES,
  type CapturedDocument,
  type CapturedImage,
  ID_DOCUMENT_TYPES,
  PROOF_OF_ADDRESS_DOCUMENT_TYPES,
  type ReviewInput,
} from './review-input.ts';

/** Types printed on two sides (API.md §9); every other accepted type is front only. */
const TWO_SIDED_TYPES: ReadonlySet<string> = new Set(['id_card', 'driving_licence', 'residence_permit']);

interface DocumentUnderReview {
  step: StepName;
  document: CapturedDocument | undefined;
  acceptedTypes: readonly string[];
}

/**
 * Is every captured document usable? Each required document must be of a type accepted for its step and
 * have a readable image of every side it has. Both failures are fixable by capturing again, which makes
 * the decision retryable. Non-blocking quality issues (e.g. slight glare) pass and are listed in details.
 *
 * @example
 * // id_card with only the front uploaded
 * checkDocumentQuality(input) // { status: 'failed', reason_codes: ['document_unreadable'], details: { unreadable: ['id_document:back'] } }
 */
export function checkDocumentQuality(input: ReviewInput): Check {
  const missing: string[] = [];
  const unsupported: string[] = [];
  const unreadable: string[] = [];
  const issues: string[] = [];
  for (const { step, document, acceptedTypes } of documentsUnderReview(input)) {
    if (document === undefined) {
      missing.push(step);
      continue;
    }
    if (!acceptedTypes.includes(document.document_type)) {
      unsupported.push(step);
      continue;
    }
    for (const side of requiredSides(document.document_type)) {
      const image = latestImage(document.images, side);
      if (image === undefined || !image.quality.ok) unreadable.push(`${step}:${side}`);
      for (const issue of image?.quality.issues ?? []) issues.push(`${step}:${side}:${issue}`);
    }
  }

  const reasonCodes: ReasonCode[] = [];
  if (unsupported.length > 0) reasonCodes.push('document_type_not_supported');
  if (unreadable.length > 0) reasonCodes.push('document_unreadable');
  const details = nonEmpty({ unsupported, unreadable, issues, missing_evidence: missing });
  if (reasonCodes.length > 0) return failed('document_quality', reasonCodes, details);
  if (missing.length > 0) return inconclusive('document_quality', 'evidence_missing', details);
  return passed('document_quality', issues.length > 0 ? details : undefined);
}

function documentsUnderReview({ session, evidence, policy }: ReviewInput): DocumentUnderReview[] {
  const candidates: DocumentUnderReview[] = [
    {
      step: 'id_document',
      document: evidence.id_document,
      acceptedTypes: policy.accepted_document_types ?? ID_DOCUMENT_TYPES,
    },
    {
      step: 'proof_of_address',
      document: evidence.proof_of_address,
      acceptedTypes: PROOF_OF_ADDRESS_DOCUMENT_TYPES,
    },
    {
      step: 'business_document',
      document: evidence.business_document,
      acceptedTypes: BUSINESS_DOCUMENT_TYPES,
    },
  ];
  return candidates.filter((candidate) => session.required_steps.includes(candidate.step));
}

function requiredSides(documentType: string): Array<CapturedImage['side']> {
  return TWO_SIDED_TYPES.has(documentType) ? ['front', 'back'] : ['front'];
}

/** Images are in upload order; a re-upload of a side replaces the earlier one. */
function latestImage(
  images: readonly CapturedImage[],
  side: CapturedImage['side'],
): CapturedImage | undefined {
  return images.findLast((image) => image.side === side);
}

function nonEmpty(lists: Record<string, string[]>): CheckDetails {
  return Object.fromEntries(Object.entries(lists).filter(([, list]) => list.length > 0));
}
