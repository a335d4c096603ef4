// Face match in three zones on a face set stored by identity (face-identity-set.ts): every pair of photos,
// and simulated sessions (one photo as the document portrait, up to three others as liveness frames),
// decided by the face-match check itself (`checkFaceMatch`), so the bench measures what the server decides.
// Each image is embedded once and kept in memory, however many pairs use it.
import { zoneThresholds } from '../../server/domain/face-match-zones.ts';
import {
  checkFaceMatch,
  FRONTAL_PROBE_MAX_DEGREES,
  lowQuality,
} from '../../server/domain/review/face-match-check.ts';
import type { FaceSample, ReviewInput } from '../../server/domain/review/review-input.ts';
import type { EmbeddingSpace, EngineInfo } from '../../server/features/vision/vision-engine.ts';
import type { FaceIdentity, FaceSetHalf } from './face-identity-set.ts';
import { type Acquired, type FaceImage, type FacePair, wilsonUpperBound } from './faces.ts';

/** How many pairs (or sessions) ended in each zone; `no_face`: a side had no usable face. */
export interface ZoneCounts {
  match: number;
  uncertain: number;
  mismatch: number;
  no_face: number;
}

export interface DetRow {
  threshold: number;
  /** Different-person frontal pairs at or inside the threshold, ÷ all compared. */
  far: number;
  /** Same-person frontal pairs beyond the threshold, ÷ all compared. */
  frr: number;
}

export interface FaceZoneReport {
  half: FaceSetHalf;
  identities: number;
  images: number;
  /** Images without a usable face, by reason (no_face, several_faces, too_small, no_embedding). */
  unusable: Record<string, number>;
  /** Pairs whose faces are both within the frontal limit (or that have no usable face). */
  frontal: { same: ZoneCounts; different: ZoneCounts };
  /** Pairs with a usable face turned or tilted beyond the frontal limit: reported apart. */
  turned: { same: ZoneCounts; different: ZoneCounts };
  /** One photo as the portrait, up to three other frontal photos as the frames. */
  sessions: { same: ZoneCounts; different: ZoneCounts };
  /**
   * Decisions the quality floors touched: a distance beyond the mismatch limit held as `uncertain` because
   * a face was below a floor (`details.quality_hold`), counted among the `uncertain` above.
   */
  qualityHeld: {
    frontal: { same: number; different: number };
    sessions: { same: number; different: number };
  };
  /** Usable frontal faces below each quality floor of the space. */
  lowQualityFaces: { blurred: number; eyes_covered: number; measured: number };
  /** FAR and FRR of single frontal pairs at a range of thresholds. */
  det: DetRow[];
  /** Scores of frontal pairs, for choosing thresholds: the score at which FAR reaches 0.1 %, FRR 1 %. */
  quantiles: {
    far_0_1_percent: number | null;
    frr_1_percent: number | null;
    frr_10_percent: number | null;
    /**
     * The zone rule (docs/verification.md) on this half's frontal pairs: `match` the largest score at which
     * at most 0.05 % of impostor pairs match, `mismatch` the one at which 1 % fall short of the mismatch zone.
     */
    rule_match: number | null;
    rule_mismatch: number | null;
  };
  /** The same-person sessions and pairs the check put in the mismatch zone, by label (worth a look). */
  genuineMismatches: string[];
  /** The different-person pairs and sessions the check put in the match zone, by label. */
  impostorMatches: string[];
  space: EmbeddingSpace | null;
  engine: EngineInfo | null;
}

const zeroCounts = (): ZoneCounts => ({ match: 0, uncertain: 0, mismatch: 0, no_face: 0 });

interface Usable {
  label: string;
  sample: FaceSample & { embedding: readonly number[] };
  frontal: boolean;
}

