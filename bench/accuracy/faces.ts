// `node bench/accuracy/faces.ts`: how well a vision engine tells people apart and judges liveness, on the
// committed selfie fixtures (test/fixtures/vision/selfies/) and document fixtures
// (test/fixtures/vision/documents/).
//
// - Face match: false accept and false reject rates at the embedding space's published threshold (the
//   model's own number, never tuned here), with the counts and the distance distributions, over pairs
//   of the same person (across re-rendered poses, and against their document portraits) and of different
//   people (the other real person, the drawn face).
// - Liveness: every 3-action challenge the fixtures can answer, judged as the server does (the
//   repeated-frame gate, `judgeLiveness`, then the face-match check against the claimed person's document
//   portrait): the pass rate of genuine sequences and the catch rate per attack kind, with the layer that
//   caught each attempt.
//
// It reports; it does not judge. The set is tiny and synthetic (two real people, transforms of one photo
// each), so its rates describe these fixtures, not a population: see bench/accuracy/lfw-pairs.ts for a
// real face-verification benchmark.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareEmbeddings } from '../../server/domain/face-embedding.ts';
import { LIVENESS_ACTIONS, type LivenessAction } from '../../server/domain/liveness-challenge.ts';
import { judgeLiveness, type LivenessJudgement } from '../../server/domain/liveness-judgement.ts';
import {
  checkFaceMatch,
  FRONTAL_PROBE_MAX_DEGREES,
  MIN_FACE_WIDTH_PX,
} from '../../server/domain/review/face-match-check.ts';
import type { FaceSample, ReviewInput } from '../../server/domain/review/review-input.ts';
import type { ImageAnalyzer } from '../../server/features/evidence/image-analyzer.ts';
import { evaluateLivenessFrames } from '../../server/features/evidence/liveness-frames.ts';
import { sharpImageAnalyzer } from '../../server/runtime/node/sharp-image-analyzer.ts';
import { createNodeVisionEngine } from '../../server/runtime/node/vision/node-vision-engine.ts';
import type {
  EmbeddingSpace,
  EngineInfo,
  FaceAnalysis,
  FaceObservation,
  VisionEngine,
} from '../../server/features/vision/vision-engine.ts';
import {
  DOCUMENT_FIXTURES_DIR,
  type DocumentManifest,
  loadDocumentManifest,
} from '../../test/fixtures/vision/documents/manifest.ts';
import {
  type AttackKind,
  loadSelfieManifest,
  SELFIE_FIXTURES_DIR,
  type SelfieManifest,
  type SelfieSequence,
} from '../../test/fixtures/vision/selfies/manifest.ts';

// ---------------------------------------------------------------------------------------------------
// Face match

/** An image one face is taken from. */
export interface FaceImage {
  /** Absolute path. */
  path: string;
  /**
   * How the engine reads it: a selfie or liveness frame through `analyzeFaces`, a document photo through
   * `readDocument` (its portrait), as the server does.
   */
  source: { kind: 'selfie' } | { kind: 'document'; documentType: string; side: 'front' | 'back' };
  /** Who is pictured; pairs are labelled same/different from it. */
  person: string;
  /** Short name for reports. */
  label: string;
}

export interface FacePair {
  a: FaceImage;
  b: FaceImage;
  /** Ground truth: the same person in both. */
  same: boolean;
  /** What kind of pair, for the per-kind breakdown (e.g. `selfie–selfie`, `document–selfie`, `cartoon`). */
  kind: string;
}

/** Five-number summary (and mean) of the scores of a group of pairs. */
export interface ScoreSummary {
  count: number;
  min: number;
  p25: number;
  median: number;
  p75: number;
  max: number;
  mean: number;
}

export interface PairGroupResult {
  pairs: number;
  /** Pairs where both sides gave one usable face with an embedding. */
  compared: number;
  /** Same-person pairs judged different (false rejects), or different-person pairs judged same (false accepts). */
  errors: number;
  /** errors ÷ compared; null when nothing was compared. */
  rate: number | null;
  scores: ScoreSummary | null;
}

