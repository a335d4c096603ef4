import type { FieldCipher } from '../../crypto/field-cipher.ts';
import type { LivenessJudgement } from '../../domain/liveness-judgement.ts';
import type { LivenessChallengeRow } from '../../store/liveness-challenges.ts';
import { latestAnsweredChallenge } from '../../store/liveness-challenges.ts';
import {
  insertLivenessReading,
  type LivenessReadingRow,
  listLivenessReadings,
} from '../../store/liveness-readings.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import type { EmbeddingSpace, EngineInfo, FaceAnalysis, FaceQuality } from '../vision/vision-engine.ts';
import { observationOf } from './observe-liveness-frames.ts';

/** Binds a frame's encrypted embedding to its challenge and position, so it cannot be moved elsewhere. */
export const livenessCipherContext = {
  embedding: (challengeId: string, frameIndex: number) =>
    `verify.liveness.embedding:${challengeId}:${frameIndex}`,
};

/** One liveness frame as a face-match probe: the largest face's size, pose and embedding (personal). */
export interface LivenessProbe {
  faces: number;
  face_width: number;
  pose?: { yaw: number; pitch: number };
  embedding?: readonly number[];
  quality?: FaceQuality;
}

export interface LivenessEvidence {
  liveness: { accepted: boolean; judgement?: LivenessJudgement };
  /** The attempt's frames, in order, when a model looked at them. */
  probes?: LivenessProbe[];
  space?: EmbeddingSpace;
  engine?: EngineInfo;
}

/**
 * Stores what the models saw on each frame of an attempt, in the caller's transaction: the measurements
 * in the clear (no personal value), the largest face's embedding encrypted.
 *
 * @example
 * await storeLivenessReadings(tx, deps, challenge, observed.analyses, receivedAt);
 */
export async function storeLivenessReadings(
  tx: SqlClient,
  deps: { cipher: FieldCipher },
  challenge: Pick<LivenessChallengeRow, 'id' | 'tenant_id' | 'environment' | 'session_id'>,
  analyses: readonly FaceAnalysis[],
  now: Date,
): Promise<void> {
  for (const [index, analysis] of analyses.entries()) {
    const embedding = analysis.faces[0]?.embedding;
    await insertLivenessReading(tx, {
      challenge_id: challenge.id,
      frame_index: index,
      tenant_id: challenge.tenant_id,
      environment: challenge.environment,
      session_id: challenge.session_id,
      observation: observationOf(analysis),
      embedding_enc: embedding
        ? await deps.cipher.encryptJson([...embedding], livenessCipherContext.embedding(challenge.id, index))
        : null,
      embedding_space: analysis.embeddingSpace,
      engine: analysis.engine,
      created_at: now,
    });
  }
}

/** One frame of an attempt as stored, with its embedding decrypted (null when no face was found). */
export interface LivenessFrameRead {
  reading: LivenessReadingRow;
  embedding: number[] | null;
}

/** The latest answered attempt of a session: its challenge and its frames' readings, in frame order. */
export interface LivenessAttemptRead {
  challenge: LivenessChallengeRow;
  /** Empty when no model looked at the frames (no engine configured, or a cheap gate answered first). */
  frames: LivenessFrameRead[];
}

/**
 * Reads the session's latest answered liveness attempt once: the challenge and its frames, embeddings
 * decrypted. Undefined when no challenge was answered. What the review (`livenessEvidenceOf`) and the
 * face reference an approval enrols (`faceReferenceOf`) are both made of.
 *
 * @example
 * const attempt = await readLatestLivenessAttempt(sql, deps, session);
 * attempt?.challenge.outcome // 'accepted'
 */
export async function readLatestLivenessAttempt(
  sql: SqlClient,
  deps: { cipher: FieldCipher },
  session: SessionRow,
): Promise<LivenessAttemptRead | undefined> {
  const scope = { tenantId: session.tenant_id, environment: session.environment };
  const challenge = await latestAnsweredChallenge(sql, scope, session.id);
  if (!challenge) return undefined;
  const readings = await listLivenessReadings(sql, challenge.id);
  const frames = await Promise.all(
    readings.map(
      async (reading): Promise<LivenessFrameRead> => ({
        reading,
        embedding: reading.embedding_enc
          ? await deps.cipher.decryptJson<number[]>(
              reading.embedding_enc,
              livenessCipherContext.embedding(challenge.id, reading.frame_index),
            )
          : null,
      }),
    ),
  );
  return { challenge, frames };
}

/**
 * The attempt's verdict with its judgement, and its frames as face-match probes. Undefined when no
 * challenge was answered. `probes`, `space` and `engine` are absent when no model looked at the frames.
 *
 * @example
 * const collected = livenessEvidenceOf(await readLatestLivenessAttempt(sql, deps, session));
 * if (collected) evidence.liveness = collected.liveness;
 */
export function livenessEvidenceOf(attempt: LivenessAttemptRead | undefined): LivenessEvidence | undefined {
  if (!attempt) return undefined;
  const { challenge, frames } = attempt;
  const liveness: LivenessEvidence['liveness'] = { accepted: challenge.outcome === 'accepted' };
  if (challenge.judgement) liveness.judgement = challenge.judgement;
  const first = frames[0]?.reading;
  if (!first) return { liveness };
  const probes = frames.map(({ reading, embedding }): LivenessProbe => {
    const probe: LivenessProbe = {
      faces: reading.observation.faces,
      face_width: reading.observation.face_width,
    };
    if (reading.observation.faces > 0)
      probe.pose = { yaw: reading.observation.yaw, pitch: reading.observation.pitch };
    const { sharpness, eye_visibility } = reading.observation;
    if (sharpness !== undefined && eye_visibility !== undefined)
      probe.quality = { sharpness, eyes: eye_visibility };
    if (embedding) probe.embedding = embedding;
    return probe;
  });
  return { liveness, probes, space: first.embedding_space, engine: first.engine };
}

/**
 * The latest answered challenge's verdict with its judgement, and its frames as face-match probes
 * (embeddings decrypted): `livenessEvidenceOf` over one read of the attempt.
 *
 * @example
 * const collected = await collectLivenessEvidence(sql, deps, session);
 * if (collected) evidence.liveness = collected.liveness;
 */
export async function collectLivenessEvidence(
  sql: SqlClient,
  deps: { cipher: FieldCipher },
  session: SessionRow,
): Promise<LivenessEvidence | undefined> {
  return livenessEvidenceOf(await readLatestLivenessAttempt(sql, deps, session));
}
