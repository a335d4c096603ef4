import type { PixelBox } from '../../../features/vision/vision-engine.ts';
import type { MeshFace, MeshPoint } from './face-geometry.ts';

/**
 * The square of the image the face detector is run on again around a proposed face, in image pixels,
 * and the side (`size`) it is resampled to for that run.
 */
export interface RescueRegion {
  x: number;
  y: number;
  side: number;
  size: number;
}

/**
 * The region's side as a multiple of the proposal's longer side. BlazeFace (back-camera variant) misses a
 * large face turned about 45° in a whole webcam frame, yet finds the same face once the frame is cut down
 * to a square twice the face's size around it; at 1.6× it scored those faces lower, at 2.5–3× the mesh
 * fitted on them lost confidence (measured on the committed selfie fixtures, the camera man's frames,
 * around face-api's SSD boxes, which are as wide as the Tiny Face Detector's within 10 %).
 */
export const RESCUE_CONTEXT = 2;

/**
 * The largest side a region is resampled to. BlazeFace works at 256 px and the mesh at 192 px per face;
 * 640 keeps a face that fills half the region above both while bounding the copy for a proposal that
 * spans a whole 1280 px photo.
 */
export const RESCUE_MAX_SIZE = 640;

/**
 * The square of {@link RESCUE_CONTEXT} times the proposal's longer side, centred on it. It may extend past
 * the image: the caller pads with black, as the embedder's crop does.
 *
 * @example
 * rescueRegion({ x: 278, y: 179, width: 123, height: 173 }) // { x: 166.5, y: 92.5, side: 346, size: 346 }
 */
export function rescueRegion(box: PixelBox): RescueRegion {
  const side = Math.max(box.width, box.height) * RESCUE_CONTEXT;
  return {
    x: box.x + box.width / 2 - side / 2,
    y: box.y + box.height / 2 - side / 2,
    side,
    size: Math.max(1, Math.round(Math.min(side, RESCUE_MAX_SIZE))),
  };
}

/**
 * A face found in the resampled region, moved into the whole image's pixels: box and mesh (depth scaled
 * with x and y, as the mesh keeps all three on one scale). Angles, scores and emotions do not change.
 *
 * @example
 * faceInImage(faceInRegion, rescueRegion(proposal)).box // [x, y, width, height] in the image
 */
export function faceInImage<Face extends MeshFace>(face: Face, region: RescueRegion): Face {
  const scale = region.side / region.size;
  const [x, y, width, height] = face.box;
  const mesh = face.mesh.map(
    ([px, py, pz]): MeshPoint => [region.x + px * scale, region.y + py * scale, (pz ?? 0) * scale],
  );
  return {
    ...face,
    box: [region.x + x * scale, region.y + y * scale, width * scale, height * scale],
    mesh,
  };
}

/**
 * Intersection over union of two boxes given as [x, y, width, height]: 1 for the same box, 0 when apart.
 * Two proposals around one face both find it again; the overlap says it is the same face.
 *
 * @example
 * boxOverlap([0, 0, 10, 10], [5, 0, 10, 10]) // 0.333
 */
export function boxOverlap(
  a: readonly [number, number, number, number],
  b: readonly [number, number, number, number],
): number {
  const width = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
  const height = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
  if (width <= 0 || height <= 0) return 0;
  const shared = width * height;
  return shared / (a[2] * a[3] + b[2] * b[3] - shared);
}