export interface FaceMatchReport {
  /** The embedder's space: metric and its published threshold, used as is. */
  space: EmbeddingSpace | null;
  /**
   * Same-person pairs the face match compares (no frame in them turned beyond the frontal limit): `rate`
   * is the false reject rate (FRR).
   */
  genuine: PairGroupResult;
  /** Different-person pairs the face match compares: `rate` is the false accept rate (FAR). */
  impostor: PairGroupResult;
  /**
   * Pairs with a turned or tilted frame, which the face match compares only when a challenge has no
   * frontal frame: reported apart, as what a challenge of turns alone would risk.
   */
  turned: { genuine: PairGroupResult; impostor: PairGroupResult };
  byKind: (PairGroupResult & { kind: string; same: boolean })[];
  /**
   * Images that gave no usable face (none, several on a selfie, narrower than the face-match check's
   * minimum, or no embedding): failures to acquire, outside FAR and FRR, listed by label.
   */
  unusable: { label: string; reason: string }[];
  /** Every wrong decision, by image labels (a small set: each is worth a look). */
  mistakes: { a: string; b: string; same: boolean; score: number }[];
  engine: EngineInfo | null;
}

/** The face of one image as the face-match check sees it, or why there is none. */
export type Acquired =
  | {
      ok: true;
      sample: FaceSample & { embedding: readonly number[] };
      space: EmbeddingSpace;
      engine: EngineInfo;
    }
  | {
      ok: false;
      reason: string;
      sample: FaceSample;
      space: EmbeddingSpace | null;
      engine: EngineInfo | null;
    };

function sampleOf(analysis: FaceAnalysis): FaceSample {
  const face = analysis.faces[0];
  return {
    faces: analysis.faces.length,
    face_width: face ? Math.round(face.box.width) : 0,
    ...(face ? { pose: { yaw: face.yaw, pitch: face.pitch } } : {}),
    ...(face?.embedding ? { embedding: face.embedding } : {}),
    ...(face?.quality ? { quality: face.quality } : {}),
  };
}

/**
 * A selfie or liveness frame whose head is turned or tilted beyond the face match's frontal limit: the
 * face-match check compares such a frame only when a challenge has no frontal one (face-match-check.ts).
 */
function isTurnedFrame(image: FaceImage, sample: FaceSample): boolean {
  if (image.source.kind !== 'selfie' || sample.pose === undefined) return false;
  return (
    Math.abs(sample.pose.yaw) > FRONTAL_PROBE_MAX_DEGREES ||
    Math.abs(sample.pose.pitch) > FRONTAL_PROBE_MAX_DEGREES
  );
}

/** Mirrors the face-match check's rules for a usable face (`face-match-check.ts`). */
function problemOf(sample: FaceSample, source: FaceImage['source']): string | null {
  if (sample.faces === 0) return 'no_face';
  // A document may show the portrait and a small ghost image of it; a selfie must show one face.
  if (sample.faces > (source.kind === 'document' ? 2 : 1)) return 'several_faces';
  if (sample.face_width < MIN_FACE_WIDTH_PX) return 'too_small';
  if (sample.embedding === undefined) return 'no_embedding';
  return null;
}

/**
 * Reads each image once per engine, however many pairs use it (cached in memory). `stored` are earlier
 * readings by image key (what `readings()` gave back on an earlier run), taken as they are: keep them only
 * while the engine is unchanged.
 */
