import type { EmbeddingSpace } from '../features/vision/vision-engine.ts';

/**
 * Where a face-match score falls: `match` (close enough to approve without a person), `uncertain` (a
 * person looks), `mismatch` (far enough to reject).
 */
export type FaceMatchZone = 'match' | 'uncertain' | 'mismatch';

/** The two zone boundaries, in the space's metric. */
export interface FaceMatchThresholds {
  /** Euclidean: a score at or below this is `match`; cosine: at or above. */
  match: number;
  /** Euclidean: a score above this is `mismatch`; cosine: below. */
  mismatch: number;
}

/**
 * The zone boundaries of an embedding space: its calibrated `zones` when the embedder has them, else its
 * published threshold as both (two zones, no `uncertain`), which is what a space without a calibration can
 * honestly say.
 *
 * @example
 * zoneThresholds({ name: 'x', metric: 'euclidean', threshold: 0.6 }) // { match: 0.6, mismatch: 0.6 }
 */
export function zoneThresholds(space: EmbeddingSpace): FaceMatchThresholds {
  return space.zones ?? { match: space.threshold, mismatch: space.threshold };
}

/**
 * The zone of one score in `space`.
 *
 * @example
 * const space = { name: 'x', metric: 'euclidean', threshold: 0.6, zones: { match: 0.5, mismatch: 0.62 } } as const;
 * faceMatchZone(0.55, space) // 'uncertain'
 */
export function faceMatchZone(score: number, space: EmbeddingSpace): FaceMatchZone {
  const { match, mismatch } = zoneThresholds(space);
  if (space.metric === 'euclidean') {
    if (score <= match) return 'match';
    return score > mismatch ? 'mismatch' : 'uncertain';
  }
  if (score >= match) return 'match';
  return score < mismatch ? 'mismatch' : 'uncertain';
}

/** A probe's score against the reference, and what the probe looked like. */
export interface ScoredProbe {
  score: number;
  /** The face's width in pixels. */
  face_width: number;
  /** Head pose in degrees, when measured. */
  pose?: { yaw: number; pitch: number };
}

/**
 * Face width from which a frame counts fully: the embedder's own input (dlib's chip is 150 px); a
 * narrower face was enlarged and carries less detail.
 */
const FULL_WEIGHT_FACE_WIDTH_PX = 150;

/**
 * How much one probe counts in the fused score, 0–1: less for a narrow face (upscaled, detail lost) and
 * for a turned or tilted head (the embedder saw frontal faces; a turn moves the embedding toward other
 * people), never zero for a usable probe.
 *
 * @example
 * probeWeight({ score: 0.4, face_width: 300, pose: { yaw: 0, pitch: 0 } }) // 1
 */
export function probeWeight(probe: ScoredProbe): number {
  const size = Math.min(1, probe.face_width / FULL_WEIGHT_FACE_WIDTH_PX);
  const yaw = ((probe.pose?.yaw ?? 0) * Math.PI) / 180;
  const pitch = ((probe.pose?.pitch ?? 0) * Math.PI) / 180;
  const pose = Math.max(0, Math.cos(yaw) * Math.cos(pitch));
  return Math.max(0.05, size * pose);
}

/**
 * The session's score: the weighted mean of every compared probe's score (weights from
 * {@link probeWeight}). Every usable frame is evidence; letting the closest one decide, as before, turns
 * three independent chances into one false accept (a look-alike needs one lucky frame), where the mean
 * of three frames has about a third of one frame's noise. Null when there is no probe.
 *
 * @example
 * fuseProbeScores([{ score: 0.4, face_width: 200 }, { score: 0.5, face_width: 200 }]) // 0.45
 */
export function fuseProbeScores(probes: readonly ScoredProbe[]): number | null {
  let total = 0;
  let weights = 0;
  for (const probe of probes) {
    const weight = probeWeight(probe);
    total += probe.score * weight;
    weights += weight;
  }
  return weights === 0 ? null : total / weights;
}
