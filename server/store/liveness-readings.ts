import type { Environment } from '../domain/api-key-format.ts';
import type { EmbeddingSpace, EngineInfo } from '../features/vision/vision-engine.ts';
import type { SqlClient } from './sql-client.ts';

/**
 * What the face models measured on one liveness frame: counts, sizes and angles, never a personal value.
 * The largest face's measurements; all zero when no face was found (`faces` 0).
 */
export interface LivenessFrameObservation {
  /** Faces found on the frame. */
  faces: number;
  /** Width and height of the analysed image, pixels. */
  image_width: number;
  image_height: number;
  /** The largest face's box size in pixels and detector confidence (0–1). */
  face_width: number;
  face_height: number;
  score: number;
  /** Head pose in degrees (see FaceObservation). */
  yaw: number;
  pitch: number;
  roll: number;
  /** Openness and smile, 0–1. */
  left_eye_open: number;
  right_eye_open: number;
  mouth_open: number;
  smile: number;
  /**
   * The largest face's quality on the embedder's crop (`FaceQuality`): sharpness and eye visibility;
   * absent when the engine did not measure it (and in readings stored before it did).
   */
  sharpness?: number;
  eye_visibility?: number;
}

export interface LivenessReadingRow {
  challenge_id: string;
  frame_index: number;
  tenant_id: string;
  environment: Environment;
  session_id: string;
  observation: LivenessFrameObservation;
  /** The largest face's embedding, encrypted (`livenessEmbeddingContext`); null when no face was found. */
  embedding_enc: string | null;
  embedding_space: EmbeddingSpace;
  engine: EngineInfo;
  created_at: Date;
}

export async function insertLivenessReading(sql: SqlClient, row: LivenessReadingRow): Promise<void> {
  await sql.query(
    `insert into liveness_readings (challenge_id, frame_index, tenant_id, environment, session_id, observation,
       embedding_enc, embedding_space, engine, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      row.challenge_id,
      row.frame_index,
      row.tenant_id,
      row.environment,
      row.session_id,
      JSON.stringify(row.observation),
      row.embedding_enc,
      JSON.stringify(row.embedding_space),
      JSON.stringify(row.engine),
      row.created_at,
    ],
  );
}

/** The readings of one challenge, in frame order (the order of its actions). */
export async function listLivenessReadings(
  sql: SqlClient,
  challengeId: string,
): Promise<LivenessReadingRow[]> {
  return sql.query<LivenessReadingRow>(
    'select * from liveness_readings where challenge_id = $1 order by frame_index',
    [challengeId],
  );
}
