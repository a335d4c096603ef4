import type { ReviewEvidence } from '../../domain/review/index.ts';
import type { ReadDetails } from '../evidence/document-reading-details.ts';

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

/** Where a verified attribute came from: read off the document (MRZ, barcode) or typed by the end-user. */
export type AttributeSource = 'mrz' | 'barcode' | 'typed';

/** The source of each document attribute; null where the attribute has no value. */
export interface AttributeSources {
  /** First and last name (they always come together). */
  name: AttributeSource | null;
  date_of_birth: AttributeSource | null;
  nationality: AttributeSource | null;
  document_number: AttributeSource | null;
  expiry_date: AttributeSource | null;
}

/** Everything the identity vault keeps about one person, encrypted as one JSON document. */
export interface IdentityVaultRecord {
  attributes: IdentityAttributes;
  /** Absent in records vaulted before document reading: those attributes were all typed. */
  attribute_sources?: AttributeSources;
  business?: IdentityBusiness;
}

/** A value with its source: the document's when it has one, else the typed one, else none. */
function pick(
  read: string | undefined,
  readSource: AttributeSource | null,
  typed: string | undefined,
): [string | null, AttributeSource | null] {
  if (read && readSource) return [read, readSource];
  if (typed) return [typed, 'typed'];
  return [null, null];
}

/**
 * The attributes an approval vaults, from the evidence the review saw and what was read off the document
 * (`read`, the MRZ whose check digits verify, else the barcode): name, birth date, nationality, document
 * number and expiry come from the document when it gave them, else from what the end-user typed, and
 * `attribute_sources` says which. Names the MRZ may have cut to fit (`details_required`) stay as typed
 * when typed. Nothing is invented: what was not collected (an older session without nationality or
 * issuing country) is null, never guessed from the session's country.
 *
 * @example
 * vaultRecordFromEvidence({ id_document: { document_type: 'passport', images: [], details } }).attributes.first_name
 * // 'Jane'
 */
export function vaultRecordFromEvidence(
  evidence: ReviewEvidence,
  read: ReadDetails | null = null,
): IdentityVaultRecord {
  const document = evidence.id_document;
  const typed = document?.details;
  const source = read?.source ?? null;
  // First and last name travel together, so a person is never half read and half typed.
  const namesCut = read?.details_required === true && typed !== undefined;
  const names = read && !namesCut ? read.details : typed;
  const nameSource = names === undefined ? null : names === typed ? 'typed' : source;
  const [dateOfBirth, dateOfBirthSource] = pick(read?.details.date_of_birth, source, typed?.date_of_birth);
  const [nationality, nationalitySource] = pick(read?.details.nationality, source, typed?.nationality);
  const [number, numberSource] = pick(read?.details.document_number, source, typed?.document_number);
  const [expiry, expirySource] = pick(read?.details.expiry_date, source, typed?.expiry_date);
  const attributes: IdentityAttributes = {
    first_name: names?.first_name ?? null,
    last_name: names?.last_name ?? null,
    date_of_birth: dateOfBirth,
    nationality,
    document: {
      type: document?.document_type ?? null,
      issuing_country: document?.issuing_country ?? null,
      number,
      expiry_date: expiry,
    },
  };
  const attribute_sources: AttributeSources = {
    name: nameSource,
    date_of_birth: dateOfBirthSource,
    nationality: nationalitySource,
    document_number: numberSource,
    expiry_date: expirySource,
  };
  const business = evidence.business_details;
  return business
    ? {
        attributes,
        attribute_sources,
        business: {
          legal_name: business.legal_name,
          registration_number: business.registration_number,
          jurisdiction: business.jurisdiction,
        },
      }
    : { attributes, attribute_sources };
}

/** Whether the evidence carried identity document data (a biometric re-verification carries none). */
export function hasDocumentData(evidence: ReviewEvidence): boolean {
  return evidence.id_document?.details !== undefined;
}
