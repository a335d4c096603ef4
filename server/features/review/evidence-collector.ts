import type { FieldCipher } from '../../crypto/field-cipher.ts';
import type { ReviewEvidence } from '../../domain/review/index.ts';
import {
  collectReviewEvidence,
  collectSessionEvidence,
  type SessionEvidence,
} from '../evidence/collect-review-evidence.ts';
import { approvalSourcesOf, readSessionEvidence } from '../evidence/session-evidence.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';

/**
 * Gathers what the end-user submitted for a session, in the shape the review reads. The watchlist member
 * may be left out: the review screens the tenant's list itself.
 */
export type EvidenceCollector = (
  sql: SqlClient,
  deps: { cipher: FieldCipher },
  session: SessionRow,
) => Promise<ReviewEvidence>;

/**
 * The host's collector when it passed one (tests substitute theirs), else the evidence module's
 * `collectReviewEvidence`, which reads the uploads, details, consent and liveness of the session.
 */
export function evidenceCollectorOf(deps: {
  collectReviewEvidence?: EvidenceCollector | undefined;
}): EvidenceCollector {
  return deps.collectReviewEvidence ?? collectReviewEvidence;
}

/**
 * What one decision works from, read once: the evidence the review judges (with the watchlist screening
 * once the review ran it), the details read off the document that the identity vault takes, and the
 * liveness frame an approval enrols as the face reference.
 */
export interface DecisionEvidence extends Omit<SessionEvidence, 'review'> {
  review: ReviewEvidence;
}

/**
 * Reads a session's evidence once for a decision (`collectSessionEvidence`): the review judges it, and an
 * approval hands the same value to the identity vault and the face-reference enrolment. A host's own
 * collector (tests substitute theirs) says what the review sees, called once; what only the store holds
 * (the details read off the document, the liveness frames) then still comes from one read of the store.
 *
 * @example
 * const evidence = await collectDecisionEvidence(deps, session);
 * decide(reviewInputOf(session, tenant, evidence.review, now));
 */
export async function collectDecisionEvidence(
  deps: { db: SqlClient; cipher: FieldCipher; collectReviewEvidence?: EvidenceCollector | undefined },
  session: SessionRow,
): Promise<DecisionEvidence> {
  const collector = deps.collectReviewEvidence;
  if (collector === undefined) return collectSessionEvidence(deps.db, deps, session);
  const review = await collector(deps.db, deps, session);
  return { review, ...approvalSourcesOf(await readSessionEvidence(deps.db, deps, session)) };
}

/** The evidence of a decision that takes nothing from the end-user's submission (a person's rejection). */
export function noDecisionEvidence(): DecisionEvidence {
  return { review: {}, documentDetails: null, faceReference: null };
}