/** Both angles within the check's frontal limit (a sample without a measured pose counts as frontal). */
export function isFrontalSample(sample: FaceSample): boolean {
  return (
    sample.pose === undefined ||
    (Math.abs(sample.pose.yaw) <= FRONTAL_PROBE_MAX_DEGREES &&
      Math.abs(sample.pose.pitch) <= FRONTAL_PROBE_MAX_DEGREES)
  );
}

/** The face-match check's verdict on `reference` against `probes`, as the server would decide it. */
function decideZone(
  reference: FaceSample,
  probes: readonly FaceSample[],
  space: EmbeddingSpace,
  engine: EngineInfo,
): { zone: keyof ZoneCounts; score: number | null; held: boolean } {
  const input = {
    evidence: {
      liveness: { accepted: true },
      face_match: { reference: { ...reference, source: 'document_portrait' }, probes, space, engine },
    },
  } as unknown as ReviewInput;
  const check = checkFaceMatch(input);
  const zone = check.details?.zone;
  const score = typeof check.details?.score === 'number' ? check.details.score : null;
  const held = check.details?.['quality_hold'] === true;
  if (zone === 'match' || zone === 'uncertain' || zone === 'mismatch') return { zone, score, held };
  return { zone: 'no_face', score, held };
}

function quantileScore(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(fraction * sorted.length)))] ?? null;
}

/**
 * The DET table: FAR and FRR of single frontal pairs at thresholds from `from` to `to` (euclidean).
 *
 * @example
 * detTable([0.4, 0.5], [0.7, 0.55], 0.4, 0.6, 0.1) // [{ threshold: 0.4, far: 0, frr: 0.5 }, …]
 */
export function detTable(
  genuine: readonly number[],
  impostor: readonly number[],
  from: number,
  to: number,
  step: number,
): DetRow[] {
  const rows: DetRow[] = [];
  for (let threshold = from; threshold <= to + 1e-9; threshold += step) {
    const t = Math.round(threshold * 1000) / 1000;
    rows.push({
      threshold: t,
      far: impostor.length === 0 ? 0 : impostor.filter((score) => score <= t).length / impostor.length,
      frr: genuine.length === 0 ? 0 : genuine.filter((score) => score > t).length / genuine.length,
    });
  }
  return rows;
}

/** Every pair of `identities`' images: same person within a folder, different people across folders. */
export function identityPairs(identities: readonly FaceIdentity[]): FacePair[] {
  const images = identities.flatMap((identity) => identity.images);
  const pairs: FacePair[] = [];
  for (let i = 0; i < images.length; i++) {
    for (let j = i + 1; j < images.length; j++) {
      const a = images[i] as FaceImage;
      const b = images[j] as FaceImage;
      const same = a.person === b.person;
      pairs.push({ a, b, same, kind: same ? 'same' : 'different' });
    }
  }
  return pairs;
}

/**
 * Embeds every image of `identities` once (kept in memory), then decides every pair and every simulated
 * session with the face-match check.
 *
 * @example
 * const report = await measureFaceZones(faceAcquirer(engine), splitHalf(readIdentities(dir), 'B'), 'B');
 */
export async function measureFaceZones(
  acquire: (image: FaceImage) => Promise<Acquired>,
  identities: readonly FaceIdentity[],
  half: FaceSetHalf,
): Promise<FaceZoneReport> {
  return scoreFaceZones(
    identities,
    await acquireAll(
      acquire,
      identities.flatMap((i) => i.images),
    ),
    half,
  );
}

/**
 * The zones of a given list of pairs (the LFW `pairs.txt` or `same/` `different/` layouts): no sessions,
 * which need several photos per person.
 */
export async function measurePairListZones(
  acquire: (image: FaceImage) => Promise<Acquired>,
  pairs: readonly FacePair[],
): Promise<FaceZoneReport> {
  const acquired = await acquireAll(
    acquire,
    pairs.flatMap((pair) => [pair.a, pair.b]),
  );
  const people = new Set(pairs.flatMap((pair) => [pair.a.person, pair.b.person]));
  const report = emptyReport('all', people.size, acquired);
  tallyPairs(report, pairs, acquired);
  return report;
}

