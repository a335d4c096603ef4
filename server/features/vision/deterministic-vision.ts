import type { ImageAnalysis, ImageAnalyzer } from '../evidence/image-analyzer.ts';
import { NO_DOCUMENT_MAX_CONTRAST } from '../evidence/quality.ts';
import type {
  DocumentReading,
  EmbeddingSpace,
  EngineInfo,
  FaceAnalysis,
  FaceObservation,
  PixelBox,
  VisionEngine,
} from './vision-engine.ts';

/** Named in every result, so a check's `details.engine` shows that no model looked. */
export const DETERMINISTIC_ENGINE: EngineInfo = { kind: 'deterministic', models: [] };

/**
 * The stand-in's own embedding space. Its embeddings never meet a real model's: a different space name
 * never compares.
 */
export const DETERMINISTIC_EMBEDDING_SPACE: EmbeddingSpace = {
  name: 'deterministic-v1',
  metric: 'euclidean',
  threshold: 0.6,
};

/** Every face's embedding: one fixed unit vector, so every face it reports is the same person. */
const SAME_PERSON_EMBEDDING: readonly number[] = Object.freeze(
  Array.from({ length: 8 }, () => 1 / Math.sqrt(8)),
);

/** The pose and expression reported for each liveness action: far beyond any sensible threshold. */
const PERFORMED: Readonly<Record<string, Partial<FaceObservation>>> = {
  turn_left: { yaw: -30 },
  turn_right: { yaw: 30 },
  look_up: { pitch: -25 },
  smile: { smile: 0.95, mouthOpen: 0.3 },
  blink: { leftEyeOpen: 0.05, rightEyeOpen: 0.05 },
};

/** An upright, frontal, neutral face with open eyes and a closed mouth. */
const NEUTRAL = {
  yaw: 0,
  pitch: 0,
  roll: 0,
  leftEyeOpen: 0.9,
  rightEyeOpen: 0.9,
  mouthOpen: 0.05,
  smile: 0.05,
};

/** The top bits of the image's perceptual hash as a number in [0, 1): where the content puts the face. */
function hashFraction(analysis: ImageAnalysis, nibble: number): number {
  return Number.parseInt(analysis.perceptualHash.charAt(nibble) || '0', 16) / 16;
}

/** Nothing to see: the same "almost uniform" test the quality check uses for an empty document frame. */
function isEmpty(analysis: ImageAnalysis): boolean {
  return analysis.contrast !== undefined && analysis.contrast < NO_DOCUMENT_MAX_CONTRAST;
}

function face(box: PixelBox, analysis: ImageAnalysis, pose: Partial<FaceObservation>, embeddings: boolean) {
  const observation: FaceObservation = {
    box,
    score: Number((0.9 + hashFraction(analysis, 2) / 10).toFixed(3)),
    ...NEUTRAL,
    ...pose,
  };
  if (embeddings) observation.embedding = SAME_PERSON_EMBEDDING;
  return observation;
}

/**
 * A fast, deterministic {@link VisionEngine} for the MSW mock, where there is no room for the models. It
 * decodes each image with the host's {@link ImageAnalyzer} (the canvas in the browser, sharp in Node) and
 * derives what it reports from that image's own content, never from a file name. What it claims, exactly:
 *
 * - `analyzeFaces`: no face on an almost uniform image (luminance σ below {@link NO_DOCUMENT_MAX_CONTRAST},
 *   a covered lens); otherwise exactly one upright face, about 45 % of the short side, placed by the image's
 *   perceptual hash. The face performs whatever `livenessAction` was asked (a turn of 30°, looking up 25°,
 *   a broad smile, both eyes closed), else it is frontal and neutral. With `embeddings`, every face has
 *   the same embedding: in the mock everyone is the same person, so a face match always matches.
 * - `readDocument`: the whole image is the document (layout found, no deskew); no MRZ and no barcode are
 *   read, so the end-user types the details; a front shows one small portrait (same person), a back none.
 * - `readText`: reads no text (empty, confidence 0).
 *
 * So the mock's flows end as they did before models existed: ordinary photos pass, liveness with
 * different frames is accepted, and sandbox forced outcomes decide as always. Every result says
 * `engine: { kind: 'deterministic', models: [] }`.
 *
 * @example
 * const deps = { ...rest, images, vision: deterministicVision(images) };
 */
export function deterministicVision(images: ImageAnalyzer): VisionEngine {
  return {
    async analyzeFaces(bytes, options = {}): Promise<FaceAnalysis> {
      const analysis = await images.analyze(bytes);
      const { width, height } = analysis;
      const size = Math.round(Math.min(width, height) * 0.45);
      // ±5 % of the image around the centre, from the content's hash.
      const x = Math.round((width - size) / 2 + (hashFraction(analysis, 0) - 0.5) * 0.1 * width);
      const y = Math.round((height - size) / 2 + (hashFraction(analysis, 1) - 0.5) * 0.1 * height);
      const pose = options.livenessAction ? (PERFORMED[options.livenessAction] ?? {}) : {};
      return {
        width,
        height,
        faces: isEmpty(analysis)
          ? []
          : [face({ x, y, width: size, height: size }, analysis, pose, options.embeddings === true)],
        embeddingSpace: DETERMINISTIC_EMBEDDING_SPACE,
        engine: DETERMINISTIC_ENGINE,
      };
    },

    async readDocument(bytes, options): Promise<DocumentReading> {
      const analysis = await images.analyze(bytes);
      const { width, height } = analysis;
      // An ID-card portrait: left of centre, a fifth of the document's height (about 3 % of its area).
      const side = Math.round(height * 0.2);
      const portrait = {
        x: Math.round(width * 0.08),
        y: Math.round(height * 0.3),
        width: side,
        height: side,
      };
      const hasPortrait = options.side === 'front' && !isEmpty(analysis);
      return {
        layout: { found: true, aspectRatio: Number((width / height).toFixed(3)), deskewDegrees: 0 },
        mrz: null,
        barcode: null,
        faces: {
          width,
          height,
          faces: hasPortrait ? [face(portrait, analysis, {}, true)] : [],
          embeddingSpace: DETERMINISTIC_EMBEDDING_SPACE,
          engine: DETERMINISTIC_ENGINE,
        },
        textLineCount: 0,
        engine: DETERMINISTIC_ENGINE,
      };
    },

    async readText(bytes) {
      // Decoded all the same, so undecodable bytes are refused as by the real engine.
      await images.analyze(bytes);
      return { text: '', confidence: 0, engine: DETERMINISTIC_ENGINE };
    },

    async close() {},
  };
}
