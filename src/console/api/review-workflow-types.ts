/**
 * The shapes of issue 25's team review workflow (the review queue, claims, the document-data comparison),
 * as the server's API writes them (docs/API.md; settled in the server's routes under
 * server/features/review-queue/).
 */

/** Who holds a session in review; `expires_at` null is an admin's assignment, held until released. */
export interface ReviewClaim {
  object: 'review_claim';
  session_id: string;
  reviewer_id: string;
  claimed_at: string;
  expires_at: string | null;
  assigned_by: string | null;
}

/** One session of `GET /v1/review-queue`, oldest first, with its waiting time against the tenant's target. */
export interface ReviewQueueItem {
  object: 'review_queue_item';
  session_id: string;
  country: string;
  flow: string;
  tier: string;
  external_user_reference: string | null;
  created_at: string;
  submitted_at: string | null;
  waiting_since: string;
  waiting_minutes: number;
  target_minutes: number;
  over_target: boolean;
  reason_codes: string[];
  claim: ReviewClaim | null;
}

export interface ReviewQueue {
  object: 'list';
  data: ReviewQueueItem[];
  has_more: boolean;
  target_minutes: number;
}

/** Where a document detail came from: typed (confirmed) by the person, or read off the document. */
export type DocumentDataSource = 'typed' | 'mrz' | 'barcode';

/** The fields compared across sources, in the order a reviewer reads them. */
export const DOCUMENT_FIELDS = [
  'first_name',
  'last_name',
  'date_of_birth',
  'document_number',
  'expiry_date',
  'nationality',
] as const;

/** `GET /v1/sessions/{id}/document-data`: each source's values (personal data: the read is audited). */
export interface DocumentData {
  object: 'document_data';
  session_id: string;
  document_type: string | null;
  issuing_country: string | null;
  fields: string[];
  sources: { source: DocumentDataSource; verified: boolean; values: Record<string, string | null> }[];
  disagreements: string[];
}
