import type {
  DocumentReading,
  MrzReading,
  ReadDocumentOptions,
} from '../../../features/vision/vision-engine.ts';
import { MrzFormatError, parseMrz } from '../../../domain/mrz.ts';
import { blackInkView, colouredInkShare, MIN_COLOURED_INK_SHARE } from './black-ink-view.ts';
import { decodeUpright, type RawImage } from './decode-upright.ts';
import { FACE_LONG_SIDE, scaleFace } from './analyze-faces.ts';
import { DLIB_RESNET_SPACE, faceModels } from './face-models.ts';
import { type InkMap, toGray } from './ink-components.ts';
import { findMrzZone, type MrzZone } from './mrz-zone.ts';
import { barcodeModelName, readPdf417 } from './pdf417-reader.ts';
import { resizeRaw, rotateRaw } from './raw-image-ops.ts';
import { estimateMotionBlur, withoutMotionBlur } from './motion-blur.ts';
import { readMrz } from './read-mrz.ts';
import { inkOf, straightenDocument } from './straighten-document.ts';
import { countTextRows, glyphCandidates, groupTextLines, type TextLine, textSkew } from './text-lines.ts';
import { glyphModelNames } from './mrz-glyph-model.ts';
import { ocrModelName } from './tesseract-ocr.ts';

/**
 * The long side documents are read at: a passport page filling half of a 12 MP photo keeps ~25 px per
 * MRZ character, which OCR-B needs; larger only costs time and memory.
 */
const DOCUMENT_LONG_SIDE = 2000;

/**
 * A photo whose long side is under this, in which no zone was found at its own size, is looked at again
 * enlarged (cubic) to {@link ENLARGED_LONG_SIDE}: at ~6 px per MRZ character the filler chevrons melt
 * into runs and fall under the glyph finder's minimum size. Enlarged only as a second try, never first:
 * a zone found at its own size is read there (the glyph classifier resamples every cell anyway).
 */
export const SMALL_LONG_SIDE = 1000;
export const ENLARGED_LONG_SIDE = 1000;
/** Below this there is no zone left to read (a 200 px wide page prints its zone in 4 px characters). */
const MIN_READABLE_LONG_SIDE = 200;
/** Skew searched on the photo as taken, in each of its four quarter turns (no outline to go by). */
const PHOTO_SKEW_RANGE = 25;

/** Document types whose back carries a PDF417 barcode often enough to look for one on any side. */
const BARCODE_TYPES: ReadonlySet<string> = new Set(['driving_licence']);

interface PageText {
  rgb: RawImage;
  ink: InkMap;
  lines: TextLine[];
  zone: MrzZone | null;
}

function pageText(rgb: RawImage): PageText {
  const ink = inkOf(rgb);
  const lines = groupTextLines(glyphCandidates(ink.components, ink.height));
  return { rgb, ink, lines, zone: findMrzZone(lines, ink) };
}

/**
 * The text of the straightened document in its reading orientation: a zone whose fillers point right is
 * upside down (turned 180°); a portrait-shaped document with no zone may be a landscape card photographed
 * sideways (tried at ±90°). Only the cheap layout analysis runs per orientation, never the OCR.
 */
async function orientedPageText(rgb: RawImage): Promise<{ page: PageText; turn: number }> {
  const upright = pageText(rgb);
  if (upright.zone && !upright.zone.upsideDown) return { page: upright, turn: 0 };
  const turns = upright.zone ? [180] : rgb.height > rgb.width ? [90, -90] : [];
  for (const turn of turns) {
    const page = pageText(await rotateRaw(rgb, turn));
    if (page.zone && !page.zone.upsideDown) return { page, turn };
  }
  return { page: upright, turn: 0 };
}

/**
 * The zone looked for on the photo as taken, independent of any document outline: in each quarter turn,
 * levelled by the text's own skew. This finds the zone where the outline misleads (an edge-to-edge scan
 * whose border is the document itself, a second document in view, a busy desk) and on photos turned
 * 90°, 180° or 270°.
 */
async function zoneOnPhoto(photo: RawImage): Promise<PageText | null> {
  for (const turn of [0, 180, 90, -90]) {
    let rgb = turn === 0 ? photo : await rotateRaw(photo, turn);
    const skew = textSkew(glyphCandidates(inkOf(rgb).components, rgb.height), PHOTO_SKEW_RANGE);
    if (Math.abs(skew) >= 0.3) rgb = await rotateRaw(rgb, -skew);
    const page = pageText(rgb);
    if (page.zone && !page.zone.upsideDown) return page;
  }
  return null;
}

/**
 * The page to read: the straightened document in its reading orientation when a zone is found there,
 * else the zone found on the photo itself; both again on an enlarged copy of a small photo.
 */
