import type { FieldCipher } from '../../crypto/field-cipher.ts';
import { findIdentityFaceReference, setIdentityFaceReference } from '../../store/identities.ts';
import type { LivenessReadingRow } from '../../store/liveness-readings.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import type { EmbeddingSpace } from '../vision/vision-engine.ts';
import type { LivenessAttemptRead, LivenessFrameRead } from './liveness-evidence.ts';

/** Binds the encrypted reference to its identity: a value copied to another identity fails to decrypt. */
export const enrolledReferenceCipherContext = {
  face: (identityId: string) => `identity.face_reference:${identityId}`,
};

/** What is encrypted in `identities.face_reference_enc`. */
interface EncryptedFaceReference {
  embedding: number[];
  face_width: number;
}

export interface EnrolledReference {
  faces: number;
  face_width: number;
  embedding: readonly number[];
  space: EmbeddingSpace;
}

/**
 * For a re-verification session: the identity's enrolled face reference (decrypted), else undefined.
 * Undefined too for an identity enrolled before face models ran (it has a selfie session but no
 * embedding); the face match is then inconclusive and a person compares.
 *
 * @example
 * const reference = await findEnrolledReference(sql, deps, session);
 * if (reference) faceMatch.reference = { source: 'enrolled_selfie', ...reference };
 */
export async function findEnrolledReference(
  sql: SqlClient,
  deps: { cipher: FieldCipher },
  session: SessionRow,
): Promise<EnrolledReference | undefined> {
  if (session.reverification_request_id === null || session.identity_id === null) return undefined;
  const scope = { tenantId: session.tenant_id, environment: session.environment };
  const stored = await findIdentityFaceReference(sql, scope, session.identity_id);
  if (!stored) return undefined;
  const reference = await deps.cipher.decryptJson<EncryptedFaceReference>(
    stored.face_reference_enc,
    enrolledReferenceCipherContext.face(session.identity_id),
  );
  return {
    faces: 1,
    face_width: reference.face_width,
    embedding: reference.embedding,
    space: stored.face_reference_space,
  };
}

/** The liveness frame an approval enrols as the identity's face reference: its embedding, decrypted. */
export interface FaceReference {
  embedding: readonly number[];
  face_width: number;
  space: EmbeddingSpace;
}

/**
 * How well a frame serves as the reference: the face's width, discounted steeply as the head turns away
 * (cos⁴ of yaw and pitch: 30° keeps 56 %) and mildly for closed eyes, so a large frontal face with open
 * eyes wins, and a turned head only when nothing better was captured.
 */
function referenceScore(reading: LivenessReadingRow): number {
  const { face_width, yaw, pitch, left_eye_open, right_eye_open } = reading.observation;
  const radians = Math.PI / 180;
  const frontal = (Math.cos(yaw * radians) * Math.cos(pitch * radians)) ** 4;
  const eyes = Math.min(1, Math.max(0, (left_eye_open + right_eye_open) / 2));
  return face_width * frontal * (0.5 + 0.5 * eyes);
}

/**
 * The best frame of the latest answered attempt (largest, most frontal single face with an embedding),
 * as the face reference an approval enrols; null when that attempt was not accepted or no model looked
 * at it. Made from the review's one read of the attempt (`readLatestLivenessAttempt`), so the approval
 * reads and decrypts nothing again.
 *
 * @example
 * faceReferenceOf(await readLatestLivenessAttempt(sql, deps, session))?.space.name // 'deterministic-v1'
 */
export function faceReferenceOf(attempt: LivenessAttemptRead | undefined): FaceReference | null {
  if (attempt?.challenge.outcome !== 'accepted') return null;
  let best: LivenessFrameRead | null = null;
  for (const frame of attempt.frames) {
    if (frame.reading.observation.faces !== 1 || frame.embedding === null) continue;
    if (best === null || referenceScore(frame.reading) > referenceScore(best.reading)) best = frame;
  }
  if (!best?.embedding) return null;
  return {
    embedding: best.embedding,
    face_width: best.reading.observation.face_width,
    space: best.reading.embedding_space,
  };
}

/**
 * Enrols the approving session's best liveness frame (`faceReferenceOf`, from the evidence the decision
 * read) as the identity's face reference, re-encrypted for the identity, in the approval's transaction.
 * Does nothing without one (the latest attempt was not accepted, or no model looked at it): the identity
 * then keeps any earlier reference, which an approval by the same person does not invalidate. Returns
 * whether a reference was stored.
 *
 * @example
 * const identity = await recordApprovedIdentity(tx, deps, session, evidence.review, evidence.documentDetails);
 * await enrollFaceReference(tx, deps, identity.id, evidence.faceReference);
 */
export async function enrollFaceReference(
  tx: SqlClient,
  deps: { cipher: FieldCipher },
  identityId: string,
  reference: FaceReference | null,
): Promise<boolean> {
  if (!reference) return false;
  const stored: EncryptedFaceReference = {
    embedding: [...reference.embedding],
    face_width: reference.face_width,
  };
  await setIdentityFaceReference(tx, identityId, {
    face_reference_enc: await deps.cipher.encryptJson(
      stored,
      enrolledReferenceCipherContext.face(identityId),
    ),
    face_reference_space: reference.space,
  });
  return true;
}
