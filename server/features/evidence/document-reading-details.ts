import { isAlpha3Country } from '../../domain/countries.ts';
import type { StoredIdDocumentReading } from './document-reading-record.ts';

/** The details the end-user would otherwise type, as read off the document. Dates are `YYYY-MM-DD`. */
export interface ReadDocumentDetails {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  document_number: string;
  expiry_date: string;
  /** ISO 3166-1 alpha-3; absent when the document names none (a barcode) or a code that is not one. */
  nationality?: string;
}

export interface ReadDetails {
  source: 'mrz' | 'barcode';
  details: ReadDocumentDetails;
  /**
   * The end-user must still confirm the details: the MRZ's name zone is full, so the names may have been
   * cut to fit, or a character of the names was not read confidently (the names have no check digit).
   * False when the document gave every detail whole and sure.
   */
  details_required: boolean;
}

/**
 * ICAO 9303 nationality codes that differ from ISO 3166-1 alpha-3 (Germany writes `D`). Codes with no
 * ISO equivalent (`UTO` of the specimens, `XXA` stateless, the British `GBD`…) give no nationality.
 */
const ICAO_TO_ISO: Readonly<Record<string, string>> = { D: 'DEU' };

function isoNationality(code: string | null): string | null {
  if (code === null) return null;
  const iso = ICAO_TO_ISO[code] ?? code;
  return isAlpha3Country(iso) ? iso : null;
}

/**
 * The complete details one photo's reading gives, if any: an MRZ whose every check digit verifies and
 * whose characters outside the names were all read confidently, else an AAMVA barcode with names, number
 * and both dates. A misread or unsure MRZ gives nothing (its fields cannot be trusted); a partly unknown
 * date (`<<` for the day) gives nothing either. Uncertain names are given, for the person to confirm.
 *
 * @example
 * readDetailsOf(stored)
 * // { source: 'mrz', details: { first_name: 'ANNA MARIA', last_name: 'ERIKSSON', …, nationality: 'DEU' },
 * //   details_required: false }
 */
export function readDetailsOf(reading: StoredIdDocumentReading): ReadDetails | null {
  const mrz = reading.mrz?.parsed;
  if (mrz?.valid && mrz.documentNumber && mrz.dateOfBirth && mrz.expiryDate && mrz.lastName) {
    const nationality = isoNationality(mrz.nationality);
    return {
      source: 'mrz',
      details: {
        first_name: mrz.firstName,
        last_name: mrz.lastName,
        date_of_birth: mrz.dateOfBirth,
        document_number: mrz.documentNumber,
        expiry_date: mrz.expiryDate,
        ...(nationality ? { nationality } : {}),
      },
      details_required: mrz.namesTruncated || mrz.namesUncertain === true,
    };
  }
  const barcode = reading.barcode?.parsed;
  if (
    barcode?.last_name &&
    barcode.first_name &&
    barcode.document_number &&
    barcode.date_of_birth &&
    barcode.expiry_date
  ) {
    return {
      source: 'barcode',
      details: {
        first_name: barcode.first_name,
        last_name: barcode.last_name,
        date_of_birth: barcode.date_of_birth,
        document_number: barcode.document_number,
        expiry_date: barcode.expiry_date,
      },
      details_required: false,
    };
  }
  return null;
}

/**
 * The details of a document from the readings of its reviewed photos, latest first: the latest MRZ that
 * checks out, else the latest barcode. Null when no photo gave complete details.
 *
 * @example
 * preferredReadDetails([backReading, frontReading].map(readDetailsOf)) // the back's MRZ details
 */
export function preferredReadDetails(latestFirst: readonly (ReadDetails | null)[]): ReadDetails | null {
  return (
    latestFirst.find((read) => read?.source === 'mrz') ??
    latestFirst.find((read) => read?.source === 'barcode') ??
    null
  );
}
