import { compareEmbeddings, isCloser } from '../face-embedding.ts';
import { LIVENESS_THRESHOLDS } from '../liveness-judgement.ts';
import {
  type Check,
  type CheckDetails,
  failed,
  type InconclusiveCause,
  inconclusive,
  passed,
} from './checks.ts';
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
 * the probes (the liveness frames or a selfie), in the embedder's space with its published threshold.
 * Only frontal probes (head within {@link FRONTAL_PROBE_MAX_DEGREES} of facing the camera) are compared
 * when there is one; a challenge of turns alone falls back to every probe, and `details.pose` says
 * `turned`. The turned frames have done their job in the liveness judgement, which also establishes that
 * every frame shows one person. `passed` when the best-matching compared probe is the same person;
 * `failed` with `face_mismatch` when even the best one is beyond the threshold.
 *
 * A document may show two faces (many cards print a small ghost image beside the portrait): the largest
 * is the portrait; three or more are `several_faces`. `inconclusive` when nothing can be compared: `model_unavailable` when no engine ran,
 * `no_face_on_document`, `several_faces` (an enrolled reference or every probe), `face_too_small` (under
 * {@link MIN_FACE_WIDTH_PX}), `no_face_on_selfie`, `evidence_missing` (no probes, or no embeddings).
 *
 * @example
 * checkFaceMatch(input).details
 * // { score: 0.41, threshold: 0.6, metric: 'euclidean', space: 'dlib-resnet-v1', probes_compared: 3,
 * //   probes_matched: 3, reference: 'document_portrait', engine: 'models', models: [...] }
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
  const usable = match.probes.filter((probe) => {
    const problem = probeProblem(probe);
    if (problem !== null) problems.push(problem);
    return problem === null;
  });
  const frontal = usable.filter(isFrontal);
  const chosen = frontal.length > 0 ? frontal : usable;
  let best: number | null = null;
  let compared = 0;
  let matched = 0;
  for (const probe of chosen) {
    const comparison = compareEmbeddings(probe.embedding as readonly number[], reference, match.space);
    if (comparison === null) {
      problems.push('no_embedding'); // not comparable: another length than the reference's
      continue;
    }
    compared++;
    if (comparison.samePerson) matched++;
    if (best === null || isCloser(comparison.score, best, match.space)) best = comparison.score;
  }

  const counts = {
    probes: match.probes.length,
    probes_frontal: frontal.length,
    probes_compared: compared,
    ...(frontal.length === 0 && compared > 0 ? { pose: 'turned' } : {}),
  };
  if (best === null) {
    const cause = PROBE_CAUSES.find(([problem]) => problems.includes(problem))?.[1] ?? 'evidence_missing';
    return inconclusive('face_match', cause, { ...method, ...counts, on: 'probes' });
  }
  const details: CheckDetails = {
    score: Math.round(best * 10_000) / 10_000,
    threshold: match.space.threshold,
    ...method,
    ...counts,
    probes_matched: matched,
  };
  return matched > 0 ? passed('face_match', details) : failed('face_match', ['face_mismatch'], details);
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