async function acquireAll(
  acquire: (image: FaceImage) => Promise<Acquired>,
  images: readonly FaceImage[],
): Promise<Map<string, Acquired>> {
  const acquired = new Map<string, Acquired>();
  for (const image of images) {
    if (!acquired.has(image.label)) acquired.set(image.label, await acquire(image));
  }
  return acquired;
}

function emptyReport(
  half: FaceSetHalf,
  identities: number,
  acquired: ReadonlyMap<string, Acquired>,
): FaceZoneReport {
  const unusable: Record<string, number> = {};
  let space: EmbeddingSpace | null = null;
  let engine: EngineInfo | null = null;
  for (const face of acquired.values()) {
    space ??= face.space;
    engine ??= face.engine;
    if (!face.ok) unusable[face.reason] = (unusable[face.reason] ?? 0) + 1;
  }
  return {
    half,
    identities,
    images: acquired.size,
    unusable,
    frontal: { same: zeroCounts(), different: zeroCounts() },
    turned: { same: zeroCounts(), different: zeroCounts() },
    sessions: { same: zeroCounts(), different: zeroCounts() },
    qualityHeld: { frontal: { same: 0, different: 0 }, sessions: { same: 0, different: 0 } },
    lowQualityFaces: lowQualityCounts(acquired, space),
    det: [],
    quantiles: {
      far_0_1_percent: null,
      frr_1_percent: null,
      frr_10_percent: null,
      rule_match: null,
      rule_mismatch: null,
    },
    genuineMismatches: [],
    impostorMatches: [],
    space,
    engine,
  };
}

/** How many usable frontal faces fall below each of the space's quality floors (`lowQuality`). */
function lowQualityCounts(
  acquired: ReadonlyMap<string, Acquired>,
  space: EmbeddingSpace | null,
): FaceZoneReport['lowQualityFaces'] {
  const counts = { blurred: 0, eyes_covered: 0, measured: 0 };
  for (const face of acquired.values()) {
    if (!face.ok || !isFrontalSample(face.sample) || face.sample.quality === undefined) continue;
    counts.measured++;
    for (const cause of lowQuality(face.sample.quality, space?.qualityFloors)) counts[cause]++;
  }
  return counts;
}

function usableFace(face: Acquired | undefined, label: string): Usable | null {
  if (!face) throw new Error(`${label} was not acquired`);
  if (!face.ok) return null;
  return { label, sample: face.sample, frontal: isFrontalSample(face.sample) };
}

/** Decides every pair; fills the frontal and turned counts, the DET table and the quantiles. */
function tallyPairs(
  report: FaceZoneReport,
  pairs: readonly FacePair[],
  acquired: ReadonlyMap<string, Acquired>,
): void {
  const { space, engine } = report;
  const genuineScores: number[] = [];
  const impostorScores: number[] = [];
  for (const pair of pairs) {
    const key = pair.same ? 'same' : 'different';
    const a = usableFace(acquired.get(pair.a.label), pair.a.label);
    const b = usableFace(acquired.get(pair.b.label), pair.b.label);
    if (a === null || b === null || space === null || engine === null) {
      report.frontal[key].no_face++;
      continue;
    }
    const turned = !a.frontal || !b.frontal;
    const { zone, score, held } = decideZone(a.sample, [b.sample], space, engine);
    (turned ? report.turned : report.frontal)[key][zone]++;
    if (turned || score === null) continue;
    if (held) report.qualityHeld.frontal[key]++;
    (pair.same ? genuineScores : impostorScores).push(score);
    const label = `${a.label} × ${b.label} ${score.toFixed(3)}`;
    if (pair.same && zone === 'mismatch') report.genuineMismatches.push(label);
    if (!pair.same && zone === 'match') report.impostorMatches.push(label);
  }
  genuineScores.sort((x, y) => x - y);
  impostorScores.sort((x, y) => x - y);
  report.det = detTable(genuineScores, impostorScores, 0.4, 0.7, 0.02);
  report.quantiles = {
    far_0_1_percent: quantileScore(impostorScores, 0.001),
    frr_1_percent: quantileScore(genuineScores, 0.99),
    frr_10_percent: quantileScore(genuineScores, 0.9),
    rule_match: quantileScore(impostorScores, 0.0005),
    rule_mismatch: quantileScore(impostorScores, 0.01),
  };
}

