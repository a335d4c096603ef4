import type { DocumentReading, MrzReading } from '../features/vision/vision-engine.ts';
import {
  BUSINESS_DOCUMENT_TYPES,
  ID_DOCUMENT_TYPES,
  PROOF_OF_ADDRESS_DOCUMENT_TYPES,
} from './review/review-input.ts';

/** Tells, from what the engine read, whether a photo plausibly is the document type chosen. */
export type PhotoKindVerdict =
  | { ok: true }
  | { ok: false; seen: 'selfie' | 'text_page' | 'no_document' | 'other_document' };

/**
 * The refusal bars. Each needs several independent signs at once, because refusing a genuine document
 * that was merely read badly is worse than letting a wrong photo through to the review:
 *
 * - `selfie_face_area_min` 0.15: the share of the image a single face's box must cover. On a card that
 *   fills the whole frame the portrait is ~17 % of the card and the face box ~55 % of the portrait, so a
 *   document face stays under ~10 %; a selfie at arm's length covers 12–30 %. 0.15 leaves a margin on
 *   the document side.
 * - `text_page_lines_min` 25: lines of text outside the MRZ. A passport data page, labels in two
 *   languages included, has about 20; a bill or a statement photographed whole has 30 or more.
 */
export const PHOTO_KIND_THRESHOLDS = {
  selfie_face_area_min: 0.15,
  text_page_lines_min: 25,
} as const;

const IDENTITY_TYPES: ReadonlySet<string> = new Set(ID_DOCUMENT_TYPES);
const CARD_TYPES: ReadonlySet<string> = new Set(['id_card', 'driving_licence', 'residence_permit']);
/** Pages that never carry a machine-readable zone. */
const PAGE_TYPES: ReadonlySet<string> = new Set([
  ...PROOF_OF_ADDRESS_DOCUMENT_TYPES,
  ...BUSINESS_DOCUMENT_TYPES,
]);

/**
 * Refuses a photo only on strong evidence that it is not the chosen document; everything else is `ok`
 * (the review's quality and authenticity checks deal with poor photos):
 *
 * - `other_document`: a machine-readable zone of another kind — a passport (2 lines of 44, `P…`) when a
 *   card was chosen, a card (3 lines of 30, `I…`/`A…`/`C…`) when a passport was chosen, any zone on a
 *   bill or certificate — or a PDF417 barcode (a driving-licence back) when a passport was chosen.
 * - `selfie`: no zone, no barcode, no document outline, exactly one face covering at least 15 % of the
 *   image, and at most two lines of text.
 * - `text_page`: the front of an identity document with no face at all (every identity document's front
 *   has a portrait), no zone, no barcode, and a page's worth of text (25+ lines).
 * - `no_document`: nothing document-like at all — no outline, no face, no zone, no barcode, no text.
 *
 * @example
 * judgeDocumentPhoto(readingOfASelfie, 'passport', 'front') // { ok: false, seen: 'selfie' }
 * judgeDocumentPhoto(readingOfABlurryPassport, 'passport', 'front') // { ok: true }
 */
export function judgeDocumentPhoto(
  reading: DocumentReading,
  documentType: string,
  side: 'front' | 'back',
): PhotoKindVerdict {
  if (isOtherDocument(reading, documentType)) return { ok: false, seen: 'other_document' };
  if (reading.mrz !== null || reading.barcode !== null) return { ok: true };

  const faces = reading.faces.faces;
  const imageArea = reading.faces.width * reading.faces.height;
  const onlyFace = faces.length === 1 ? faces[0] : undefined;
  if (
    onlyFace !== undefined &&
    !reading.layout.found &&
    imageArea > 0 &&
    (onlyFace.box.width * onlyFace.box.height) / imageArea >= PHOTO_KIND_THRESHOLDS.selfie_face_area_min &&
    reading.textLineCount <= 2
  ) {
    return { ok: false, seen: 'selfie' };
  }
  if (
    IDENTITY_TYPES.has(documentType) &&
    side === 'front' &&
    faces.length === 0 &&
    reading.textLineCount >= PHOTO_KIND_THRESHOLDS.text_page_lines_min
  ) {
    return { ok: false, seen: 'text_page' };
  }
  if (!reading.layout.found && faces.length === 0 && reading.textLineCount === 0) {
    return { ok: false, seen: 'no_document' };
  }
  return { ok: true };
}

function isOtherDocument(reading: DocumentReading, documentType: string): boolean {
  const mrz = reading.mrz;
  if (mrz !== null) {
    if (PAGE_TYPES.has(documentType)) return true;
    if (documentType === 'passport' && looksLikeCardMrz(mrz)) return true;
    if (CARD_TYPES.has(documentType) && looksLikePassportMrz(mrz)) return true;
  }
  return documentType === 'passport' && reading.barcode !== null;
}

/** ICAO TD3 (passport book): two lines of 44 characters, the document code starting with P. */
function looksLikePassportMrz(mrz: MrzReading): boolean {
  return mrz.lines.length === 2 && mrz.lines.every((line) => line.length >= 40) && mrz.lines[0]?.[0] === 'P';
}

/** ICAO TD1 (ID-1 card): three lines of 30 characters, a card's document code (A, C or I). */
function looksLikeCardMrz(mrz: MrzReading): boolean {
  return (
    mrz.lines.length === 3 &&
    mrz.lines.every((line) => line.length >= 28 && line.length <= 32) &&
    /^[ACI]/.test(mrz.lines[0] ?? '')
  );
}
