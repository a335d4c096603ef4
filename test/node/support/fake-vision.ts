// A test double at the VisionEngine seam: it answers with readings the test prepared and records what it
// was asked, so route and store tests control exactly what "was read" without loading any model. The
// real engines are tested with real images elsewhere.
import type {
  DocumentReading,
  EmbeddingSpace,
  EngineInfo,
  FaceAnalysis,
  FaceObservation,
  ReadDocumentOptions,
  TextReading,
  VisionEngine,
} from '../../../server/features/vision/vision-engine.ts';

export const FAKE_ENGINE: EngineInfo = { kind: 'models', models: ['fake-vision@test'] };
export const FAKE_SPACE: EmbeddingSpace = { name: 'fake-embedder', metric: 'euclidean', threshold: 0.6 };

/** A frontal face with open eyes, a closed mouth, no smile: override what a test needs. */
export function face(overrides: Partial<FaceObservation> = {}): FaceObservation {
  return {
    box: { x: 100, y: 120, width: 180, height: 220 },
    score: 0.98,
    yaw: 0,
    pitch: 0,
    roll: 0,
    leftEyeOpen: 1,
    rightEyeOpen: 1,
    mouthOpen: 0,
    smile: 0,
    embedding: [0.11, 0.22, 0.33, 0.44],
    ...overrides,
  };
}

export function faces(list: readonly FaceObservation[], size = { width: 1600, height: 1000 }): FaceAnalysis {
  return { ...size, faces: list, embeddingSpace: FAKE_SPACE, engine: FAKE_ENGINE };
}

/**
 * A document reading: by default a card found in the photo with a portrait and a dozen lines of text,
 * no MRZ and no barcode. `mrz` takes the zone's lines joined by `\n`, `barcode` the PDF417 text.
 */
export function documentReading(
  options: {
    mrz?: string;
    barcode?: string;
    faces?: readonly FaceObservation[];
    textLineCount?: number;
  } = {},
): DocumentReading {
  return {
    layout: { found: true, aspectRatio: 1.586, deskewDegrees: 0.5 },
    mrz: options.mrz === undefined ? null : { lines: options.mrz.split('\n'), confidence: 0.93 },
    barcode: options.barcode === undefined ? null : { format: 'PDF417', text: options.barcode },
    faces: faces(options.faces ?? [face()]),
    textLineCount: options.textLineCount ?? 12,
    engine: FAKE_ENGINE,
  };
}

/** What a selfie looks like to the document reader: one large face, no document outline, no text. */
export function selfieReading(): DocumentReading {
  return {
    layout: { found: false, aspectRatio: 1.6, deskewDegrees: 0 },
    mrz: null,
    barcode: null,
    faces: faces([face({ box: { x: 500, y: 200, width: 600, height: 700 } })]),
    textLineCount: 0,
    engine: FAKE_ENGINE,
  };
}

export interface FakeVision extends VisionEngine {
  /** What `readDocument` answers, per call (set it before the upload). */
  document: (options: ReadDocumentOptions) => DocumentReading;
  text: TextReading;
  /** Every call, in order. */
  calls: { method: 'readDocument' | 'readText' | 'analyzeFaces'; options?: ReadDocumentOptions }[];
}

/**
 * @example
 * const vision = fakeVision();
 * h.deps.vision = vision;
 * vision.document = () => documentReading({ mrz: annaMrz() });
 */
export function fakeVision(): FakeVision {
  const vision: FakeVision = {
    document: () => documentReading(),
    text: { text: '', confidence: 0, engine: FAKE_ENGINE },
    calls: [],
    async readDocument(_bytes, options) {
      vision.calls.push({ method: 'readDocument', options });
      return vision.document(options);
    },
    async readText() {
      vision.calls.push({ method: 'readText' });
      return vision.text;
    },
    async analyzeFaces() {
      vision.calls.push({ method: 'analyzeFaces' });
      return faces([face()]);
    },
    async close() {},
  };
  return vision;
}
