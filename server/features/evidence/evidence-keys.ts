import type { FieldCipher } from '../../crypto/field-cipher.ts';
import { sha256Hex } from '../../crypto/primitives.ts';

/**
 * Encryption contexts of the evidence columns: each binds a ciphertext to its column and row, so a
 * value copied elsewhere fails to decrypt instead of leaking there.
 */
export const evidenceCipherContext = {
  details: (sessionId: string, step: string) => `verify.details:${sessionId}:${step}`,
  mrz: (sessionId: string) => `verify.mrz:${sessionId}`,
  issuingCountry: (uploadId: string) => `verify.upload.issuing_country:${uploadId}`,
  /** What the vision engine read off one upload (MRZ, barcode, portrait embeddings, page text). */
  documentReading: (uploadId: string) => `verify.document_reading:${uploadId}`,
  consentIp: (sessionId: string) => `verify.consent.ip:${sessionId}`,
  consentUserAgent: (sessionId: string) => `verify.consent.user_agent:${sessionId}`,
};

/** Spaces, dashes and MRZ fillers are layout, not part of a document number. */
export function normaliseDocumentNumber(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/**
 * The blind index of a document number, for duplicate look-ups across sessions and identities. Anyone
 * storing a document number index (identities too) must use this function so the values compare.
 *
 * @example
 * await documentNumberIndex(deps.cipher, 'l898-902 c3') === await documentNumberIndex(deps.cipher, 'L898902C3')
 */
export function documentNumberIndex(cipher: FieldCipher, documentNumber: string): Promise<string> {
  return cipher.blindIndex(normaliseDocumentNumber(documentNumber), 'document_number');
}

/** A keyed digest of image bytes: finds the same file uploaded twice without storing its plain hash. */
export async function imageDigestIndex(cipher: FieldCipher, bytes: Uint8Array): Promise<string> {
  return cipher.blindIndex(await sha256Hex(bytes as Uint8Array<ArrayBuffer>), 'image_sha256');
}

/** Where an upload's bytes live in the blob store: grouped by tenant, environment and session. */
export function uploadBlobKey(upload: {
  tenant_id: string;
  environment: string;
  session_id: string;
  id: string;
}): string {
  return `${upload.tenant_id}/${upload.environment}/${upload.session_id}/${upload.id}`;
}
