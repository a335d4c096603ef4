import type { AamvaFields } from '../../domain/aamva.ts';
import { documentSources, sourceDisagreements } from '../../domain/review/document-sources.ts';
import type { IdDocumentEvidence, ParsedMrz } from '../../domain/review/review-input.ts';

/** The fields a reviewer compares, in reading order. */
export const DOCUMENT_DATA_FIELDS = [
  'first_name',
  'last_name',
  'date_of_birth',
  'document_number',
  'expiry_date',
  'nationality',
] as const;

type Field = (typeof DOCUMENT_DATA_FIELDS)[number];
type Values = Record<Field, string | null>;

export interface DocumentDataSource {
  source: 'typed' | 'mrz' | 'barcode';
  /** Typed: always; MRZ: its check digits verify; barcode: it decoded (PDF417 corrects errors). */
  verified: boolean;
  values: Values;
}

const orNull = (value: string | null | undefined) => (value === undefined || value === '' ? null : value);

function mrzValues(mrz: ParsedMrz): Values {
  return {
    first_name: orNull(mrz.first_name),
    last_name: orNull(mrz.last_name),
    date_of_birth: orNull(mrz.date_of_birth),
    document_number: orNull(mrz.document_number),
    expiry_date: orNull(mrz.expiry_date),
    nationality: null,
  };
}

function barcodeValues(barcode: AamvaFields): Values {
  return {
    first_name: orNull(barcode.first_name),
    last_name: orNull(barcode.last_name),
    date_of_birth: orNull(barcode.date_of_birth),
    document_number: orNull(barcode.document_number),
    expiry_date: orNull(barcode.expiry_date),
    nationality: null,
  };
}

/**
 * The document's details side by side for a reviewer: what the person typed, the MRZ (the server's read
 * before the device's; a verifying one before one that does not) and the barcode, each with whether it
 * can be trusted, and the fields on which trustworthy sources disagree, computed exactly as the
 * `data_consistency` check computes them. Personal data: the route that answers it audits the read.
 */
export function documentDataOf(sessionId: string, document: IdDocumentEvidence) {
  const sources: DocumentDataSource[] = [];
  const typed = document.details_source === undefined || document.details_source === 'typed';
  if (document.details && typed) {
    const details = document.details;
    sources.push({
      source: 'typed',
      verified: true,
      values: {
        first_name: orNull(details.first_name),
        last_name: orNull(details.last_name),
        date_of_birth: orNull(details.date_of_birth),
        document_number: orNull(details.document_number),
        expiry_date: orNull(details.expiry_date),
        nationality: orNull(details.nationality),
      },
    });
  }
  const candidates = [document.reading?.mrz, document.mrz].filter(
    (mrz): mrz is ParsedMrz => mrz !== undefined && mrz !== null,
  );
  const mrz = candidates.find((candidate) => candidate.check_digits_valid) ?? candidates[0];
  if (mrz) sources.push({ source: 'mrz', verified: mrz.check_digits_valid, values: mrzValues(mrz) });
  const barcode = document.reading?.barcode;
  if (barcode) sources.push({ source: 'barcode', verified: true, values: barcodeValues(barcode) });
  const disagreeing = new Set<string>(
    sourceDisagreements(documentSources(document).sources).flatMap((pair) => pair.fields),
  );
  return {
    object: 'document_data' as const,
    session_id: sessionId,
    document_type: orNull(document.document_type),
    issuing_country: orNull(document.issuing_country),
    fields: [...DOCUMENT_DATA_FIELDS],
    sources,
    disagreements: DOCUMENT_DATA_FIELDS.filter((field) => disagreeing.has(field)),
  };
}
