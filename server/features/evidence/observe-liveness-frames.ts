import type { LivenessAction } from '../../domain/liveness-challenge.ts';
import { judgeLiveness, type LivenessJudgement } from '../../domain/liveness-judgement.ts';
import type { LivenessFrameObservation } from '../../store/liveness-readings.ts';
import type { FaceAnalysis, VisionEngine } from '../vision/vision-engine.ts';
import { UnprocessableImageError } from './image-analyzer.ts';

/** What the models made of one liveness attempt. */
export type ObservedLivenessFrames =
  | {
      status: 'judged';
      /** One analysis per frame, in the challenge's order, with embeddings. */
      analyses: readonly FaceAnalysis[];
      judgement: LivenessJudgement;
      /** Wall time each frame's analysis took, ms (for logs and benchmarks; no personal data). */
      durationsMs: readonly number[];
    }
  /** The engine could not decode these frames (0-based), though the image analyzer could. */
  | { status: 'undecodable'; frames: number[] };

/**
 * Runs the face models on every frame of a liveness attempt and judges it against the challenge's
 * actions (`judgeLiveness`: one face per frame, the same person throughout, each action performed).
 * Frames are analysed concurrently: the engine spreads them over its workers. Call it outside any
 * database transaction: a model takes a fraction of a second per frame and no lock may wait on it.
 *
 * An engine failure other than an undecodable image rejects, and the caller answers 500 without using
 * the attempt: a broken model is not the end-user's fault.
 *
 * @example
 * const observed = await observeLivenessFrames(deps.vision, challenge.actions, frames);
 * if (observed.status === 'judged' && !observed.judgement.accepted) retry(observed.judgement.failure);
 */
export async function observeLivenessFrames(
  vision: VisionEngine,
  actions: readonly LivenessAction[],
  frames: readonly Uint8Array[],
): Promise<ObservedLivenessFrames> {
  const results = await Promise.all(
    frames.map(async (bytes, index) => {
      const started = performance.now();
      try {
        const analysis = await vision.analyzeFaces(bytes, {
          embeddings: true,
          livenessAction: actions[index],
        });
        return { analysis, durationMs: performance.now() - started };
      } catch (error) {
        if (error instanceof UnprocessableImageError) return null;
        throw error;
      }
    }),
  );
  const undecodable = results.flatMap((result, index) => (result === null ? [index] : []));
  if (undecodable.length > 0) return { status: 'undecodable', frames: undecodable };
  const observed = results as { analysis: FaceAnalysis; durationMs: number }[];
  const analyses = observed.map((result) => result.analysis);
  return {
    status: 'judged',
    analyses,
    judgement: judgeLiveness(actions, analyses),
    durationsMs: observed.map((result) => Math.round(result.durationMs)),
  };
}

/**
 * The non-personal summary of one frame's analysis: how many faces, and the largest one's size, pose,
 * openness and smile. The embedding is left out (it is biometric data, stored encrypted on its own).
 *
 * @example
 * observationOf(analysis) // { faces: 1, face_width: 212, yaw: -24.1, smile: 0.03, ... }
 */
export function observationOf(analysis: FaceAnalysis): LivenessFrameObservation {
  const face = analysis.faces[0];
  const round = (value: number, digits: number) => Number(value.toFixed(digits));
  return {
    faces: analysis.faces.length,
    image_width: analysis.width,
    image_height: analysis.height,
    face_width: face ? Math.round(face.box.width) : 0,
    face_height: face ? Math.round(face.box.height) : 0,
    score: face ? round(face.score, 3) : 0,
    yaw: face ? round(face.yaw, 1) : 0,
    pitch: face ? round(face.pitch, 1) : 0,
    roll: face ? round(face.roll, 1) : 0,
    left_eye_open: face ? round(face.leftEyeOpen, 3) : 0,
    right_eye_open: face ? round(face.rightEyeOpen, 3) : 0,
    mouth_open: face ? round(face.mouthOpen, 3) : 0,
    smile: face ? round(face.smile, 3) : 0,
    ...(face?.quality
      ? { sharpness: round(face.quality.sharpness, 4), eye_visibility: round(face.quality.eyes, 4) }
      : {}),
  };
}