export function faceAcquirer(engine: VisionEngine, stored: ReadonlyMap<string, Acquired> = new Map()) {
  const cache = new Map<string, Promise<Acquired>>(
    [...stored].map(([key, acquired]) => [key, Promise.resolve(acquired)]),
  );
  const acquire = (image: FaceImage): Promise<Acquired> => {
    const key = `${image.source.kind}:${image.path}`;
    let acquired = cache.get(key);
    if (!acquired) {
      acquired = (async (): Promise<Acquired> => {
        const bytes = readFileSync(image.path);
        const analysis =
          image.source.kind === 'document'
            ? (
                await engine.readDocument(bytes, {
                  documentType: image.source.documentType,
                  side: image.source.side,
                })
              ).faces
            : await engine.analyzeFaces(bytes, { embeddings: true });
        const sample = sampleOf(analysis);
        const problem = problemOf(sample, image.source);
        if (problem !== null) {
          return {
            ok: false,
            reason: problem,
            sample,
            space: analysis.embeddingSpace,
            engine: analysis.engine,
          };
        }
        return {
          ok: true,
          sample: sample as FaceSample & { embedding: readonly number[] },
          space: analysis.embeddingSpace,
          engine: analysis.engine,
        };
      })();
      cache.set(key, acquired);
    }
    return acquired;
  };
  /** Every reading made or taken so far, by image key: what `stored` takes on the next run. */
  const readings = async (): Promise<Map<string, Acquired>> =>
    new Map(await Promise.all([...cache].map(async ([key, acquired]) => [key, await acquired] as const)));
  return Object.assign(acquire, { readings });
}

function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

/**
 * The five-number summary of `scores` (null when empty).
 *
 * @example
 * summarizeScores([0.2, 0.4, 0.9]) // { count: 3, min: 0.2, median: 0.4, max: 0.9, … }
 */
export function summarizeScores(scores: readonly number[]): ScoreSummary | null {
  if (scores.length === 0) return null;
  const sorted = [...scores].sort((a, b) => a - b);
  return {
    count: sorted.length,
    min: sorted[0]!,
    p25: quantile(sorted, 0.25),
    median: quantile(sorted, 0.5),
    p75: quantile(sorted, 0.75),
    max: sorted[sorted.length - 1]!,
    mean: sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
  };
}

interface GroupTally {
  pairs: number;
  errors: number;
  scores: number[];
}

function groupResult(tally: GroupTally): PairGroupResult {
  const compared = tally.scores.length;
  return {
    pairs: tally.pairs,
    compared,
    errors: tally.errors,
    rate: compared === 0 ? null : tally.errors / compared,
    scores: summarizeScores(tally.scores),
  };
}

/**
 * Embeds both images of every pair and compares them in the engine's embedding space with the space's
 * published threshold (`compareEmbeddings`, the function the face-match check uses). A same-person pair
 * judged different is a false reject, a different-person pair judged same a false accept. Images are
 * read once however many pairs use them.
 *
 * @example
 * const report = await measureFaceMatch(engine, fixtureFacePairs(loadSelfieManifest(), loadDocumentManifest()));
 * report.impostor.rate // FAR
 */
