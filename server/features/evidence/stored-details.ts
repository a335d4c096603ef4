import type { BusinessDetails, ConfirmedDetails, ParsedMrz } from '../../domain/review/review-input.ts';

/** What `PUT /v1/verify/details` stores for `id_document`, encrypted: the review's fields plus nationality. */
export interface StoredIdDocumentDetails extends ConfirmedDetails {
  nationality: string;
}

/** The MRZ as supplied (for a reviewer) and as parsed (for the review), encrypted together. */
export interface StoredMrz {
  text: string;
  parsed: ParsedMrz;
}

export type StoredBusinessDetails = BusinessDetails;
