import type { AamvaFields } from '../aamva.ts';
import { type ComparedField, contradictedFields } from './mrz-comparison.ts';
import type { ConfirmedDetails, IdDocumentEvidence, ParsedMrz } from './review-input.ts';

/**
 * Where identity details of a document come from: what the end-user typed (or confirmed), the MRZ (read
 * by the server's engine, else supplied by the device), the PDF417 barcode read by the server's engine.
 */
export type DetailSource = 'typed' | 'mrz' | 'barcode';

/** The details of one source; `''` where the source has no readable value, which contradicts nothing. */
type SourceValues = Readonly<Record<ComparedField, string>>;

export interface DocumentSources {
  /** The trustworthy sources, in the order typed, barcode, mrz (see {@link disagreeingFields}). */
  sources: ReadonlyMap<DetailSource, SourceValues>;
  /** An MRZ exists but none whose check digits verify: it may be a misread, so it is left out. */
  unverifiedMrz: boolean;
}

/**
 * The trustworthy detail sources of an identity document. An MRZ counts only when its check digits
 * verify; the server's reading is preferred over the device's, since the device supplied it with the
 * details it wants verified. A decoded barcode always counts: PDF417 corrects errors, so a misread does
 * not decode.
 *
 * @example
 * [...documentSources(idDocument).sources.keys()] // ['typed', 'mrz']
 */
export function documentSources(document: IdDocumentEvidence): DocumentSources {
  const sources = new Map<DetailSource, SourceValues>();
  const typed = document.details_source === undefined || document.details_source === 'typed';
  if (document.details !== undefined && typed) sources.set('typed', typedValues(document.details));
  const barcode = document.reading?.barcode;
  if (barcode) sources.set('barcode', barcodeValues(barcode));
  const mrzCandidates = [document.reading?.mrz, document.mrz].filter(
    (mrz): mrz is ParsedMrz => mrz !== undefined && mrz !== null,
  );
  const verifiedMrz = mrzCandidates.find((mrz) => mrz.check_digits_valid);
  if (verifiedMrz !== undefined) sources.set('mrz', mrzValues(verifiedMrz));
  return { sources, unverifiedMrz: verifiedMrz === undefined && mrzCandidates.length > 0 };
}

/**
 * The fields on which two sources clearly disagree, with the tolerance of `mrz-comparison.ts`
 * (transliteration, truncation, layout). `a` is the more free-form source (typed before barcode before
 * MRZ): accents are only expanded on that side, and MRZ dates may be `YYMMDD`. A field either source
 * cannot read is not compared.
 *
 * @example
 * disagreeingFields(sources.get('typed')!, sources.get('mrz')!) // ['date_of_birth']
 */
export function disagreeingFields(a: SourceValues, b: SourceValues): ComparedField[] {
  const typed: ConfirmedDetails = { ...a };
  const printed: ParsedMrz = { ...b, check_digits_valid: true };
  return contradictedFields(typed, printed).filter(
    (field) => a[field].trim() !== '' && b[field].trim() !== '',
  );
}

/**
 * Every pair of sources with the fields they disagree on, pairs in the order typed–barcode, typed–mrz,
 * barcode–mrz.
 *
 * @example
 * sourceDisagreements(documentSources(idDocument).sources) // [{ pair: ['typed', 'mrz'], fields: ['last_name'] }]
 */
export function sourceDisagreements(
  sources: ReadonlyMap<DetailSource, SourceValues>,
): { pair: [DetailSource, DetailSource]; fields: ComparedField[] }[] {
  const order: DetailSource[] = ['typed', 'barcode', 'mrz'];
  const present = order.filter((source) => sources.has(source));
  const disagreements: { pair: [DetailSource, DetailSource]; fields: ComparedField[] }[] = [];
  for (const [i, a] of present.entries()) {
    for (const b of present.slice(i + 1)) {
      const fields = disagreeingFields(sources.get(a)!, sources.get(b)!);
      if (fields.length > 0) disagreements.push({ pair: [a, b], fields });
    }
  }
  return disagreements;
}

function typedValues(details: ConfirmedDetails): SourceValues {
  const { first_name, last_name, date_of_birth, document_number, expiry_date } = details;
  return { first_name, last_name, date_of_birth, document_number, expiry_date };
}

function barcodeValues(barcode: AamvaFields): SourceValues {
  return {
    first_name: barcode.first_name,
    last_name: barcode.last_name,
    date_of_birth: barcode.date_of_birth ?? '',
    document_number: barcode.document_number,
    expiry_date: barcode.expiry_date ?? '',
  };
}

function mrzValues(mrz: ParsedMrz): SourceValues {
  const { first_name, last_name, date_of_birth, document_number, expiry_date } = mrz;
  return { first_name, last_name, date_of_birth, document_number, expiry_date };
}
