import type { Check, ReviewResult } from '../../domain/review/index.ts';
import type { StepName, StepProgress } from '../../domain/session-steps.ts';
import type { SessionRow } from '../../store/sessions.ts';

/** A session goes back to the end-user for a fixable problem at most this often (API.md §4). */
export const MAX_RESUBMISSIONS = 2;

const DOCUMENT_STEPS: readonly StepName[] = ['id_document', 'proof_of_address', 'business_document'];

/**
 * Whether a rejection should instead send the session back to `collecting`: the review calls it
 * retryable (only recapturable problems), the session has resubmissions left and is not past its
 * deadline (the end-user could not act any more).
 */
export function shouldRequestResubmission(
  result: Pick<ReviewResult, 'decision' | 'retryable'>,
  session: Pick<SessionRow, 'resubmissions' | 'expires_at'>,
  now: Date,
): boolean {
  return (
    result.decision === 'rejected' &&
    result.retryable &&
    session.resubmissions < MAX_RESUBMISSIONS &&
    session.expires_at.getTime() > now.getTime()
  );
}

/**
 * The steps the end-user must capture again: those the document-quality check names (`id_document:back`,
 * `proof_of_address`), or every document step when it names none (a forced sandbox outcome).
 *
 * @example
 * stepsToRecapture([{ type: 'document_quality', status: 'failed', reason_codes: ['document_unreadable'],
 *   details: { unreadable: ['id_document:back'] } }], progress) // ['id_document']
 */
export function stepsToRecapture(checks: readonly Check[], progress: readonly StepProgress[]): StepName[] {
  const quality = checks.find((check) => check.type === 'document_quality');
  const named = new Set<string>();
  for (const key of ['unreadable', 'unsupported']) {
    const list = quality?.details?.[key];
    if (Array.isArray(list)) for (const entry of list) named.add(String(entry).split(':')[0] ?? '');
  }
  const present = progress.map((entry) => entry.step);
  const chosen = present.filter((step) => named.has(step));
  return chosen.length > 0 ? chosen : present.filter((step) => DOCUMENT_STEPS.includes(step));
}

/** The step progress with the given steps pending again; attempts left are kept. */
export function reopenSteps(progress: readonly StepProgress[], steps: readonly StepName[]): StepProgress[] {
  return progress.map((entry) => (steps.includes(entry.step) ? { ...entry, status: 'pending' } : entry));
}
