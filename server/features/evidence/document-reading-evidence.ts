import { toReviewMrz } from '../../domain/mrz.ts';
import type {
  DocumentReadingEvidence,
  FaceMatchEvidence,
  ParsedMrz,
} from '../../domain/review/review-input.ts';
import type { UploadRow } from '../../store/uploads.ts';
import type { EmbeddingSpace, EngineInfo } from '../vision/vision-engine.ts';
import type { StoredIdDocumentReading } from './document-reading-record.ts';
import type { LivenessEvidence } from './liveness-evidence.ts';

type ReviewedIdReading = { upload: Pick<UploadRow, 'side'>; stored: StoredIdDocumentReading };

/**
 * One description of several results' models: `deterministic` as soon as one came from the stand-in, the
 * models named once each.
 *
 * @example
 * mergeEngines([{ kind: 'models', models: ['a'] }, { kind: 'models', models: ['a', 'b'] }]) // { kind: 'models', models: ['a', 'b'] }
 */
export function mergeEngines(engines: readonly EngineInfo[]): EngineInfo {
  return {
    kind: engines.some((engine) => engine.kind === 'deterministic') ? 'deterministic' : 'models',
    models: [...new Set(engines.flatMap((engine) => engine.models))],
  };
}

/** The photo that shows the portrait: the one whose largest face is the widest (null without any face). */
function portraitPhoto(readings: readonly ReviewedIdReading[]): ReviewedIdReading | null {
  let best: ReviewedIdReading | null = null;
  for (const reading of readings) {
    const width = reading.stored.portrait.faces[0]?.box.width ?? 0;
    if (width > 0 && width > (best?.stored.portrait.faces[0]?.box.width ?? 0)) best = reading;
  }
  return best;
}

/**
 * What the engine read off the reviewed photos of the identity document (latest first), in the review's
 * shape: the latest MRZ whose check digits verify (else the latest that parses at all) with its OCR
 * confidence (none when a character was read unsure), the latest barcode
 * with AAMVA fields, the portrait's faces, the front's layout. Undefined when no photo was read.
 *
 * @example
 * documentReadingEvidence(await idDocumentReadings(sql, deps, session))?.mrz?.format // 'TD3'
 */
export function documentReadingEvidence(
  readings: readonly ReviewedIdReading[],
): DocumentReadingEvidence | undefined {
  const latest = readings[0];
  if (!latest) return undefined;
  const zones = readings.flatMap(({ stored }) => (stored.mrz?.parsed ? [stored.mrz] : []));
  const zone = zones.find((read) => read.parsed?.valid) ?? zones[0];
  const mrz = zone?.parsed;
  const barcode = readings.find(({ stored }) => stored.barcode?.parsed)?.stored.barcode?.parsed ?? null;
  const portrait = portraitPhoto(readings);
  const layout = (readings.find(({ upload }) => upload.side === 'front') ?? latest).stored.layout;
  // A zone with characters the reader was unsure of has no confidence to vouch for it: without one, check
  // digits that fail there are taken for a misread, never for an altered document.
  const unsure = (zone?.uncertain ?? []).some((positions) => positions.length > 0);
  return {
    mrz: mrz ? { ...toReviewMrz(mrz), format: mrz.format } : null,
    ...(zone && mrz && !unsure ? { mrz_confidence: zone.confidence } : {}),
    barcode,
    portrait_faces: portrait?.stored.portrait.faces.length ?? 0,
    portrait_face_width: Math.round(portrait?.stored.portrait.faces[0]?.box.width ?? 0),
    layout: { found: layout.found, aspect_ratio: layout.aspectRatio, deskew_degrees: layout.deskewDegrees },
    engine: mergeEngines(readings.map(({ stored }) => stored.engine)),
  };
}

/** The read MRZ as the `mrz` the review compares with the details (without the format). */
export function readMrzEvidence(mrz: NonNullable<DocumentReadingEvidence['mrz']>): ParsedMrz {
  const { format: _format, ...zone } = mrz;
  return zone;
}

/** A face-match reference with the space its embedding lives in and the models that made it. */
export type MatchReference = FaceMatchEvidence['reference'] & { space: EmbeddingSpace; engine?: EngineInfo };

/**
 * The document portrait as the face-match reference: the largest face of the photo that shows the widest
 * one, with its embedding. When no photo shows a face, a reference of 0 faces from the front (so the
 * check can say the portrait was not found); undefined when nothing was read.
 */
export function portraitReference(readings: readonly ReviewedIdReading[]): MatchReference | undefined {
  const photo =
    portraitPhoto(readings) ?? readings.find(({ upload }) => upload.side === 'front') ?? readings[0];
  if (!photo) return undefined;
  const analysis = photo.stored.portrait;
  const face = analysis.faces[0];
  return {
    source: 'document_portrait',
    faces: analysis.faces.length,
    face_width: Math.round(face?.box.width ?? 0),
    // The face match trusts a match only between faces turned no further than its frontal limit.
    ...(face ? { pose: { yaw: face.yaw, pitch: face.pitch } } : {}),
    ...(face?.embedding ? { embedding: face.embedding } : {}),
    // Poor evidence (a blurred or glare-struck portrait) holds a far score for a person, never rejects.
    ...(face?.quality ? { quality: face.quality } : {}),
    space: analysis.embeddingSpace,
    engine: analysis.engine,
  };
}

/**
 * The face match's evidence: the reference against the liveness frames. Undefined unless both sides were
 * looked at by a model, and when they were embedded in different spaces (embeddings of two models never
 * compare: the check then stays inconclusive for a person).
 *
 * @example
 * faceMatchEvidence(portraitReference(readings), await collectLivenessEvidence(sql, deps, session))
 */
export function faceMatchEvidence(
  reference: MatchReference | undefined,
  liveness: LivenessEvidence | undefined,
): FaceMatchEvidence | undefined {
  if (!reference || !liveness?.probes || !liveness.space || !liveness.engine) return undefined;
  if (reference.space.name !== liveness.space.name) return undefined;
  const { space: _space, engine, ...shown } = reference;
  return {
    reference: shown,
    probes: liveness.probes,
    space: liveness.space,
    engine: mergeEngines(engine ? [liveness.engine, engine] : [liveness.engine]),
  };
}
