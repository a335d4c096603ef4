import { compareEmbeddings } from '../face-embedding.ts';
import { adjustedDistance } from '../face-neighbourhood.ts';
import {
  type FaceMatchThresholds,
  type FaceMatchZone,
  faceMatchZone,
  fuseProbeScores,
  type ScoredProbe,
  zoneThresholds,
} from '../face-match-zones.ts';
import { LIVENESS_THRESHOLDS } from '../liveness-judgement.ts';
import {
  type Check,
  type CheckDetails,
  failed,
  type InconclusiveCause,
  inconclusive,
  passed,
} from './checks.ts';
import type { FaceQuality } from '../../features/vision/vision-engine.ts';
import type { FaceMatchEvidence, FaceSample, ReviewInput } from './review-input.ts';

/**
 * The narrowest face, in pixels, whose embedding we trust. Face embedders work on an aligned crop of about
 * 150 px (dlib's ResNet: 150 × 150), and their published accuracy is measured on faces of roughly 100 px
 * and more (LFW). Below 80 px the crop is upscaled about twice and the fine detail that tells two people
 * apart is gone, so a distance there says little either way.
 */
export const MIN_FACE_WIDTH_PX = 80;

/**
 * The most a probe's head may be turned (yaw) or tilted (pitch), in degrees, to count as frontal: the
 * liveness judgement's own limit for a face whose features it can measure. Face embedders are trained and
 * benchmarked on near-frontal faces (LFW), and a turned head embeds toward other people: the dlib ResNet
 * puts frames of one person turned 24–40° at 0.55–0.61 from their frontal photo, against its 0.6
 * threshold (docs/models.md).
 */
export const FRONTAL_PROBE_MAX_DEGREES = LIVENESS_THRESHOLDS.frontal_max_degrees;

type ProbeProblem = 'no_face' | 'several_faces' | 'too_small' | 'no_embedding';

/** Which cause explains probes that could not be compared, most specific first. */
const PROBE_CAUSES: readonly [ProbeProblem, InconclusiveCause][] = [
  ['several_faces', 'several_faces'],
  ['too_small', 'face_too_small'],
  ['no_face', 'no_face_on_selfie'],
  ['no_embedding', 'evidence_missing'],
];

/**
 * Compares the reference face (the document portrait, or on re-verification the enrolled selfie) with
 * the probes (the liveness frames or a selfie), in the embedder's space, and decides in three zones
 * (`domain/face-match-zones.ts`):
 * - `match`: `passed`, the session may be approved without a person;
 * - `uncertain`: `failed` with `face_match_uncertain`, a review code: the session goes to a person, never
 *   approved or rejected unseen;
 * - `mismatch`: `failed` with `face_mismatch`, which rejects.
 *
 * The score is the weighted mean of every compared probe's distance (`fuseProbeScores`: larger and more
 * frontal faces count more), not the closest probe's: with the closest deciding, a look-alike needs one
 * lucky frame of three. Each distance is first adjusted for how close strangers come to the two faces
 * when the space has a neighbourhood model (`domain/face-neighbourhood.ts`; `details.distance` keeps the
 * plain one). Only frontal probes (head within {@link FRONTAL_PROBE_MAX_DEGREES} of facing the
 * camera) are compared when there is one; a challenge of turns alone falls back to every probe,
 * `details.pose` says `turned`, and such a score is never better than `uncertain`: the zones were
 * calibrated on frontal faces. Likewise when the reference itself is turned (`reference_pose: 'turned'`).
 * The turned frames have done their job in the liveness judgement, which also establishes that every
 * frame shows one person.
 *
 * A document may show two faces (many cards print a small ghost image beside the portrait): the largest
 * is the portrait; three or more are `several_faces`. `inconclusive` when nothing can be compared:
 * `model_unavailable` when no engine ran, `no_face_on_document`, `several_faces` (an enrolled reference or
 * every probe), `face_too_small` (under {@link MIN_FACE_WIDTH_PX}), `no_face_on_selfie`,
 * `evidence_missing` (no probes, or no embeddings).
 *
 * @example
 * checkFaceMatch(input).details
 * // { score: 0.41, zone: 'match', zone_reason: 'The face matches: …', match_threshold: 0.55,
 * //   mismatch_threshold: 0.62, frames_used: ['0', '2'], frame_scores: ['0.4', '0.42'], … }
 */
