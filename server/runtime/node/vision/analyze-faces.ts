import type { FaceAnalysis, FaceObservation } from '../../../features/vision/vision-engine.ts';
import { decodeUpright } from './decode-upright.ts';
import { DLIB_RESNET_SPACE, faceModels } from './face-models.ts';

/**
 * The long side selfies and liveness frames are analysed at. The detector works at 256 px and the mesh
 * at 192 px per face anyway; 1280 keeps a face that fills a tenth of a phone photo large enough for the
 * embedder's 150 px crop while bounding memory and time.
 */
export const FACE_LONG_SIDE = 1280;

/**
 * Faces of a selfie or liveness frame (runs inside a vision worker). Boxes are returned in the pixels of
 * the upright original, whatever size it was analysed at.
 *
 * @example
 * const analysis = await analyzeFaces(bytes, { embeddings: true });
 */
export async function analyzeFaces(
  bytes: Uint8Array,
  options: { embeddings: boolean },
): Promise<FaceAnalysis> {
  const image = await decodeUpright(bytes, FACE_LONG_SIDE);
  const models = await faceModels();
  const faces = await models.detect(image.rgb, options);
  return {
    width: image.width,
    height: image.height,
    faces: faces.map((face) => scaleFace(face, image.width / image.rgb.width)),
    embeddingSpace: DLIB_RESNET_SPACE,
    engine: { kind: 'models', models: models.names(options) },
  };
}

/** The same face with its box in a `scale` times larger image. */
export function scaleFace(face: FaceObservation, scale: number): FaceObservation {
  const { x, y, width, height } = face.box;
  return { ...face, box: { x: x * scale, y: y * scale, width: width * scale, height: height * scale } };
}