export async function measureFaceMatch(
  engine: VisionEngine,
  pairs: readonly FacePair[],
  acquire: (image: FaceImage) => Promise<Acquired> = faceAcquirer(engine),
): Promise<FaceMatchReport> {
  const tallies = new Map<string, GroupTally & { kind: string; same: boolean }>();
  const genuine: GroupTally = { pairs: 0, errors: 0, scores: [] };
  const impostor: GroupTally = { pairs: 0, errors: 0, scores: [] };
  const turnedGenuine: GroupTally = { pairs: 0, errors: 0, scores: [] };
  const turnedImpostor: GroupTally = { pairs: 0, errors: 0, scores: [] };
  const unusable = new Map<string, string>();
  const mistakes: FaceMatchReport['mistakes'] = [];
  let space: EmbeddingSpace | null = null;
  let engineInfo: EngineInfo | null = null;

  for (const pair of pairs) {
    const [a, b] = await Promise.all([acquire(pair.a), acquire(pair.b)]);
    const turned = isTurnedFrame(pair.a, a.sample) || isTurnedFrame(pair.b, b.sample);
    const group = turned ? (pair.same ? turnedGenuine : turnedImpostor) : pair.same ? genuine : impostor;
    const kind = turned ? `${pair.kind} (turned)` : pair.kind;
    const kindKey = `${kind}|${pair.same}`;
    const byKind = tallies.get(kindKey) ?? { kind, same: pair.same, pairs: 0, errors: 0, scores: [] };
    tallies.set(kindKey, byKind);
    group.pairs++;
    byKind.pairs++;
    for (const [side, image] of [
      [a, pair.a],
      [b, pair.b],
    ] as const) {
      space ??= side.space;
      engineInfo ??= side.engine;
      if (!side.ok) unusable.set(image.label, side.reason);
    }
    if (!a.ok || !b.ok) continue;
    if (a.space.name !== b.space.name)
      throw new Error(`embeddings of ${a.space.name} and ${b.space.name} do not compare`);
    const comparison = compareEmbeddings(a.sample.embedding, b.sample.embedding, a.space);
    if (comparison === null) {
      unusable.set(`${pair.a.label} × ${pair.b.label}`, 'not_comparable');
      continue;
    }
    const wrong = comparison.samePerson !== pair.same;
    if (wrong) mistakes.push({ a: pair.a.label, b: pair.b.label, same: pair.same, score: comparison.score });
    for (const tally of [group, byKind]) {
      tally.scores.push(comparison.score);
      if (wrong) tally.errors++;
    }
  }

  return {
    space,
    genuine: groupResult(genuine),
    impostor: groupResult(impostor),
    turned: { genuine: groupResult(turnedGenuine), impostor: groupResult(turnedImpostor) },
    byKind: [...tallies.values()].map((tally) => ({
      kind: tally.kind,
      same: tally.same,
      ...groupResult(tally),
    })),
    unusable: [...unusable].map(([label, reason]) => ({ label, reason })),
    mistakes,
    engine: engineInfo,
  };
}

/**
 * The document photos whose portrait is a reference: every clean front (no degradation) that pictures
 * someone, the cartoon passport included (its portrait is the drawn face).
 */
export function documentPortraits(
  documents: DocumentManifest,
  documentsDir: string = DOCUMENT_FIXTURES_DIR,
): FaceImage[] {
  return documents.images
    .filter((image) => image.person !== null && image.side === 'front' && image.degradation === null)
    .map((image) => ({
      path: join(documentsDir, image.file),
      source: { kind: 'document', documentType: image.document_type, side: 'front' },
      person: image.person as string,
      label: image.file,
    }));
}

/** Every distinct frame of the selfie fixtures that shows a person or the drawing. */
export function selfieFaces(selfies: SelfieManifest, selfiesDir: string = SELFIE_FIXTURES_DIR): FaceImage[] {
  const seen = new Map<string, FaceImage>();
  const add = (file: string, person: string) => {
    if (!seen.has(file))
      seen.set(file, { path: join(selfiesDir, file), source: { kind: 'selfie' }, person, label: file });
  };
  for (const sequence of selfies.sequences) {
    // Genuine sequences and the drawing; the other attacks reuse a real person's photo (or show nobody).
    if (sequence.person === null) continue;
    if (sequence.kind !== 'genuine' && sequence.kind !== 'cartoon') continue;
    for (const frame of sequence.frames) add(frame.file, sequence.person);
  }
  for (const frame of selfies.camera) add(frame.file, 'astronaut');
  return [...seen.values()];
}

/**
 * The pairs of the fixture set. Same person: two frames of one real person (across re-rendered poses and
 * captures), and a real person's frame or document against their own document portrait. Different
 * people: the two real people against each other (frames and portraits), and the drawn face against
 * either. Two drawings are not paired: a drawing is no one.
 *
 * @example
 * const pairs = fixtureFacePairs(loadSelfieManifest(), loadDocumentManifest());
 */
