import { join } from 'node:path';
import type * as Tf from '@tensorflow/tfjs-core';
import type { PixelBox } from '../../../features/vision/vision-engine.ts';
import { requireFaceApi } from './load-face-api.ts';
import { packageDir, packageVersion } from './package-paths.ts';

/**
 * The Tiny Face Detector's confidence below which a box is not even proposed. Low on purpose: a proposal
 * decides nothing, BlazeFace on the region around it does (with its own score threshold). It scores the
 * camera man turned 40–45° in a webcam frame 0.25–0.56, and a cat's head up to 0.27: it cannot decide
 * alone.
 */
const MIN_PROPOSAL_SCORE = 0.15;

/** The detector's input side (face-api's default; a multiple of 32). */
const PROPOSER_INPUT = 416;

/** Proposals looked at per image, best first: each costs one more detector and mesh run. */
const MAX_PROPOSALS = 3;

interface TinyFaceApi {
  tf: typeof Tf;
  nets: { tinyFaceDetector: { loadFromDisk(dir: string): Promise<void> } };
  TinyFaceDetectorOptions: new (options: { inputSize: number; scoreThreshold: number }) => unknown;
  detectAllFaces(
    input: Tf.Tensor3D,
    options: unknown,
  ): Promise<{ score: number; box: { x: number; y: number; width: number; height: number } }[]>;
}

/** A face-like box from the second detector, in pixels of the image it was given. */
export interface FaceProposal {
  box: PixelBox;
  score: number;
}

export interface FaceProposer {
  /** Face-like boxes in `image` (an RGB tensor sharing the caller's tfjs engine), best first. */
  propose(image: Tf.Tensor3D): Promise<FaceProposal[]>;
  /** Model name with version, for `EngineInfo.models`. */
  name: string;
}

/**
 * face-api's Tiny Face Detector (a Tiny YOLO v2, 190 KB of weights in the installed
 * `@vladmandic/face-api` package), the second detector behind BlazeFace: it proposes where a face may be
 * when BlazeFace found none, and the caller runs BlazeFace and the mesh again on the region around each
 * proposal. Chosen over face-api's SSD MobileNet V1, which proposes the same turned faces with higher
 * scores but took about 3× the time and 2× the memory (+190 MB of wasm heap against +80 MB) in the same
 * measurement. `tf` must be the engine face-api was loaded into.
 *
 * @example
 * const proposer = await loadFaceProposer(human.tf);
 * await proposer.propose(frame) // [{ box: { x: 242, y: 194, width: 162, height: 154 }, score: 0.56 }]
 */
export async function loadFaceProposer(tf: typeof Tf): Promise<FaceProposer> {
  const faceApiDir = packageDir('@vladmandic/face-api');
  const faceApi = requireFaceApi<TinyFaceApi>(faceApiDir);
  if (faceApi.tf.engine() !== tf.engine()) {
    throw new Error('face-api loaded a second tfjs engine; it must use node_modules/@tensorflow/tfjs-core.');
  }
  await faceApi.nets.tinyFaceDetector.loadFromDisk(join(faceApiDir, 'model'));
  const options = new faceApi.TinyFaceDetectorOptions({
    inputSize: PROPOSER_INPUT,
    scoreThreshold: MIN_PROPOSAL_SCORE,
  });
  return {
    async propose(image) {
      const found = await faceApi.detectAllFaces(image, options);
      return found
        .map(({ score, box }) => ({
          score,
          box: { x: box.x, y: box.y, width: box.width, height: box.height },
        }))
        .sort((a, b) => b.score - a.score)
        .slice(0, MAX_PROPOSALS);
    },
    name: `tiny-face-detector@face-api-${packageVersion('@vladmandic/face-api')}`,
  };
}