async function pageToRead(
  straight: RawImage,
  photo: RawImage,
): Promise<{ page: PageText; turn: number; enlargement: number }> {
  const readable = (page: PageText) => page.zone !== null && !page.zone.upsideDown;
  const oriented = await orientedPageText(straight);
  if (readable(oriented.page)) return { ...oriented, enlargement: 1 };
  const onPhoto = await zoneOnPhoto(photo);
  if (onPhoto) return { page: onPhoto, turn: 0, enlargement: 1 };
  const longSide = Math.max(straight.width, straight.height);
  if (longSide < SMALL_LONG_SIDE && longSide >= MIN_READABLE_LONG_SIDE) {
    const enlarged = await resizeRaw(straight, Math.max(ENLARGED_LONG_SIDE, 2 * longSide), true);
    const retried = await orientedPageText(enlarged);
    if (readable(retried.page))
      return { ...retried, enlargement: Math.max(enlarged.width, enlarged.height) / longSide };
  }
  return { ...oriented, enlargement: 1 };
}

/**
 * The document photo's machine-readable zone alone: decoded upright, straightened, the page to read
 * found and its zone read. {@link readDocument} goes on from here; a study of the MRZ reader (its bench)
 * can stop here.
 *
 * @example
 * (await readZone(bytes)).mrz?.lines // ['P<UTOERIKSSON<<ANNA<MARIA<<<…', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10']
 *
 * `zoneExpected`: the side carries a zone as a rule ({@link zoneExpectedOn}); only then does a photo on
 * which the first look found no zone get the second look at its black print.
 */
export async function readZone(bytes: Uint8Array, zoneExpected = true) {
  const photo = await decodeUpright(bytes, DOCUMENT_LONG_SIDE);
  const seen = await zoneOf(photo.rgb);
  const rank = readingRank(seen.mrz);
  // No zone on a side that seldom has one (a card's front, a licence): not worth a second look, which
  // costs as much as the first (~0.9 s of CPU on a card front).
  const worthAnotherLook = rank > 0 || zoneExpected;
  if (rank === FULLY_READ || !worthAnotherLook) return { photo, ...seen };
  let best = seen;
  // Coloured ink on the photo and the zone not read whole: a second, independent look with only the black
  // print (black-ink-view.ts). Each look is judged on its own, character by character; another look is
  // taken only when it read more of the zone surely, never mixed with the first.
  if (colouredInkShare(photo.rgb) >= MIN_COLOURED_INK_SHARE) {
    const blackOnly = await zoneOf(blackInkView(photo.rgb));
    if (readMoreSurely(blackOnly.mrz, best.mrz)) best = blackOnly;
  }
  // A photo streaked by the camera's shake, its zone still not read whole: a look at the photo with the
  // streak taken out (motion-blur.ts), judged the same way.
  if (readingRank(best.mrz) < FULLY_READ) {
    const steadied = await steadiedLook(photo.rgb);
    if (steadied && readMoreSurely(steadied.mrz, best.mrz)) best = steadied;
  }
  return { photo, ...best };
}

/**
 * The long side the photo is brought down to before its streak is taken out: with the filter's padding it
 * fits a 1024-pixel transform (a 1600-pixel photo would need 2048: four times the work, about 1.1 s of
 * CPU against 0.25). The zone's capitals stay at 15 px and more on a document photographed at arm's
 * length, twice what the glyph classifier was trained down to.
 */
const STEADIED_LONG_SIDE = 960;

/**
 * The look at the photo with its motion streak taken out, or null when the photo shows none
 * ({@link estimateMotionBlur}, measured at the photo's own size). The photo is brought down to
 * {@link STEADIED_LONG_SIDE} first, the streak with it.
 */
async function steadiedLook(rgb: RawImage) {
  const streak = estimateMotionBlur(toGray(rgb));
  if (!streak) return null;
  const longSide = Math.max(rgb.width, rgb.height);
  const smaller = longSide > STEADIED_LONG_SIDE ? await resizeRaw(rgb, STEADIED_LONG_SIDE) : rgb;
  const scale = smaller.width / rgb.width;
  return zoneOf(withoutMotionBlur(toGray(smaller), { ...streak, length: streak.length * scale }));
}

/**
 * Whether reading `a` read more of its zone surely than `b`: a higher {@link readingRank}, or the same
 * rank with fewer characters in doubt (two looks whose names are both in doubt: the one with fewer
 * doubtful letters offers the person the better names).
 */