export function fixtureFacePairs(
  selfies: SelfieManifest,
  documents: DocumentManifest,
  dirs: { selfies?: string; documents?: string } = {},
): FacePair[] {
  const frames = selfieFaces(selfies, dirs.selfies);
  const portraits = documentPortraits(documents, dirs.documents);
  const images = [...frames, ...portraits];
  const pairs: FacePair[] = [];
  for (let i = 0; i < images.length; i++) {
    for (let j = i + 1; j < images.length; j++) {
      const a = images[i]!;
      const b = images[j]!;
      const cartoon = a.person === 'cartoon' || b.person === 'cartoon';
      if (a.person === 'cartoon' && b.person === 'cartoon') continue;
      const kind = cartoon ? 'cartoon' : [a.source.kind, b.source.kind].sort().join('–');
      pairs.push({ a, b, same: !cartoon && a.person === b.person, kind });
    }
  }
  return pairs;
}

// ---------------------------------------------------------------------------------------------------
// Liveness

/** Where an attempt was stopped, in the order the server applies its layers. */
export type StoppedBy =
  | 'frames_repeated'
  | Exclude<LivenessJudgement['failure'], null>
  | 'face_mismatch'
  | 'face_match_uncertain'
  | 'face_match_inconclusive';

export interface LivenessSequenceResult {
  id: string;
  kind: SelfieSequence['kind'];
  /** Challenges answered with this sequence's frames (every 3-action set its frames cover). */
  challenges: number;
  /** Passed every layer: the gate, the judgement and the face match with the claimed person's portrait. */
  accepted: number;
  /** The first layer that stopped each attempt that was not accepted. */
  stoppedBy: Partial<Record<StoppedBy, number>>;
  /** Per action: how often it was asked and how often the judgement found it performed. */
  actions: Partial<Record<LivenessAction, { asked: number; performed: number }>>;
}

export interface LivenessReport {
  /** Genuine sequences: attempts accepted ÷ attempts. */
  genuine: { challenges: number; accepted: number; passRate: number | null };
  /** Per attack kind: attempts stopped ÷ attempts. */
  attacks: Partial<Record<AttackKind, { challenges: number; caught: number; catchRate: number | null }>>;
  sequences: LivenessSequenceResult[];
  thresholds: Readonly<Record<string, number>> | null;
  engine: EngineInfo | null;
}

export interface MeasureLivenessOptions {
  selfiesDir?: string;
  /** Each claimed person's document photo (its portrait is the face-match reference). Default: their clean passport. */
  references?: Partial<Record<string, FaceImage>>;
  /** For the repeated-frame gate; default the server's sharp analyzer. */
  imageAnalyzer?: ImageAnalyzer;
}

/**
 * All `size`-action challenges (in the server's action order) that `available` can answer.
 *
 * @example
 * challengesOf(['turn_left', 'smile', 'blink']) // [['turn_left', 'smile', 'blink']]
 */
export function challengesOf(available: readonly LivenessAction[], size = 3): LivenessAction[][] {
  const actions = LIVENESS_ACTIONS.filter((action) => available.includes(action));
  const out: LivenessAction[][] = [];
  const pick = (start: number, chosen: LivenessAction[]) => {
    if (chosen.length === size) {
      out.push([...chosen]);
      return;
    }
    for (let i = start; i < actions.length; i++) pick(i + 1, [...chosen, actions[i]!]);
  };
  pick(0, []);
  return out;
}

function passportOf(
  documents: DocumentManifest,
  person: string,
  documentsDir: string,
): FaceImage | undefined {
  const portraits = documentPortraits(documents, documentsDir).filter((image) => image.person === person);
  return portraits.find((image) => image.label.startsWith('passport')) ?? portraits[0];
}

/**
 * Answers every 3-action challenge each sequence's frames cover, as an end-user would answer it with
 * those frames, and runs the server's layers in order: the repeated-frame gate (`evaluateLivenessFrames`),
 * the judgement (`judgeLiveness`, passed in so a new judgement can be measured on the same set), then the
 * face-match check (`checkFaceMatch`) of the frames against the claimed person's document portrait.
 *
 * @example
 * const report = await measureLiveness(engine, judgeLiveness, loadSelfieManifest());
 * report.genuine.passRate; report.attacks.printed_portrait?.catchRate;
 */
