import { ACTION_CONTRAST, actionSignal, standsOut } from '../../src/liveness/action-contrast.ts';
import type { FaceAnalysis, FaceObservation } from '../features/vision/vision-engine.ts';
import { compareEmbeddings } from './face-embedding.ts';
import type { LivenessAction } from './liveness-challenge.ts';

export type ActionOutcome = 'performed' | 'not_performed' | 'no_face' | 'several_faces' | 'face_changed';

export interface ActionVerdict {
  action: LivenessAction;
  frame: number;
  outcome: ActionOutcome;
  /** What was measured on that frame: yaw, pitch, eyes_open, mouth_open, smile (numbers, no personal data). */
  measured: Readonly<Record<string, number>>;
}

export interface LivenessJudgement {
  accepted: boolean;
  /** The first failing outcome, null when accepted. */
  failure: Exclude<ActionOutcome, 'performed'> | null;
  actions: readonly ActionVerdict[];
  /** Thresholds used, for `details` (e.g. { turn_yaw_degrees: 15, ... }). */
  thresholds: Readonly<Record<string, number>>;
}

/**
 * The thresholds of the judgement, chosen from what the seam's units mean (degrees of head pose, 0–1 for
 * openness and smile) and never tuned on a test set:
 *
 * - `turn_yaw_degrees` 15: someone facing a phone holds their head within a few degrees of straight (the
 *   mesh's pose estimate jitters by 2–3° between frames), while a prompted turn is 20–45°; 15° sits
 *   between, and the face is still far from the ~60° where the mesh loses it.
 * - `look_up_pitch_degrees` 10: people tilt their head less than they turn it, and a phone held low
 *   already makes the face look a little down; 10° is a clear, still comfortable tilt.
 * - `blink_eyes_open_max` 0.35: an open eye reads 0.6–1, a closed one near 0; both eyes must be below a
 *   mark well under the open range, so a squint with one eye does not count.
 * - `smile_min` 0.5: the middle of the 0–1 scale; a neutral face scores near 0.
 * - `frontal_max_degrees` 20: eye openness and smile are measured on a face turned at most this far (yaw
 *   and pitch); beyond it one eye and half the mouth are foreshortened and the estimates are unreliable.
 * - `*_contrast`: how much the action's measure must differ from the most contrasting other frame of the
 *   challenge, several times the frame-to-frame noise (see below): src/liveness/action-contrast.ts, the one
 *   rule the widget also checks its frames against before it sends them. A smile has none: people commonly
 *   smile at a camera through the whole capture, so a held smile is no sign of a replay; the repeated-frame
 *   gate and the other actions of the challenge, drawn at random, catch a replayed still.
 *
 * An action would be judged more robustly against the person's own neutral pose (a head that rests at
 * 10° to the left needs less to "turn left"), but the challenge has no neutral frame today: every frame
 * answers an action. The other frames of the challenge stand in for it: each action must also stand out
 * from at least one other frame by its contrast. That catches a replayed still, whose frames are all the
 * same, and a resting pose that happens to pass an absolute threshold. With a single frame there is
 * nothing to compare, and the absolute thresholds alone decide.
 */
export const LIVENESS_THRESHOLDS = {
  turn_yaw_degrees: 15,
  look_up_pitch_degrees: 10,
  blink_eyes_open_max: 0.35,
  smile_min: 0.5,
  frontal_max_degrees: 20,
  turn_contrast_degrees: ACTION_CONTRAST.turn_left,
  look_up_contrast_degrees: ACTION_CONTRAST.look_up,
  blink_contrast: ACTION_CONTRAST.blink,
  smile_contrast: ACTION_CONTRAST.smile,
} as const;

const T = LIVENESS_THRESHOLDS;

/** The absolute bar each action's signal (action-contrast.ts's `actionSignal`) must reach. */
interface ActionRule {
  /** The bar, in the signal's sign: larger is more performed. */
  threshold: number;
  /** The action is only measurable on a roughly frontal face. */
  frontal: boolean;
}

const moreOpenEye = (face: FaceObservation) => Math.max(face.leftEyeOpen, face.rightEyeOpen);

