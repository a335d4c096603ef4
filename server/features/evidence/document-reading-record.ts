import { type AamvaFields, parseAamva } from '../../domain/aamva.ts';
import { MrzFormatError, type ParsedMrz, parseMrz } from '../../domain/mrz.ts';
import type {
  DocumentLayout,
  DocumentReading,
  EngineInfo,
  FaceAnalysis,
  TextReading,
} from '../vision/vision-engine.ts';
import { readDetailsOf } from './document-reading-details.ts';

/**
 * What the engine read off an identity document photo, kept encrypted (`document_readings.reading_enc`):
 * the MRZ lines as recognised with their parse, the barcode text with its AAMVA fields, the portrait's
 * faces with their embeddings (biometric data) and the layout.
 */
export interface StoredIdDocumentReading {
  kind: 'id_document';
  /**
   * `parsed` is null when the lines are not an MRZ at all; a wrong check digit, or a character the reader
   * was not sure of outside the names, parses with `valid: false`. `uncertain`: per line, the positions
   * read without confidence (absent from readings made before it was recorded).
   */
  mrz: {
    lines: string[];
    confidence: number;
    uncertain?: number[][];
    parsed: ParsedMrz | null;
  } | null;
  barcode: { text: string; parsed: AamvaFields | null } | null;
  portrait: FaceAnalysis;
  layout: DocumentLayout;
  text_line_count: number;
  engine: EngineInfo;
}

/** The text of a proof-of-address page, kept encrypted. */
export interface StoredTextReading {
  kind: 'proof_of_address';
  text: string;
  confidence: number;
  engine: EngineInfo;
}

export type StoredDocumentReading = StoredIdDocumentReading | StoredTextReading;

/**
 * What may be known about an identity document reading without decrypting it (`document_readings.summary`):
 * flags, counts, sizes and model names, never a value read off the document.
 */
export interface IdDocumentReadingSummary {
  kind: 'id_document';
  mrz_found: boolean;
  /**
   * The zone parsed, every check digit verified and every character was read confidently, names included
   * (the upload's `reading.mrz_read`). Unsure names make this false while the details stay offered for
   * confirmation (`details_source`, `details_required`, `names_uncertain`).
   */
  mrz_valid: boolean;
  format: 'TD1' | 'TD2' | 'TD3' | null;
  barcode_found: boolean;
  /** The barcode held AAMVA fields. */
  barcode_parsed: boolean;
  portrait_faces: number;
  /** Width in pixels of the largest face on the document, 0 without one. */
  portrait_face_width: number;
  layout: { found: boolean; aspect_ratio: number; deskew_degrees: number };
  /** Where complete details could be read from on this photo (see `readDetailsOf`), null: nowhere. */
  details_source: 'mrz' | 'barcode' | null;
  /** The details read still need the end-user's confirmation (e.g. names cut to fit the MRZ). */
  details_required: boolean;
  /**
   * A character of the MRZ's names was not read confidently (no check digit covers names): the end-user
   * confirms or corrects them (`details_required`). False when no zone was read.
   */
  names_uncertain: boolean;
  engine: EngineInfo;
}

export interface TextReadingSummary {
  kind: 'proof_of_address';
  /** Characters of text recognised (a count: the text itself is personal). */
  characters: number;
  confidence: number;
  engine: EngineInfo;
}

export type DocumentReadingSummary = IdDocumentReadingSummary | TextReadingSummary;

function parsedMrzOf(
  lines: readonly string[],
  uncertain: readonly (readonly number[])[] | undefined,
  now: Date,
): ParsedMrz | null {
  try {
    return parseMrz(lines.join('\n'), { now, ...(uncertain ? { uncertain } : {}) });
  } catch (error) {
    if (error instanceof MrzFormatError) return null;
    throw error;
  }
}

/**
 * The record of one identity document reading: what to encrypt and its non-personal summary. The MRZ is
 * parsed here, once, with two-digit years resolved against `now` (the moment of the upload).
 *
 * @example
 * const { stored, summary } = recordIdDocumentReading(await deps.vision.readDocument(bytes, options), now);
 * summary.mrz_valid // true for a well-read passport
 */
export function recordIdDocumentReading(
  reading: DocumentReading,
  now: Date,
): { stored: StoredIdDocumentReading; summary: IdDocumentReadingSummary } {
  const stored: StoredIdDocumentReading = {
    kind: 'id_document',
    mrz: reading.mrz
      ? {
          lines: [...reading.mrz.lines],
          confidence: reading.mrz.confidence,
          ...(reading.mrz.uncertain ? { uncertain: reading.mrz.uncertain.map((line) => [...line]) } : {}),
          parsed: parsedMrzOf(reading.mrz.lines, reading.mrz.uncertain, now),
        }
      : null,
    barcode: reading.barcode
      ? { text: reading.barcode.text, parsed: parseAamva(reading.barcode.text) }
      : null,
    portrait: reading.faces,
    layout: reading.layout,
    text_line_count: reading.textLineCount,
    engine: reading.engine,
  };
  const read = readDetailsOf(stored);
  const largest = reading.faces.faces[0];
  return {
    stored,
    summary: {
      kind: 'id_document',
      mrz_found: reading.mrz !== null,
      // Read whole and sure: unsure names are offered for the end-user to confirm, never presented as read.
      mrz_valid: stored.mrz?.parsed?.valid === true && stored.mrz.parsed.namesUncertain !== true,
      format: stored.mrz?.parsed?.format ?? null,
      barcode_found: reading.barcode !== null,
      barcode_parsed: stored.barcode?.parsed != null,
      portrait_faces: reading.faces.faces.length,
      portrait_face_width: largest ? Math.round(largest.box.width) : 0,
      layout: {
        found: reading.layout.found,
        aspect_ratio: reading.layout.aspectRatio,
        deskew_degrees: reading.layout.deskewDegrees,
      },
      details_source: read?.source ?? null,
      details_required: read?.details_required ?? true,
      names_uncertain: stored.mrz?.parsed?.namesUncertain === true,
      engine: reading.engine,
    },
  };
}

/**
 * The record of a proof-of-address page's text.
 *
 * @example
 * recordTextReading(await deps.vision.readText(bytes)).summary // { kind: 'proof_of_address', characters: 812, … }
 */
export function recordTextReading(reading: TextReading): {
  stored: StoredTextReading;
  summary: TextReadingSummary;
} {
  return {
    stored: {
      kind: 'proof_of_address',
      text: reading.text,
      confidence: reading.confidence,
      engine: reading.engine,
    },
    summary: {
      kind: 'proof_of_address',
      characters: reading.text.length,
      confidence: reading.confidence,
      engine: reading.engine,
    },
  };
}