export async function measureLiveness(
  engine: VisionEngine,
  judge: typeof judgeLiveness,
  manifest: SelfieManifest,
  options: MeasureLivenessOptions = {},
): Promise<LivenessReport> {
  const selfiesDir = options.selfiesDir ?? SELFIE_FIXTURES_DIR;
  const analyzer = options.imageAnalyzer ?? sharpImageAnalyzer();
  const documents = options.references ? null : loadDocumentManifest();
  const acquire = faceAcquirer(engine);
  const analyses = new Map<string, Promise<FaceAnalysis>>();
  const pixels = new Map<string, ReturnType<ImageAnalyzer['analyze']>>();
  const analyse = (file: string) => {
    let analysis = analyses.get(file);
    if (!analysis) {
      analysis = engine.analyzeFaces(readFileSync(join(selfiesDir, file)), { embeddings: true });
      analyses.set(file, analysis);
    }
    return analysis;
  };
  const imageOf = (file: string) => {
    let analysis = pixels.get(file);
    if (!analysis) {
      analysis = analyzer.analyze(readFileSync(join(selfiesDir, file)));
      pixels.set(file, analysis);
    }
    return analysis;
  };

  const sequences: LivenessSequenceResult[] = [];
  let thresholds: LivenessReport['thresholds'] = null;
  let engineInfo: EngineInfo | null = null;
  for (const sequence of manifest.sequences) {
    const reference =
      options.references?.[sequence.claimed_person] ??
      (documents ? passportOf(documents, sequence.claimed_person, DOCUMENT_FIXTURES_DIR) : undefined);
    if (!reference) throw new Error(`no document portrait for ${sequence.claimed_person}`);
    const referenceFace = await acquire(reference);
    const byAction = new Map(sequence.frames.map((frame) => [frame.action, frame]));
    const available = LIVENESS_ACTIONS.filter((action) => byAction.has(action));
    const result: LivenessSequenceResult = {
      id: sequence.id,
      kind: sequence.kind,
      challenges: 0,
      accepted: 0,
      stoppedBy: {},
      actions: {},
    };
    for (const actions of challengesOf(available)) {
      result.challenges++;
      const files = actions.map((action) => byAction.get(action)!.file);
      const stop = (layer: StoppedBy) => {
        result.stoppedBy[layer] = (result.stoppedBy[layer] ?? 0) + 1;
      };
      const gate = evaluateLivenessFrames(
        { actions, expiresAt: new Date(8.64e15) },
        await Promise.all(files.map(imageOf)),
        new Date(0),
      );
      const frames = await Promise.all(files.map(analyse));
      engineInfo ??= frames[0]?.engine ?? null;
      const judgement = judge(actions, frames);
      thresholds ??= judgement.thresholds;
      for (const verdict of judgement.actions) {
        const tally = result.actions[verdict.action] ?? { asked: 0, performed: 0 };
        tally.asked++;
        if (verdict.outcome === 'performed') tally.performed++;
        result.actions[verdict.action] = tally;
      }
      if (gate.status === 'retry') {
        stop('frames_repeated');
        continue;
      }
      if (!judgement.accepted) {
        stop(judgement.failure ?? 'not_performed');
        continue;
      }
      const match = faceMatchOf(referenceFace, frames);
      if (match !== 'passed') {
        stop(
          match === 'mismatch'
            ? 'face_mismatch'
            : match === 'uncertain'
              ? 'face_match_uncertain'
              : 'face_match_inconclusive',
        );
        continue;
      }
      result.accepted++;
    }
    sequences.push(result);
  }

  const genuine = sequences.filter((s) => s.kind === 'genuine');
  const genuineChallenges = genuine.reduce((sum, s) => sum + s.challenges, 0);
  const genuineAccepted = genuine.reduce((sum, s) => sum + s.accepted, 0);
  const attacks: LivenessReport['attacks'] = {};
  for (const s of sequences) {
    if (s.kind === 'genuine') continue;
    const tally = attacks[s.kind] ?? { challenges: 0, caught: 0, catchRate: null };
    tally.challenges += s.challenges;
    tally.caught += s.challenges - s.accepted;
    tally.catchRate = tally.challenges === 0 ? null : tally.caught / tally.challenges;
    attacks[s.kind] = tally;
  }
  return {
    genuine: {
      challenges: genuineChallenges,
      accepted: genuineAccepted,
      passRate: genuineChallenges === 0 ? null : genuineAccepted / genuineChallenges,
    },
    attacks,
    sequences,
    thresholds,
    engine: engineInfo,
  };
}

