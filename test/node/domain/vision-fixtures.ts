import type {
  EmbeddingSpace,
  EngineInfo,
  FaceAnalysis,
  FaceObservation,
} from '../../../server/features/vision/vision-engine.ts';

/** Hand-built model outputs for the pure rules: no model runs in these tests. */

export const DLIB_SPACE: EmbeddingSpace = { name: 'dlib-resnet-v1', metric: 'euclidean', threshold: 0.6 };
/** The dlib space with three zones, as the engine reports it (face-models.ts). */
export const ZONED_DLIB_SPACE: EmbeddingSpace = {
  name: 'dlib-resnet-v1-chip',
  metric: 'euclidean',
  threshold: 0.6,
  zones: { match: 0.55, mismatch: 0.62 },
};
export const COSINE_SPACE: EmbeddingSpace = { name: 'arcface-test', metric: 'cosine', threshold: 0.5 };
export const MODELS: EngineInfo = {
  kind: 'models',
  models: ['human-blazeface@3.3.6', 'dlib-resnet-v1@face-api-1.7.15'],
};

/** One person's embedding and small variations of it (distance 0.1–0.3), and another person's (≈ 1.0). */
export const PERSON_A = [0.1, 0.2, 0.3, 0.4] as const;
export const PERSON_A_AGAIN = [0.2, 0.2, 0.3, 0.4] as const; // distance 0.1
export const PERSON_A_TURNED = [0.1, 0.4, 0.5, 0.4] as const; // distance ≈ 0.28
export const PERSON_B = [0.8, -0.4, 0.6, 0.1] as const; // distance ≈ 1.0 from A

/** A relaxed face looking straight at the camera, eyes open, not smiling. */
export function face(overrides: Partial<FaceObservation> = {}): FaceObservation {
  return {
    box: { x: 200, y: 120, width: 240, height: 300 },
    score: 0.98,
    yaw: 2,
    pitch: 1,
    roll: 0,
    leftEyeOpen: 0.8,
    rightEyeOpen: 0.85,
    mouthOpen: 0.05,
    smile: 0.1,
    embedding: PERSON_A,
    ...overrides,
  };
}

export function analysis(faces: FaceObservation[], overrides: Partial<FaceAnalysis> = {}): FaceAnalysis {
  return { width: 640, height: 480, faces, embeddingSpace: DLIB_SPACE, engine: MODELS, ...overrides };
}
