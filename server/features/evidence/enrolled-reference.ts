import type { FieldCipher } from '../../crypto/field-cipher.ts';
import { findIdentityFaceReference, setIdentityFaceReference } from '../../store/identities.ts';
import { latestAnsweredChallenge } from '../../store/liveness-challenges.ts';
import { type LivenessReadingRow, listLivenessReadings } from '../../store/liveness-readings.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import type { EmbeddingSpace } from '../vision/vision-engine.ts';
import { livenessCipherContext } from './liveness-evidence.ts';

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
 * Enrols the approving session's best liveness frame (largest, most frontal single face) as the identity's
 * face reference, re-encrypted for the identity, in the approval's transaction. Does nothing when the
 * latest attempt was not accepted or no model looked at it (the identity then keeps any earlier reference,
 * which an approval by the same person does not invalidate). Returns whether a reference was stored.
 *
 * @example
 * const identity = await recordApprovedIdentity(tx, deps, session, evidence);
 * await enrollFaceReference(tx, deps, session, identity.id);
 */
export async function enrollFaceReference(
  tx: SqlClient,
  deps: { cipher: FieldCipher },
  session: SessionRow,
  identityId: string,
): Promise<boolean> {
  const scope = { tenantId: session.tenant_id, environment: session.environment };
  const challenge = await latestAnsweredChallenge(tx, scope, session.id);
  if (challenge?.outcome !== 'accepted') return false;
  const candidates = (await listLivenessReadings(tx, challenge.id)).filter(
    (reading) => reading.observation.faces === 1 && reading.embedding_enc !== null,
  );
  const best = candidates.reduce<LivenessReadingRow | null>(
    (winner, reading) =>
      winner === null || referenceScore(reading) > referenceScore(winner) ? reading : winner,
    null,
  );
  if (!best?.embedding_enc) return false;
  const embedding = await deps.cipher.decryptJson<number[]>(
    best.embedding_enc,
    livenessCipherContext.embedding(challenge.id, best.frame_index),
  );
  const reference: EncryptedFaceReference = { embedding, face_width: best.observation.face_width };
  await setIdentityFaceReference(tx, identityId, {
    face_reference_enc: await deps.cipher.encryptJson(
      reference,
      enrolledReferenceCipherContext.face(identityId),
    ),
    face_reference_space: best.embedding_space,
  });
  return true;
}