/** {@link measureFaceZones} on faces already acquired (by label): pure, for reuse on stored embeddings. */
export function scoreFaceZones(
  identities: readonly FaceIdentity[],
  acquired: ReadonlyMap<string, Acquired>,
  half: FaceSetHalf,
): FaceZoneReport {
  const report = emptyReport(half, identities.length, acquired);
  tallyPairs(report, identityPairs(identities), acquired);
  const { space, engine } = report;
  if (space === null || engine === null) return report;

  // Sessions: each frontal photo of a person with at least three as the portrait, the next (up to) three
  // of theirs as the frames; against every other person's first three frontal photos as impostor frames.
  const frontalOf = identities.map((identity) => ({
    name: identity.name,
    faces: identity.images
      .map((image) => usableFace(acquired.get(image.label), image.label))
      .filter((face): face is Usable => face?.frontal === true),
  }));
  for (const person of frontalOf) {
    for (const [index, portrait] of person.faces.entries()) {
      if (person.faces.length >= 3) {
        const others = person.faces.filter((_, other) => other !== index);
        const frames = [...others.slice(index), ...others.slice(0, index)].slice(0, 3);
        const { zone, score, held } = decideZone(
          portrait.sample,
          frames.map((frame) => frame.sample),
          space,
          engine,
        );
        report.sessions.same[zone]++;
        if (held) report.qualityHeld.sessions.same++;
        if (zone === 'mismatch')
          report.genuineMismatches.push(`session ${portrait.label} (${frames.length} frames) ${score}`);
      }
      for (const other of frontalOf) {
        if (other.name === person.name || other.faces.length < 2) continue;
        const frames = other.faces.slice(0, 3);
        const { zone, score, held } = decideZone(
          portrait.sample,
          frames.map((frame) => frame.sample),
          space,
          engine,
        );
        report.sessions.different[zone]++;
        if (held) report.qualityHeld.sessions.different++;
        if (zone === 'match')
          report.impostorMatches.push(`session ${portrait.label} × ${other.name} frames ${score}`);
      }
    }
  }
  return report;
}

