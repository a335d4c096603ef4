import type { ReviewEvidence } from '../domain/review/index.ts';

/** The verified attributes of an identity (API.md §6), as stored (encrypted) and shown. */
export interface IdentityAttributes {
  first_name: string | null;
  last_name: string | null;
  date_of_birth: string | null;
  nationality: string | null;
  address?: string | null;
  document: {
    type: string | null;
    issuing_country: string | null;
    number: string | null;
    expiry_date: string | null;
  };
}

export interface IdentityBusiness {
  legal_name: string;
  registration_number: string;
  jurisdiction: string;
}

/** Everything the identity vault keeps about one person, encrypted as one JSON document. */
export interface IdentityVaultRecord {
  attributes: IdentityAttributes;
  business?: IdentityBusiness;
}

/**
 * The attributes an approval vaults, from the evidence the review saw. Nothing is invented: what was
 * not collected (an older session without nationality or issuing country) is null, never guessed from
 * the session's country.
 *
 * @example
 * vaultRecordFromEvidence({ id_document: { document_type: 'passport', images: [], details } }).attributes.first_name
 * // 'Jane'
 */
export function vaultRecordFromEvidence(evidence: ReviewEvidence): IdentityVaultRecord {
  const document = evidence.id_document;
  const details = document?.details;
  const attributes: IdentityAttributes = {
    first_name: details?.first_name ?? null,
    last_name: details?.last_name ?? null,
    date_of_birth: details?.date_of_birth ?? null,
    nationality: details?.nationality ?? null,
    document: {
      type: document?.document_type ?? null,
      issuing_country: document?.issuing_country ?? null,
      number: details?.document_number ?? null,
      expiry_date: details?.expiry_date ?? null,
    },
  };
  const business = evidence.business_details;
  return business
    ? {
        attributes,
        business: {
          legal_name: business.legal_name,
          registration_number: business.registration_number,
          jurisdiction: business.jurisdiction,
        },
      }
    : { attributes };
}

/** Whether the evidence carried identity document data (a biometric re-verification carries none). */
export function hasDocumentData(evidence: ReviewEvidence): boolean {
  return evidence.id_document?.details !== undefined;
}
