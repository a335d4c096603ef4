import type { DocumentLayout } from '../../../features/vision/vision-engine.ts';
import type { RawImage } from './decode-upright.ts';
import { findDocumentOutline } from './document-outline.ts';
import { adaptiveInk, type InkMap, inkComponents, toGray } from './ink-components.ts';
import { cropRaw, resizeRaw, rotatedPoint, rotateRaw } from './raw-image-ops.ts';
import { glyphCandidates, textSkew } from './text-lines.ts';

/** The long side of the copy the outline is searched on: enough for a card's edges, cheap to scan. */
const OUTLINE_LONG_SIDE = 400;
/** Text skew searched when there is no outline to go by (a hand-held close-up). */
const SKEW_RANGE_WITHOUT_OUTLINE = 10;
/** Residual skew searched inside a found outline (perspective, a card bent in the hand). */
const SKEW_RANGE_WITH_OUTLINE = 2;
/** Below this, a rotation is not worth a resampling (and its blur). */
const MIN_ROTATION = 0.3;

export interface StraightDocument {
  /** The document, upright and cropped to its outline (the whole photo when none was found). */
  rgb: RawImage;
  layout: DocumentLayout;
}

/** Ink and glyph-sized components of an RGB image, at a window suited to its size. */
export function inkOf(rgb: RawImage): InkMap {
  const gray = toGray(rgb);
  const window = Math.max(25, Math.round(Math.min(gray.width, gray.height) / 25)) | 1;
  return inkComponents(adaptiveInk(gray, window), gray.width, gray.height);
}

/**
 * Finds the document in a photo and straightens it: the outline against the background gives the crop
 * and the rotation; a projection-profile search on the text (±10° without an outline, ±2° inside one)
 * takes out the rest. `deskewDegrees` is the total clockwise rotation applied.
 *
 * @example
 * const { rgb, layout } = await straightenDocument(photo);
 * layout // { found: true, aspectRatio: 1.42, deskewDegrees: -5 }
 */
export async function straightenDocument(photo: RawImage): Promise<StraightDocument> {
  const small = await resizeRaw(photo, OUTLINE_LONG_SIDE);
  const outline = findDocumentOutline(small);
  let document = photo;
  let rotation = 0;
  if (outline) {
    const scale = photo.width / small.width;
    rotation = Math.abs(outline.angle) >= MIN_ROTATION ? -outline.angle : 0;
    const turned = rotation === 0 ? photo : await rotateRaw(photo, rotation);
    const center = rotatedPoint(photo, rotation, { x: outline.centerX * scale, y: outline.centerY * scale });
    const width = outline.width * scale;
    const height = outline.height * scale;
    document = await cropRaw(turned, { x: center.x - width / 2, y: center.y - height / 2, width, height });
  }
  const glyphs = glyphCandidates(inkOf(document).components, document.height);
  const skew = textSkew(glyphs, outline ? SKEW_RANGE_WITH_OUTLINE : SKEW_RANGE_WITHOUT_OUTLINE);
  if (Math.abs(skew) >= MIN_ROTATION) {
    document = await rotateRaw(document, -skew);
    rotation -= skew;
  }
  return {
    rgb: document,
    layout: {
      found: outline !== null,
      aspectRatio: outline ? outline.width / outline.height : document.width / document.height,
      deskewDegrees: Math.round(rotation * 10) / 10,
    },
  };
}