const RULES: Readonly<Record<LivenessAction, ActionRule>> = {
  turn_left: { threshold: T.turn_yaw_degrees, frontal: false },
  turn_right: { threshold: T.turn_yaw_degrees, frontal: false },
  look_up: { threshold: T.look_up_pitch_degrees, frontal: false },
  // Both eyes closed: the more open eye is at most the bar.
  blink: { threshold: -T.blink_eyes_open_max, frontal: true },
  smile: { threshold: T.smile_min, frontal: true },
};

/**
 * The action's signal on one face, signed as the widget signs it (action-contrast.ts): the engine always
 * measures eyes and smile, so it is a number.
 */
function signalOf(action: LivenessAction, face: FaceObservation): number {
  const measures = { yaw: face.yaw, pitch: face.pitch, eyesOpen: moreOpenEye(face), smile: face.smile };
  return actionSignal(action, measures) ?? Number.NaN;
}

/**
 * Judges an answered liveness challenge from what the face models saw on each frame. `frames[i]`
 * answers `actions[i]`; a frame that is missing counts as showing no face, extra frames are ignored.
 *
 * Per frame, in this order: exactly one face (else `no_face` / `several_faces`); the same person as the
 * rest of the challenge (else `face_changed`); then the prompted action (else `not_performed`).
 *
 * "The same person" is single-linkage over the frames, in the analysis' embedding space with its published
 * threshold: two frames are linked when they compare as the same person, and the person of the challenge
 * is the largest linked group (on a tie, the one holding the earliest frame). Embedders such as dlib's are
 * trained mostly on frontal faces, so a head turned to one side and eyes closed on another frame can lie
 * just beyond the threshold from each other while both lie within it from a third frame: a chain of
 * frames of one person links up, while a second person, far beyond the threshold from every frame of the
 * first, stays outside the group. A face without an embedding cannot prove it is the same person, and
 * swapping people between prompts is exactly what this guards against, so it is `face_changed` too: the
 * engine must analyse frames with embeddings. An empty challenge proves nothing and is not accepted
 * (`not_performed`).
 *
 * @example
 * const judgement = judgeLiveness(['turn_left', 'smile', 'blink'], frames);
 * judgement.accepted // true when every frame shows the same single face performing its action
 * judgement.actions[0] // { action: 'turn_left', frame: 0, outcome: 'performed', measured: { yaw: -24, … } }
 */
export function judgeLiveness(
  actions: readonly LivenessAction[],
  frames: readonly FaceAnalysis[],
): LivenessJudgement {
  const singleFaces = actions.map((_, i) => singleFaceOf(frames[i]));
  const identity = identityOfFrames(actions.map((_, i) => ({ face: singleFaces[i], frame: frames[i] })));
  const verdicts: ActionVerdict[] = actions.map((action, i) => {
    const frame = frames[i];
    const faces = frame?.faces.length ?? 0;
    const face = singleFaces[i];
    if (face === undefined) {
      return { action, frame: i, outcome: faces === 0 ? 'no_face' : 'several_faces', measured: { faces } };
    }
    const measured: Record<string, number> = { faces, ...measurementsOf(face) };
    const link = identity.links[i];
    if (link !== undefined) measured[link.metricName] = link.score;
    if (!identity.person.has(i)) return { action, frame: i, outcome: 'face_changed', measured };
    return { action, frame: i, outcome: 'not_performed', measured };
  });

  // Contrast with the other frames only counts frames already shown to be the same single face.
  const comparable = verdicts.map((verdict) =>
    verdict.outcome === 'not_performed' ? singleFaces[verdict.frame] : undefined,
  );
  for (const verdict of verdicts) {
    const face = comparable[verdict.frame];
    if (face === undefined) continue;
    const others = comparable.filter(
      (other, j): other is FaceObservation => other !== undefined && j !== verdict.frame,
    );
    if (isPerformed(verdict.action, face, others)) verdict.outcome = 'performed';
  }

  const failure = firstFailureOf(verdicts) ?? (actions.length === 0 ? 'not_performed' : null);
  return {
    accepted: failure === null,
    failure,
    actions: verdicts,
    thresholds: { ...LIVENESS_THRESHOLDS },
  };
}

