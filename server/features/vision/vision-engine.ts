/**
 * The seam between the verification engine and the models that look at images. Web-standard types only,
 * so the domain, the routes and the MSW mock depend on this file and never on a model library.
 *
 * Two implementations:
 * - Node (`server/runtime/node/vision/`): real models (face detection and mesh, face embeddings, OCR of the
 *   machine-readable zone, PDF417) loaded lazily once per worker thread, run off the HTTP event loop.
 * - The mock (`server/features/vision/deterministic-vision.ts`): a fast, deterministic stand-in for the browser,
 *   where there is no room for the models; it says so in every result's `engine`.
 *
 * Every result names the models that produced it (`engine`), so a check can report its method.
 */

/** A rectangle in the pixel space of the analysed image (after EXIF orientation). */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Which models produced a result; copied into check `details` so a reviewer sees the method. */
export interface EngineInfo {
  /** `models` for the real models, `deterministic` for the mock's stand-in. */
  kind: 'models' | 'deterministic';
  /** Model names with versions, e.g. `human-blazeface@3.3.6`, `dlib-resnet-v1@face-api-1.7.15`. */
  models: readonly string[];
}

/**
 * How two embeddings of one embedder are compared. The embedder owns its metric and its published
 * threshold, so the face-match check never hard-codes a number that belongs to a model.
 */
export interface EmbeddingSpace {
  /** Stable name of the embedder, e.g. `dlib-resnet-v1`. Embeddings of different spaces never compare. */
  name: string;
  /** `euclidean`: same person when distance ≤ threshold; `cosine`: when similarity ≥ threshold. */
  metric: 'euclidean' | 'cosine';
  threshold: number;
  /**
   * The face match's three zones, calibrated for this embedder on a face-pair set
   * (`domain/face-match-zones.ts`): `match` at or inside `match`, `mismatch` beyond `mismatch`, `uncertain`
   * between. Absent: `threshold` is both (two zones).
   */
  zones?: { match: number; mismatch: number };
  /**
   * The least {@link FaceQuality} at which this embedder's distances are trusted to reject: a pair with a
   * face below either floor is never put in the `mismatch` zone (a person looks instead), and its `match`
   * zone is unchanged. Absent: no floor (every face's distance may reject).
   */
  qualityFloors?: FaceQuality;
  /**
   * Corrects a euclidean distance for how close strangers typically come to each of the two faces
   * (`domain/face-neighbourhood.ts`); the zones then apply to the corrected distance. Absent: the raw
   * distance decides.
   */
  neighbourhood?: NeighbourhoodModel;
}

/**
 * A linear prediction, from a face's embedding alone, of the mean distance from that face to its nearest
 * faces of other people: `bias + weights · embedding`. Fitted on the tuning half of a face set (see
 * `bench/accuracy/fit-face-neighbourhood.ts`); it holds 129 numbers, not anybody's embedding.
 */
export interface NeighbourhoodModel {
  weights: readonly number[];
  bias: number;
  /** The prediction's mean over the faces it was fitted on: a typical face's distance is left as it is. */
  typical: number;
  /**
   * The prediction's range over those faces; a prediction outside is brought back to it, so a face
   * unlike every fitted one moves its distance no further than the fitted faces did.
   */
  min: number;
  max: number;
}

/** One face as the models saw it. Angles in degrees; openness and smile from 0 to 1. */
export interface FaceObservation {
  box: PixelBox;
  /** Detector confidence, 0–1. */
  score: number;
  /**
   * Head pose from the face mesh, in the image as captured (not mirrored). `yaw` < 0: the person turned
   * to their own left; `pitch` < 0: the person looks up; `roll`: tilt of the head.
   */
  yaw: number;
  pitch: number;
  roll: number;
  /** Eye openness, 0 (closed) to 1 (open), per eye of the person. */
  leftEyeOpen: number;
  rightEyeOpen: number;
  /** Mouth openness, 0 (closed) to 1 (wide open). */
  mouthOpen: number;
  /** How much the person smiles, 0–1. */
  smile: number;
  /** The face's embedding in `FaceAnalysis.embeddingSpace`; absent when not asked for. */
  embedding?: readonly number[];
  /**
   * How good the evidence for the embedding is, measured on the aligned crop the embedder saw; absent when
   * no embedding was asked for, or from an engine that does not measure it.
   */
  quality?: FaceQuality;
}

