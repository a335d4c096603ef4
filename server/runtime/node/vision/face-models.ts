import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Tf from '@tensorflow/tfjs-core';
import type { EmbeddingSpace, FaceObservation, FaceQuality } from '../../../features/vision/vision-engine.ts';
import type { RawImage } from './decode-upright.ts';
import { chipQuality, extractFaceChip, FACE_CHIP_SIZE, faceChipTransform } from './face-chip.ts';
import { type MeshFace, observeFace } from './face-geometry.ts';
import { DLIB_CHIP_NEIGHBOURHOOD } from './face-neighbourhood-weights.ts';
import { loadFaceProposer } from './face-proposals.ts';
import { requireFaceApi } from './load-face-api.ts';
import { packageDir, packageVersion } from './package-paths.ts';
import { rescueTurnedFaces } from './turned-face-rescue.ts';

/**
 * dlib's ResNet face embedder (face-api's `face_recognition_model`) fed dlib's own aligned 150 × 150 chip
 * (`face-chip.ts`), its embedding averaged with the mirrored chip's: 128 numbers per face, compared by
 * euclidean distance. dlib publishes 0.6 as its same-person threshold (99.38 % on LFW); the face match
 * decides in three zones instead, on the distance adjusted for how close strangers come to each face
 * (`neighbourhood`, `domain/face-neighbourhood.ts`: a linear model fitted by
 * `bench/accuracy/fit-face-neighbourhood.ts` on the tuning half, half A of the face-pair set and half A of
 * 595 LFW people; docs/verification.md), with limits chosen on that half and reported on the other halves:
 * - `match` ≤ 0.53: the largest adjusted distance at which the tuning half's different-person frontal
 *   pairs fall in the match zone at most 0.05 % of the time (half the 0.1 % target), each face adjusted
 *   by a model fitted without its person (two folds): 0.534. It was 0.50 on the plain distance, and 0.55
 *   when half A of the face-pair set (10,051 such pairs) was all there was to choose on.
 * - `mismatch` > 0.62: the rule's 1 % of the tuning half's different-person pairs short of the mismatch
 *   zone gives 0.614 on the adjusted distance (0.605 on the plain one); 0.62 is kept, which rejects fewer
 *   genuine pairs unseen, and none of the tuning half's 1,746 same-person frontal pairs lies beyond it.
 * The space's name changed with the chip (was `dlib-resnet-v1` on a box crop): embeddings of the two
 * crops are never compared with each other.
 *
 * `qualityFloors`: the poorest chip of half A's 145 usable frontal faces (sharpness 0.0141, eye visibility
 * 0.3390; `chipQuality`), rounded down. A face below either was poorer than every face the zones were chosen
 * on, so its distance is not trusted to reject: beyond the mismatch limit it is `uncertain` (a person
 * looks), never `mismatch`; the match zone is unchanged. (First tried: each measure's 5th percentile on
 * half A, which held a fifth of A's impostor pairs for a person; docs/verification.md.)
 */
export const DLIB_RESNET_SPACE: EmbeddingSpace = {
  name: 'dlib-resnet-v1-chip',
  metric: 'euclidean',
  threshold: 0.6,
  zones: { match: 0.53, mismatch: 0.62 },
  qualityFloors: { sharpness: 0.014, eyes: 0.338 },
  neighbourhood: DLIB_CHIP_NEIGHBOURHOOD,
};

/** Faces reported per image at most; a liveness frame or a selfie needs one, a crowd is refused anyway. */
const MAX_FACES = 5;

/**
 * The detector's own confidence (BlazeFace box score) below which a face is dropped. The mesh score says
 * nothing either way: on a small, blurred photo the mesh "fits" a shoulder with 0.9 where the detector
 * scored 0.23, and a real face turned 40° can get a mesh score of 0.25 with a box score of 0.87. Measured
 * on the fixtures: real faces (frontal, turned 40–45°, blurred, on document portraits) 0.74–0.95; a cat's
 * face in close-up 0.59; drawn faces 0.53–0.78.
 */
const MIN_DETECTOR_SCORE = 0.65;
/**
 * Human drops faces below this on either score; near zero, so the decision is {@link MIN_DETECTOR_SCORE}'s.
 * A portrait in three-quarter profile (the camera man on a card) gets a mesh score of 0.07 and still
 * embeds within 0.48–0.55 of his own photo and 0.67+ of anyone else's.
 */
const HUMAN_MIN_CONFIDENCE = 0.1;

interface HumanResult {
  face: MeshFace[];
  error?: string | null;
}
interface HumanInstance {
  load(): Promise<void>;
  detect(input: Tf.Tensor3D): Promise<HumanResult>;
  tf: typeof Tf;
}
interface HumanModule {
  Human: new (config: Record<string, unknown>) => HumanInstance;
}
interface FaceApiModule {
  tf: typeof Tf;
  nets: { faceRecognitionNet: { loadFromDisk(dir: string): Promise<void> } };
  computeFaceDescriptor(input: Tf.Tensor3D): Promise<Float32Array | Float32Array[]>;
}

export interface FaceModels {
  /** Faces in `image`, largest first, boxes in its pixels; embeddings when asked. */
  detect(image: RawImage, options: { embeddings: boolean }): Promise<FaceObservation[]>;
  /** Model names with versions, for `EngineInfo.models`. */
  names(options: { embeddings: boolean }): string[];
}

let loading: Promise<FaceModels> | undefined;

/**
 * Human (detection, mesh, iris, emotion) and face-api's dlib ResNet, loaded on first use and kept for the
 * life of the thread. Call only inside a vision worker: loading takes about a second and 200 MB.
 *
 * @example
 * const models = await faceModels();
 * const faces = await models.detect(rgb, { embeddings: true });
 */