function firstFailureOf(verdicts: readonly ActionVerdict[]): LivenessJudgement['failure'] {
  for (const { outcome } of verdicts) if (outcome !== 'performed') return outcome;
  return null;
}

function singleFaceOf(frame: FaceAnalysis | undefined): FaceObservation | undefined {
  return frame?.faces.length === 1 ? frame.faces[0] : undefined;
}

interface FrameIdentity {
  /** The frames of the challenge's person. */
  person: ReadonlySet<number>;
  /** Per frame, its closest comparison with another frame of the person (for `measured`). */
  links: readonly ({ score: number; metricName: string } | undefined)[];
}

/**
 * Groups the frames that show one person by single linkage (see judgeLiveness) and returns the largest
 * group. Frames without a single face, without an embedding or in another embedding space join no group.
 */
function identityOfFrames(
  candidates: readonly { face: FaceObservation | undefined; frame: FaceAnalysis | undefined }[],
): FrameIdentity {
  const usable = candidates.flatMap(({ face, frame }, index) =>
    face?.embedding !== undefined && frame !== undefined
      ? [{ index, embedding: face.embedding, space: frame.embeddingSpace }]
      : [],
  );
  const space = usable[0]?.space;
  const members = usable.filter(
    (entry) => space !== undefined && entry.space.name === space.name && entry.space.metric === space.metric,
  );
  const group = members.map((_, i) => i);
  const root = (i: number): number => {
    while (group[i] !== i) i = group[i] as number;
    return i;
  };
  const comparisons: { a: number; b: number; score: number; samePerson: boolean }[] = [];
  for (let a = 0; a < members.length; a++) {
    for (let b = a + 1; b < members.length; b++) {
      const comparison = compareEmbeddings(members[a]!.embedding, members[b]!.embedding, space!);
      if (comparison === null) continue;
      comparisons.push({ a, b, ...comparison });
      if (comparison.samePerson) group[root(b)] = root(a);
    }
  }
  const sizes = new Map<number, number>();
  for (let i = 0; i < members.length; i++) sizes.set(root(i), (sizes.get(root(i)) ?? 0) + 1);
  // Largest group; members are in frame order, so on a tie the group found first holds the earliest frame.
  let best: number | undefined;
  for (let i = 0; i < members.length; i++) {
    const size = sizes.get(root(i)) ?? 0;
    if (best === undefined || size > (sizes.get(best) ?? 0)) best = root(i);
  }
  const person = new Set(members.flatMap((member, i) => (root(i) === best ? [member.index] : [])));
  const metricName = space?.metric === 'cosine' ? 'identity_similarity' : 'identity_distance';
  const better = (x: number, y: number) => (space?.metric === 'cosine' ? x > y : x < y);
  const links: ({ score: number; metricName: string } | undefined)[] = candidates.map(() => undefined);
  for (const { a, b, score } of comparisons) {
    for (const [self, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const frame = members[self]!.index;
      if (!person.has(members[other]!.index)) continue;
      const current = links[frame];
      if (current === undefined || better(score, current.score)) links[frame] = { score, metricName };
    }
  }
  return { person, links };
}

function measurementsOf(face: FaceObservation): Record<string, number> {
  return {
    yaw: face.yaw,
    pitch: face.pitch,
    roll: face.roll,
    eyes_open: moreOpenEye(face),
    mouth_open: face.mouthOpen,
    smile: face.smile,
  };
}

function isFrontal(face: FaceObservation): boolean {
  return Math.abs(face.yaw) <= T.frontal_max_degrees && Math.abs(face.pitch) <= T.frontal_max_degrees;
}

function isPerformed(
  action: LivenessAction,
  face: FaceObservation,
  others: readonly FaceObservation[],
): boolean {
  const rule = RULES[action];
  if (rule.frontal && !isFrontal(face)) return false;
  const signal = signalOf(action, face);
  if (!(signal >= rule.threshold)) return false;
  // Against the other frames: the rule the widget checks its frames against too (action-contrast.ts).
  return standsOut(
    action,
    signal,
    others.map((other) => signalOf(action, other)),
    'server',
  );
}