function readMoreSurely(a: MrzReading | null, b: MrzReading | null): boolean {
  const rankA = readingRank(a);
  const rankB = readingRank(b);
  if (rankA !== rankB || rankA !== NAMES_IN_DOUBT) return rankA > rankB;
  return doubtCount(a) < doubtCount(b);
}

function doubtCount(mrz: MrzReading | null): number {
  return (mrz?.uncertain ?? []).reduce((sum, positions) => sum + positions.length, 0);
}

/**
 * Whether the side uploaded carries a machine-readable zone as a rule: a passport's page, the back of an
 * ID card or residence permit (TD1). A TD2 card's front may too, but most card fronts and licences do not.
 */
function zoneExpectedOn(options: ReadDocumentOptions): boolean {
  if (options.documentType === 'driving_licence') return false;
  return options.documentType === 'passport' || options.side === 'back';
}

/** Straightened, the page to read found, its zone read: one look at a photo. */
async function zoneOf(rgb: RawImage) {
  const straight = await straightenDocument(rgb);
  const { page, turn, enlargement } = await pageToRead(straight.rgb, rgb);
  const zone = page.zone && !page.zone.upsideDown ? page.zone : null;
  const mrz: MrzReading | null = zone ? await readMrz(toGray(page.rgb), zone, { enlargement }) : null;
  return { straight, page, turn, zone, mrz };
}

const FULLY_READ = 3;
const NAMES_IN_DOUBT = 2;

/**
 * How much of a zone a look read surely: {@link FULLY_READ} every character confident and every check
 * digit verified; {@link NAMES_IN_DOUBT} the same but a letter of the names in doubt; 1 a zone read but not verified; 0 none.
 */
function readingRank(mrz: MrzReading | null): number {
  if (mrz === null) return 0;
  let parsed: ReturnType<typeof parseMrz>;
  try {
    parsed = parseMrz(mrz.lines.join('\n'), { uncertain: mrz.uncertain ?? [] });
  } catch (error) {
    if (error instanceof MrzFormatError) return 1;
    throw error;
  }
  if (!parsed.valid) return 1;
  return parsed.namesUncertain ? NAMES_IN_DOUBT : FULLY_READ;
}

/**
 * Reads an identity document photo (runs inside a vision worker): finds and straightens the document,
 * reads its machine-readable zone, a PDF417 barcode on a back (and on any driving-licence side), finds
 * the portrait with its embedding, and counts the other lines of text (no text is kept).
 *
 * @example
 * const reading = await readDocument(bytes, { documentType: 'passport', side: 'front' });
 * reading.mrz?.lines // ['P<UTOERIKSSON<<ANNA<MARIA<<<…', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10']
 */
export async function readDocument(
  bytes: Uint8Array,
  options: ReadDocumentOptions,
): Promise<DocumentReading> {
  const { photo, straight, page, turn, zone, mrz } = await readZone(bytes, zoneExpectedOn(options));
  const zoneLines = new Set(page.zone?.lines.map((line) => line.line) ?? []);
  const lookForBarcode = options.side === 'back' || BARCODE_TYPES.has(options.documentType);
  // The straightened document first (zxing's PDF417 reader wants the rows level), then the photo as taken.
  const barcode = lookForBarcode ? ((await readPdf417(page.rgb)) ?? (await readPdf417(photo.rgb))) : null;
  const models = await faceModels();
  // The portrait is looked for on the photo as taken, like a selfie: on the fixtures the detector finds
  // more portraits there (31 of 34) than on the straightened crop (29), and boxes stay in the upload's pixels.
  const faceImage = await resizeRaw(photo.rgb, FACE_LONG_SIDE);
  const faceScale = photo.width / faceImage.width;
  const faces = (await models.detect(faceImage, { embeddings: true })).map((face) =>
    scaleFace(face, faceScale),
  );
  return {
    layout: {
      ...straight.layout,
      deskewDegrees: Math.round((straight.layout.deskewDegrees + turn) * 10) / 10,
      aspectRatio:
        Math.round(
          (turn % 180 === 0 ? straight.layout.aspectRatio : 1 / straight.layout.aspectRatio) * 1000,
        ) / 1000,
    },
    mrz,
    barcode,
    faces: {
      width: photo.width,
      height: photo.height,
      faces,
      embeddingSpace: DLIB_RESNET_SPACE,
      engine: { kind: 'models', models: models.names({ embeddings: true }) },
    },
    textLineCount: countTextRows(page.lines.filter((line) => !zoneLines.has(line))),
    engine: {
      kind: 'models',
      models: [
        ...models.names({ embeddings: true }),
        ...(zone ? [...glyphModelNames(), ocrModelName()] : []),
        ...(lookForBarcode ? [barcodeModelName()] : []),
      ],
    },
  };
}