/** The server's face-match check on these frames (probes) against the reference portrait. */
function faceMatchOf(
  reference: Acquired,
  frames: readonly FaceAnalysis[],
): 'passed' | 'mismatch' | 'uncertain' | 'inconclusive' {
  const space = reference.space ?? frames[0]?.embeddingSpace;
  const engine = reference.engine ?? frames[0]?.engine;
  if (!space || !engine) return 'inconclusive';
  const input: ReviewInput = {
    session: { flow: 'user', tier: 'tier2', required_steps: ['id_document', 'liveness'] },
    evidence: {
      face_match: {
        reference: { source: 'document_portrait', ...reference.sample },
        probes: frames.map((frame) => {
          const face: FaceObservation | undefined = frame.faces[0];
          return {
            faces: frame.faces.length,
            face_width: face ? Math.round(face.box.width) : 0,
            ...(face ? { pose: { yaw: face.yaw, pitch: face.pitch } } : {}),
            ...(face?.embedding ? { embedding: face.embedding } : {}),
          };
        }),
        space,
        engine,
      },
    },
    policy: {},
    environment: 'production',
    now: new Date(0),
  };
  const check = checkFaceMatch(input);
  if (check.status === 'passed') return 'passed';
  if (check.status !== 'failed') return 'inconclusive';
  return check.reason_codes.includes('face_match_uncertain') ? 'uncertain' : 'mismatch';
}

// ---------------------------------------------------------------------------------------------------
// Report

const percent = (rate: number | null) => (rate === null ? 'n/a' : `${(100 * rate).toFixed(1)} %`);
const fixed = (value: number | undefined) => (value === undefined ? '' : value.toFixed(3));

function summaryLine(summary: ScoreSummary | null): string {
  if (!summary) return 'none compared';
  return `min ${fixed(summary.min)}  p25 ${fixed(summary.p25)}  median ${fixed(summary.median)}  p75 ${fixed(summary.p75)}  max ${fixed(summary.max)}  mean ${fixed(summary.mean)}`;
}

/** The face-match report as text. */
/**
 * The upper end of the 95 % Wilson score interval for `errors` out of `n`: how high the true rate may be
 * for all this set can tell. With 0 errors in 50 pairs it is 7.1 %: a set this small cannot show a rate
 * of 1 %, whatever it measures.
 *
 * @example
 * wilsonUpperBound(0, 50) // 0.0713
 */
export function wilsonUpperBound(errors: number, n: number, z = 1.96): number | null {
  if (n === 0) return null;
  const p = errors / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return Math.min(1, (centre + margin) / (1 + z2 / n));
}

function upperBoundNote(group: PairGroupResult): string {
  const bound = wilsonUpperBound(group.errors, group.compared);
  return bound === null ? '' : `(95 % upper bound ${percent(bound)})`;
}