/**
 * The quality of one face's embedding evidence, measured on the embedder's aligned crop (the same scale
 * for every face). The face match holds a far pair as uncertain instead of rejecting it when either face
 * falls below its floors (`domain/face-match-zones.ts`, `FACE_QUALITY_FLOORS`).
 */
export interface FaceQuality {
  /**
   * Share of the face's contrast in its finest detail (variance of the Laplacian ÷ variance of the
   * luminance, on the crop): low for a blurred photo or a small face enlarged.
   */
  sharpness: number;
  /**
   * The darker eye region's mean luminance ÷ the mid-face's: low when the eyes are covered (dark
   * sunglasses) or in deep shadow.
   */
  eyes: number;
}

export interface FaceAnalysis {
  /** Size of the analysed image in pixels. */
  width: number;
  height: number;
  /** Every face found, largest first. */
  faces: readonly FaceObservation[];
  embeddingSpace: EmbeddingSpace;
  engine: EngineInfo;
}

/** The machine-readable zone as read off the image: the raw lines; parsing is `domain/mrz.ts`'s job. */
export interface MrzReading {
  /** Two (TD2, TD3) or three (TD1) lines of `A–Z 0–9 <`, as recognised. */
  lines: readonly string[];
  /** Mean OCR confidence of the zone, 0–1. */
  confidence: number;
  /**
   * Per line, the positions (0-based) whose character was not read confidently: such a character is a
   * guess, and the reading does not count as read where it matters (see `parseMrz`'s `uncertain`).
   * Absent from engines that do not say.
   */
  uncertain?: readonly (readonly number[])[];
}

/** A PDF417 barcode (ID and driving-licence backs) read off the image. */
export interface BarcodeReading {
  format: 'PDF417';
  /** The decoded text (AAMVA data for North American licences); parse with `domain/aamva.ts`. */
  text: string;
}

/** Where the document was found and how it was straightened. */
export interface DocumentLayout {
  /** A quadrilateral document outline was found (false: the whole image was used). */
  found: boolean;
  /** Width ÷ height of the straightened document (ID-1 card ≈ 1.586, TD3 passport page ≈ 1.42). */
  aspectRatio: number;
  /** Rotation applied to straighten it, degrees. */
  deskewDegrees: number;
}

/** What the Node engine can tell about one document photo. */
export interface DocumentReading {
  layout: DocumentLayout;
  /** Null when no zone was found or it could not be read. */
  mrz: MrzReading | null;
  /** Null when no barcode was found (or none was looked for, on a front). */
  barcode: BarcodeReading | null;
  /** Faces on the document (the portrait), largest first, with embeddings. */
  faces: FaceAnalysis;
  /** Lines of text found outside the MRZ (for telling a bill from an ID); count only, no text kept. */
  textLineCount: number;
  engine: EngineInfo;
}

/** Plain text of a page (proof of address). Personal data: never logged, stored encrypted if at all. */
export interface TextReading {
  text: string;
  /** Mean OCR confidence, 0–1. */
  confidence: number;
  engine: EngineInfo;
}

export interface ReadDocumentOptions {
  documentType: string;
  side: 'front' | 'back';
}

/**
 * The models behind one interface. Methods reject with `UnprocessableImageError` for bytes that are not a
 * decodable image; any other rejection is an engine failure (the caller treats it as a 500 or retries).
 */
export interface VisionEngine {
  readDocument(bytes: Uint8Array, options: ReadDocumentOptions): Promise<DocumentReading>;
  /**
   * Faces of a selfie or liveness frame, with embeddings when `embeddings` is true. `livenessAction` names
   * the action a liveness frame answers (`turn_left`, `smile`, …): an engine with models measures the face
   * and ignores it; the deterministic stand-in, which cannot measure a pose, reports the face performing it.
   */
  analyzeFaces(
    bytes: Uint8Array,
    options?: { embeddings?: boolean; livenessAction?: string },
  ): Promise<FaceAnalysis>;
  readText(bytes: Uint8Array): Promise<TextReading>;
  /** Stops worker threads; pending calls reject. */
  close(): Promise<void>;
}