export function faceModels(): Promise<FaceModels> {
  loading ??= loadFaceModels().catch((error: unknown) => {
    loading = undefined; // the next job tries again rather than failing forever
    throw error;
  });
  return loading;
}

async function loadFaceModels(): Promise<FaceModels> {
  const require = createRequire(import.meta.url);
  const humanDir = packageDir('@vladmandic/human');
  const faceApiDir = packageDir('@vladmandic/face-api');
  const wasmDir = join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist');
  // Both bundles `require` @tensorflow/tfjs-core and the wasm backend from node_modules rather than
  // bundling them, so they share one tfjs engine and one wasm backend (asserted below).
  const { Human } = require(join(humanDir, 'dist', 'human.node-wasm.js')) as HumanModule;
  const human = new Human({
    backend: 'wasm',
    wasmPath: `${wasmDir}/`,
    modelBasePath: `${pathToFileURL(join(humanDir, 'models')).href}/`,
    debug: false,
    warmup: 'none',
    // Every image is a new photo: no result may be reused from the previous call.
    cacheSensitivity: 0,
    skipAllowed: false,
    face: {
      enabled: true,
      detector: {
        enabled: true,
        rotation: true,
        maxDetected: MAX_FACES,
        minConfidence: HUMAN_MIN_CONFIDENCE,
        skipFrames: 0,
        skipTime: 0,
        return: false,
      },
      mesh: { enabled: true },
      iris: { enabled: true, skipFrames: 0, skipTime: 0 },
      emotion: { enabled: true, minConfidence: 0.01, skipFrames: 0, skipTime: 0 },
      description: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      attention: { enabled: false },
      gear: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    filter: { enabled: false },
  });
  await human.load();
  const faceApi = requireFaceApi<FaceApiModule>(faceApiDir);
  const tf = human.tf;
  if (faceApi.tf.engine() !== tf.engine()) {
    throw new Error(
      'Human and face-api loaded two tfjs engines; both must use node_modules/@tensorflow/tfjs-core.',
    );
  }
  await faceApi.nets.faceRecognitionNet.loadFromDisk(join(faceApiDir, 'model'));
  // The second detector, for faces BlazeFace misses (a large face turned about 45°): see detect().
  const proposer = await loadFaceProposer(tf);
  const humanVersion = packageVersion('@vladmandic/human');
  const faceApiVersion = packageVersion('@vladmandic/face-api');

  async function embedChip(chip: Float32Array): Promise<Float32Array> {
    const input = tf.tensor3d(chip, [FACE_CHIP_SIZE, FACE_CHIP_SIZE, 3], 'float32');
    try {
      const descriptor = await faceApi.computeFaceDescriptor(input);
      return Array.isArray(descriptor) ? (descriptor[0] ?? new Float32Array()) : descriptor;
    } finally {
      input.dispose();
    }
  }

  /**
   * The face's embedding from dlib's aligned chip (`face-chip.ts`), averaged with the embedding of the
   * mirrored chip: a face and its mirror image are the same person, and the mean cancels part of what
   * the pose and the light's side put into one embedding. On the face-pair set (docs/verification.md)
   * the chip alone took FAR at 0.6 from 0.95 % (box crop) to 0.17 % and FRR from 3.0 % to 1.0 %; the
   * mirror brings FRR at 0.1 % FAR from 1.3 % to 1.0 % for one more embedder run per face.
   * The chip's quality (sharpness, eye visibility: `chipQuality`) is measured on the same chip.
   */
  async function embed(
    image: RawImage,
    face: MeshFace,
  ): Promise<{ embedding: number[]; quality: FaceQuality }> {
    const toChip = faceChipTransform(face.mesh);
    const chip = extractFaceChip(image, toChip);
    const plain = await embedChip(chip);
    const mirrored = await embedChip(extractFaceChip(image, toChip, { mirror: true }));
    return {
      embedding: Array.from(plain, (value, index) => (value + (mirrored[index] as number)) / 2),
      quality: chipQuality(chip),
    };
  }

  /** BlazeFace, mesh, iris and emotion on `input`: the faces whose box score passes. */
  async function detectMesh(input: Tf.Tensor3D): Promise<MeshFace[]> {
    const result = await human.detect(input);
    if (result.error) throw new Error(`Face detection failed: ${result.error}`);
    return result.face.filter((face) => face.boxScore >= MIN_DETECTOR_SCORE);
  }

  return {
    async detect(image, options) {
      if (image.channels !== 3) throw new Error('Face detection needs an RGB image.');
      const tensor = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
      try {
        let faces = await detectMesh(tensor);
        // Only when BlazeFace found nobody in the whole image: a frontal face costs nothing more, and a
        // face it did find is never doubled by a second look around it.
        if (faces.length === 0) faces = await rescueTurnedFaces(tensor, proposer, detectMesh, tf);
        faces.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
        const observations: FaceObservation[] = [];
        for (const face of faces) {
          const observation = observeFace(face, 1);
          if (options.embeddings) {
            const { embedding, quality } = await embed(image, face);
            observation.embedding = embedding;
            observation.quality = quality;
          }
          observations.push(observation);
        }
        return observations;
      } finally {
        tensor.dispose();
      }
    },
    names(options) {
      const human = [
        ...['blazeface', 'facemesh', 'iris', 'emotion'].map((model) => `human-${model}@${humanVersion}`),
        proposer.name,
      ];
      return options.embeddings ? [...human, `dlib-resnet-v1@face-api-${faceApiVersion}`] : human;
    },
  };
}
