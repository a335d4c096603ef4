import type { FieldCipher } from '../../crypto/field-cipher.ts';
import type { ReviewEvidence } from '../../domain/review/index.ts';
import { collectReviewEvidence } from '../evidence/collect-review-evidence.ts';
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