export function formatFaceMatchReport(report: FaceMatchReport): string {
  const space = report.space;
  const lines = [
    `Face match in ${space ? `${space.name} (${space.metric}, published threshold ${space.threshold})` : 'unknown space'}`,
    `  pairs the face match compares (frontal frames, |yaw| and |pitch| ≤ ${FRONTAL_PROBE_MAX_DEGREES}°, and document portraits):`,
    `  same person:      ${report.genuine.errors}/${report.genuine.compared} rejected  FRR ${percent(report.genuine.rate)}  ${upperBoundNote(report.genuine)}  (${report.genuine.pairs} pairs)`,
    `                    ${summaryLine(report.genuine.scores)}`,
    `  different people: ${report.impostor.errors}/${report.impostor.compared} accepted  FAR ${percent(report.impostor.rate)}  ${upperBoundNote(report.impostor)}  (${report.impostor.pairs} pairs)`,
    `                    ${summaryLine(report.impostor.scores)}`,
    `  pairs with a turned frame (compared only when a challenge has no frontal frame):`,
    `  same person:      ${report.turned.genuine.errors}/${report.turned.genuine.compared} rejected  FRR ${percent(report.turned.genuine.rate)}`,
    `  different people: ${report.turned.impostor.errors}/${report.turned.impostor.compared} accepted  FAR ${percent(report.turned.impostor.rate)}`,
    '  by kind:',
    ...report.byKind.map(
      (group) =>
        `    ${`${group.kind} ${group.same ? 'same' : 'different'}`.padEnd(32)} ${String(group.errors).padStart(3)}/${String(group.compared).padEnd(4)} ${percent(group.rate).padStart(8)}   ${summaryLine(group.scores)}`,
    ),
  ];
  const shown = report.mistakes.slice(0, 20);
  for (const mistake of shown) {
    lines.push(
      `  ${mistake.same ? 'rejected' : 'accepted'} ${mistake.a} × ${mistake.b}: ${mistake.score.toFixed(3)}`,
    );
  }
  if (report.mistakes.length > shown.length)
    lines.push(`  … and ${report.mistakes.length - shown.length} more mistakes`);
  if (report.unusable.length > 0) {
    lines.push(
      `  no usable face (left out of FAR/FRR): ${report.unusable.map((u) => `${u.label} (${u.reason})`).join(', ')}`,
    );
  }
  lines.push(
    `  engine: ${report.engine ? `${report.engine.kind}, ${report.engine.models.join(', ')}` : 'unknown'}`,
  );
  return lines.join('\n');
}

/** The liveness report as text. */
export function formatLivenessReport(report: LivenessReport): string {
  const lines = [
    'Liveness (every 3-action challenge the frames cover; gate → judgement → face match)',
    `  genuine: ${report.genuine.accepted}/${report.genuine.challenges} accepted  pass rate ${percent(report.genuine.passRate)}`,
    ...Object.entries(report.attacks).map(
      ([kind, tally]) =>
        `  ${kind.padEnd(17)} ${tally.caught}/${tally.challenges} caught  catch rate ${percent(tally.catchRate)}`,
    ),
    '  per sequence (stopped by / actions performed ÷ asked):',
  ];
  for (const s of report.sequences) {
    const stopped = Object.entries(s.stoppedBy)
      .map(([layer, count]) => `${layer} ${count}`)
      .join(', ');
    const actions = Object.entries(s.actions)
      .map(([action, tally]) => `${action} ${tally.performed}/${tally.asked}`)
      .join(', ');
    lines.push(`    ${s.id.padEnd(36)} accepted ${s.accepted}/${s.challenges}; ${stopped || 'none stopped'}`);
    lines.push(`    ${''.padEnd(36)} ${actions}`);
  }
  lines.push(`  thresholds: ${report.thresholds ? JSON.stringify(report.thresholds) : 'n/a'}`);
  return lines.join('\n');
}

async function main() {
  const engine = createNodeVisionEngine({ threads: 1 });
  try {
    const selfies = loadSelfieManifest();
    const documents = loadDocumentManifest();
    console.log(formatFaceMatchReport(await measureFaceMatch(engine, fixtureFacePairs(selfies, documents))));
    console.log('');
    console.log(formatLivenessReport(await measureLiveness(engine, judgeLiveness, selfies)));
  } finally {
    await engine.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
