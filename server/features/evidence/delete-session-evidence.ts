import type { BlobStore } from '../../store/blobs/blob-store.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import { deleteLivenessChallenges } from '../../store/liveness-challenges.ts';
import { forgetUnreferencedBlobs } from '../../store/unreferenced-blobs.ts';
import { deleteSessionUploads } from '../../store/uploads.ts';
import { deleteSessionNameTokens } from '../../store/session-name-tokens.ts';
import { deleteVerifyConsent } from '../../store/verify-consents.ts';
import { deleteVerifyDetails } from '../../store/verify-details.ts';
import { deleteVerifyHandoffs } from '../../store/verify-handoffs.ts';

/**
 * Removes everything the end-user submitted for a session (images, confirmed details, MRZ, consent
 * record with IP and user agent, liveness challenges, handoff links, the names' blind index) when its
 * retention ends. The rows go in one transaction first, then the bytes: a crash in between never leaves
 * a row pointing at missing bytes, and the keys the transaction journaled (see `deleteSessionUploads`)
 * let the retention sweeper delete what the crash left. Running it again is harmless.
 *
 * @example
 * await deleteSessionEvidence(deps.db, deps, session.id);
 * @returns the number of stored images deleted.
 */
export async function deleteSessionEvidence(
  db: SqlClient,
  deps: { blobs?: BlobStore | undefined },
  sessionId: string,
): Promise<number> {
  const blobKeys = await db.transaction(async (tx) => {
    const keys = await deleteSessionUploads(tx, sessionId);
    await deleteVerifyDetails(tx, sessionId);
    await deleteSessionNameTokens(tx, sessionId);
    await deleteVerifyConsent(tx, sessionId);
    await deleteLivenessChallenges(tx, sessionId);
    await deleteVerifyHandoffs(tx, sessionId);
    return keys;
  });
  // Ciphertext is deleted through the host's store directly: no key is needed to delete.
  const blobs: BlobStore | undefined = deps.blobs;
  if (blobs) await Promise.all(blobKeys.map((key) => blobs.delete(key)));
  await forgetUnreferencedBlobs(db, blobKeys);
  return blobKeys.length;
}