function percent(part: number, whole: number): string {
  return whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(2)} %`;
}

function total(counts: ZoneCounts): number {
  return counts.match + counts.uncertain + counts.mismatch;
}

function zoneLine(name: string, counts: ZoneCounts): string {
  const n = total(counts);
  return `  ${name.padEnd(28)} match ${String(counts.match).padStart(5)} (${percent(counts.match, n)})  uncertain ${String(counts.uncertain).padStart(5)} (${percent(counts.uncertain, n)})  mismatch ${String(counts.mismatch).padStart(5)} (${percent(counts.mismatch, n)})  no usable face ${counts.no_face}`;
}

function boundNote(errors: number, counts: ZoneCounts): string {
  const bound = wilsonUpperBound(errors, total(counts));
  return bound === null ? '' : `95 % upper bound ${(bound * 100).toFixed(2)} %`;
}

/** The zone report as text: zone counts, the sessions, the DET table, the thresholds. */
export function formatFaceZoneReport(report: FaceZoneReport): string {
  const space = report.space;
  const thresholds = space ? zoneThresholds(space) : null;
  const lines = [
    `Face match in three zones, half ${report.half}: ${report.identities} identities, ${report.images} images`,
    `  space ${space ? `${space.name} (${space.metric}); match ≤ ${thresholds?.match}, mismatch > ${thresholds?.mismatch}` : 'unknown'}`,
    `  images without a usable face: ${JSON.stringify(report.unusable)}`,
    `  single pairs, both faces within ${FRONTAL_PROBE_MAX_DEGREES}° yaw and pitch:`,
    zoneLine('same person', report.frontal.same),
    `    genuine in the mismatch zone ${boundNote(report.frontal.same.mismatch, report.frontal.same)}`,
    zoneLine('different people', report.frontal.different),
    `    impostors in the match zone ${boundNote(report.frontal.different.match, report.frontal.different)}`,
    '  single pairs with a turned or tilted face:',
    zoneLine('same person', report.turned.same),
    zoneLine('different people', report.turned.different),
    '  sessions (a portrait against up to 3 frontal frames):',
    zoneLine('same person', report.sessions.same),
    `    genuine in the mismatch zone ${boundNote(report.sessions.same.mismatch, report.sessions.same)}`,
    zoneLine('different people', report.sessions.different),
    `    impostors in the match zone ${boundNote(report.sessions.different.match, report.sessions.different)}`,
    `  quality floors ${space?.qualityFloors ? `sharpness ≥ ${space.qualityFloors.sharpness}, eye visibility ≥ ${space.qualityFloors.eyes}` : 'none'}: of ${report.lowQualityFaces.measured} frontal faces measured, ${report.lowQualityFaces.blurred} below the sharpness floor, ${report.lowQualityFaces.eyes_covered} below the eye floor`,
    `  held uncertain by the floors (beyond the mismatch limit, a face below a floor): pairs ${report.qualityHeld.frontal.same} same / ${report.qualityHeld.frontal.different} different, sessions ${report.qualityHeld.sessions.same} same / ${report.qualityHeld.sessions.different} different`,
    `  frontal pair scores: FAR reaches 0.1 % at ${report.quantiles.far_0_1_percent?.toFixed(3)}, FRR is 1 % at ${report.quantiles.frr_1_percent?.toFixed(3)}, 10 % at ${report.quantiles.frr_10_percent?.toFixed(3)}`,
    `  the zone rule on these pairs: match ≤ ${report.quantiles.rule_match?.toFixed(3)} (0.05 % of impostor pairs), mismatch > ${report.quantiles.rule_mismatch?.toFixed(3)} (1 % of them short of it)`,
    '  DET (single frontal pairs): threshold   FAR        FRR',
    ...report.det.map(
      (row) =>
        `                              ${row.threshold.toFixed(2)}   ${(row.far * 100).toFixed(3).padStart(7)} %  ${(row.frr * 100).toFixed(2).padStart(6)} %`,
    ),
  ];
  const shown = (list: string[]) => [
    ...list.slice(0, 10),
    ...(list.length > 10 ? [`… ${list.length - 10} more`] : []),
  ];
  if (report.impostorMatches.length > 0)
    lines.push('  impostors in the match zone:', ...shown(report.impostorMatches).map((l) => `    ${l}`));
  if (report.genuineMismatches.length > 0)
    lines.push('  genuine in the mismatch zone:', ...shown(report.genuineMismatches).map((l) => `    ${l}`));
  lines.push(
    `  engine: ${report.engine ? `${report.engine.kind}, ${report.engine.models.join(', ')}` : 'unknown'}`,
  );
  return lines.join('\n');
}

/**
 * The report as the one JSON object `--json` prints last: frontal pair counts per zone, the thresholds and
 * the engine (plus the half and the session counts).
 */
export function faceZoneJson(report: FaceZoneReport): string {
  return JSON.stringify({
    frontal: report.frontal,
    thresholds: report.space
      ? { ...zoneThresholds(report.space), metric: report.space.metric, space: report.space.name }
      : {},
    engine: report.engine ?? {},
    half: report.half,
    sessions: report.sessions,
    quality_held: report.qualityHeld,
    low_quality_faces: report.lowQualityFaces,
  });
}