export function checkFaceMatch({ evidence }: ReviewInput): Check {
  const match = evidence.face_match;
  if (match === undefined) {
    return inconclusive(
      'face_match',
      evidence.liveness === undefined ? 'evidence_missing' : 'model_unavailable',
    );
  }
  const method = methodOf(match);
  const referenceProblem = referenceCause(match.reference);
  if (referenceProblem !== null)
    return inconclusive('face_match', referenceProblem, { ...method, on: 'reference' });
  const reference = match.reference.embedding as readonly number[];
  if (match.probes.length === 0)
    return inconclusive('face_match', 'evidence_missing', { ...method, probes: 0 });

  const problems: ProbeProblem[] = [];
  const usable = match.probes
    .map((probe, index) => ({ probe, index }))
    .filter(({ probe }) => {
      const problem = probeProblem(probe);
      if (problem !== null) problems.push(problem);
      return problem === null;
    });
  const frontal = usable.filter(({ probe }) => isFrontal(probe));
  const chosen = frontal.length > 0 ? frontal : usable;
  const scored: (ScoredProbe & { distance: number; index: number; low: LowQuality[] })[] = [];
  for (const { probe, index } of chosen) {
    const embedding = probe.embedding as readonly number[];
    const comparison = compareEmbeddings(embedding, reference, match.space);
    const score = comparison && adjustedDistance(comparison.score, embedding, reference, match.space);
    if (comparison === null || score === null) {
      // not comparable: another length than the reference's, or than the space's neighbourhood model
      problems.push('no_embedding');
      continue;
    }
    scored.push({
      score,
      distance: comparison.score,
      face_width: probe.face_width,
      ...(probe.pose ? { pose: probe.pose } : {}),
      index,
      low: lowQuality(probe.quality, match.space.qualityFloors),
    });
  }

  const turned = frontal.length === 0 && scored.length > 0;
  const counts = {
    probes: match.probes.length,
    probes_frontal: frontal.length,
    probes_compared: scored.length,
    ...(turned ? { pose: 'turned' } : {}),
  };
  const fused = fuseProbeScores(scored);
  if (fused === null) {
    const cause = PROBE_CAUSES.find(([problem]) => problems.includes(problem))?.[1] ?? 'evidence_missing';
    return inconclusive('face_match', cause, { ...method, ...counts, on: 'probes' });
  }
  const thresholds = zoneThresholds(match.space);
  const scoreZone = faceMatchZone(fused, match.space);
  // A score from turned faces (every frame, or the reference itself) is outside what the zones were
  // calibrated on, and a profile's chip embeds toward faces in general: a person looks.
  const referenceTurned = !isFrontal(match.reference);
  const offPose = turned || referenceTurned;
  const poseZone: FaceMatchZone = offPose && scoreZone === 'match' ? 'uncertain' : scoreZone;
  // Poor evidence never rejects: a distance beyond the mismatch limit from a blurred face or covered
  // eyes says as much about the photo as about the person. The reference below a floor holds the whole
  // decision; probes below one are left out of the rejection, which the good probes alone must support.
  const referenceLow = lowQuality(match.reference.quality, match.space.qualityFloors);
  const goodProbes = scored.filter((probe) => probe.low.length === 0);
  const lowProbes = scored.filter((probe) => probe.low.length > 0);
  const goodFused = fuseProbeScores(goodProbes);
  const held =
    poseZone === 'mismatch' &&
    (referenceLow.length > 0 ||
      (lowProbes.length > 0 && (goodFused === null || faceMatchZone(goodFused, match.space) !== 'mismatch')));
  const zone: FaceMatchZone = held ? 'uncertain' : poseZone;
  const score = round4(fused);
  const quality = qualityFacts(match.reference.quality, referenceLow, scored, match.space.qualityFloors);
  const plain = match.space.neighbourhood ? plainDistance(scored) : null;
  const reason = held
    ? heldReason(score, thresholds, match.space, scored.length, referenceLow, lowProbes)
    : zoneReason(zone, score, thresholds, match.space, scored.length, {
        frames: turned,
        reference: referenceTurned,
      });
  const details: CheckDetails = {
    score,
    zone,
    zone_reason:
      plain === null
        ? reason
        : `${reason} (The distance is adjusted for how close strangers come to these two faces; unadjusted it is ${plain}.)`,
    ...(referenceTurned ? { reference_pose: 'turned' } : {}),
    ...quality,
    ...(match.space.qualityFloors
      ? {
          min_sharpness: match.space.qualityFloors.sharpness,
          min_eye_visibility: match.space.qualityFloors.eyes,
        }
      : {}),
    ...(held ? { quality_hold: true } : {}),
    ...(plain === null ? {} : { distance: plain, score_adjusted: 'neighbourhood' }),
    match_threshold: thresholds.match,
    mismatch_threshold: thresholds.mismatch,
    threshold: match.space.threshold,
    ...method,
    ...counts,
    frames_used: scored.map((probe) => String(probe.index)),
    frame_scores: scored.map((probe) => String(round4(probe.score))),
    probes_matched: scored.filter((probe) => faceMatchZone(probe.score, match.space) === 'match').length,
  };
  if (zone === 'match') return passed('face_match', details);
  return failed('face_match', [zone === 'uncertain' ? 'face_match_uncertain' : 'face_mismatch'], details);
}

/**
 * With a neighbourhood model the score is the adjusted distance (`domain/face-neighbourhood.ts`): the
 * plain distance it came from, fused over the same frames with the same weights, for the reviewer.
 */
function plainDistance(scored: readonly (ScoredProbe & { distance: number })[]): number | null {
  const distance = fuseProbeScores(scored.map((probe) => ({ ...probe, score: probe.distance })));
  return distance === null ? null : round4(distance);
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/**
 * One sentence a reviewer understands: what the score is, against which boundary, over how many frames.
 *
 * @example
 * zoneReason('uncertain', 0.53, { match: 0.5, mismatch: 0.6 }, space, 3, { frames: false, reference: false })
 * // 'Unsure: the face is 0.53 from the reference over 3 frames, between the match limit 0.5 and the mismatch limit 0.6; a person should compare them.'
 */
function zoneReason(
  zone: FaceMatchZone,
  score: number,
  thresholds: FaceMatchThresholds,
  space: FaceMatchEvidence['space'],
  frames: number,
  turned: { frames: boolean; reference: boolean },
): string {
  const measure = space.metric === 'euclidean' ? `${score} from` : `${score} similar to`;
  const over = `over ${frames} ${frames === 1 ? 'frame' : 'frames'}`;
  if (zone === 'match')
    return `The face matches: it is ${measure} the reference ${over}, within the match limit ${thresholds.match}.`;
  if (zone === 'mismatch')
    return `Different person: the face is ${measure} the reference ${over}, beyond the mismatch limit ${thresholds.mismatch}.`;
  if ((turned.frames || turned.reference) && faceMatchZone(score, space) === 'match') {
    const what = turned.reference
      ? 'the reference photo shows the head turned'
      : 'every frame shows the head turned';
    return `Unsure: the face is ${measure} the reference ${over}, but ${what}, which the limits were not set for; a person should compare them.`;
  }
  return `Unsure: the face is ${measure} the reference ${over}, between the match limit ${thresholds.match} and the mismatch limit ${thresholds.mismatch}; a person should compare them.`;
}

function methodOf(match: FaceMatchEvidence): CheckDetails {
  return {
    metric: match.space.metric,
    space: match.space.name,
    reference: match.reference.source,
    engine: match.engine.kind,
    models: match.engine.models,
    min_face_width_px: MIN_FACE_WIDTH_PX,
  };
}

function referenceCause(reference: FaceMatchEvidence['reference']): InconclusiveCause | null {
  if (reference.faces === 0)
    return reference.source === 'document_portrait' ? 'no_face_on_document' : 'evidence_missing';
  // A selfie with two people cannot say which is enrolled; a document's second face is its ghost image,
  // but a third means more than one document (or a person beside it) in the photo.
  if (reference.faces > (reference.source === 'document_portrait' ? 2 : 1)) return 'several_faces';
  if (reference.face_width < MIN_FACE_WIDTH_PX) return 'face_too_small';
  if (reference.embedding === undefined) return 'evidence_missing';
  return null;
}

/** Within the frontal limit on both axes; a probe whose pose was not measured counts as frontal. */
function isFrontal(probe: FaceSample): boolean {
  if (probe.pose === undefined) return true;
  return (
    Math.abs(probe.pose.yaw) <= FRONTAL_PROBE_MAX_DEGREES &&
    Math.abs(probe.pose.pitch) <= FRONTAL_PROBE_MAX_DEGREES
  );
}

function probeProblem(probe: FaceSample): ProbeProblem | null {
  if (probe.faces === 0) return 'no_face';
  if (probe.faces > 1) return 'several_faces';
  if (probe.face_width < MIN_FACE_WIDTH_PX) return 'too_small';
  if (probe.embedding === undefined) return 'no_embedding';
  return null;
}

/** Why a face is poor evidence: its crop is blurred, or its eyes are covered or in deep shadow. */
type LowQuality = 'blurred' | 'eyes_covered';

/**
 * Which of `floors` the face falls below; none when either is unknown (an engine or a stored reading
 * without quality measures, or a space without floors: the distance decides as before).
 *
 * @example
 * lowQuality({ sharpness: 0.01, eyes: 0.8 }, { sharpness: 0.03, eyes: 0.45 }) // ['blurred']
 */
export function lowQuality(quality: FaceQuality | undefined, floors: FaceQuality | undefined): LowQuality[] {
  if (quality === undefined || floors === undefined) return [];
  const low: LowQuality[] = [];
  if (quality.sharpness < floors.sharpness) low.push('blurred');
  if (quality.eyes < floors.eyes) low.push('eyes_covered');
  return low;
}

/**
 * The quality facts a reviewer sees: the reference's measures, whether it fell below a floor, and which
 * compared frames did (`index:cause`), when the space has floors.
 */
function qualityFacts(
  reference: FaceQuality | undefined,
  referenceLow: readonly LowQuality[],
  scored: readonly { index: number; low: readonly LowQuality[] }[],
  floors: FaceQuality | undefined,
): CheckDetails {
  const round3 = (value: number) => Math.round(value * 1000) / 1000;
  return {
    ...(reference
      ? {
          reference_sharpness: round3(reference.sharpness),
          reference_eye_visibility: round3(reference.eyes),
        }
      : {}),
    ...(referenceLow.length > 0 ? { reference_quality: referenceLow } : {}),
    ...(floors
      ? {
          frames_low_quality: scored
            .filter((probe) => probe.low.length > 0)
            .map((probe) => `${probe.index}:${probe.low.join('+')}`),
        }
      : {}),
  };
}

const LOW_QUALITY_WORDS: Record<LowQuality, string> = {
  blurred: 'blurred or too low in resolution',
  eyes_covered: 'eyes covered (dark glasses) or in deep shadow',
};

/**
 * The reason of a far pair held as uncertain because of poor evidence.
 *
 * @example
 * heldReason(0.66, { match: 0.55, mismatch: 0.62 }, space, 1, ['eyes_covered'], [])
 * // 'Unsure: the face is 0.66 from the reference over 1 frame, beyond the mismatch limit 0.62, but the reference photo is poor evidence (eyes covered (dark glasses) or in deep shadow), so the distance cannot rule the person out; a person should compare them.'
 */
function heldReason(
  score: number,
  thresholds: FaceMatchThresholds,
  space: FaceMatchEvidence['space'],
  frames: number,
  referenceLow: readonly LowQuality[],
  lowProbes: readonly { index: number; low: readonly LowQuality[] }[],
): string {
  const measure = space.metric === 'euclidean' ? `${score} from` : `${score} similar to`;
  const over = `over ${frames} ${frames === 1 ? 'frame' : 'frames'}`;
  const words = (low: readonly LowQuality[]) => low.map((cause) => LOW_QUALITY_WORDS[cause]).join('; ');
  const what =
    referenceLow.length > 0
      ? `the reference photo is poor evidence (${words(referenceLow)})`
      : lowProbes.length === 1
        ? `frame ${lowProbes[0]?.index} is poor evidence (${words(lowProbes[0]?.low ?? [])})`
        : `frames ${lowProbes.map((probe) => probe.index).join(', ')} are poor evidence (${words([...new Set(lowProbes.flatMap((probe) => probe.low))])})`;
  return `Unsure: the face is ${measure} the reference ${over}, beyond the mismatch limit ${thresholds.mismatch}, but ${what}, so the distance cannot rule the person out; a person should compare them.`;
}
