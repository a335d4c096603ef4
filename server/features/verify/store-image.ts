import type { AppDeps } from '../../app-deps.ts';
import type { BlobStore } from '../../store/blobs/blob-store.ts';
import { imageDigestIndex, uploadBlobKey } from '../evidence/evidence-keys.ts';
import type { SessionRow } from '../../store/sessions.ts';
import { noteUnreferencedBlob } from '../../store/unreferenced-blobs.ts';

/**
 * Puts an image's bytes (encrypted by the store) before any row names them, so a crash never leaves a row
 * without bytes; the key is journaled first (committed on its own), so bytes a crash leaves without their
 * row are found and deleted by the retention sweeper. Returns what the row needs; `insertUpload` takes
 * the key off the journal.
 */
export async function storeImageBytes(
  deps: Pick<AppDeps, 'ids' | 'cipher' | 'db' | 'clock'>,
  blobs: BlobStore,
  session: SessionRow,
  bytes: Uint8Array,
): Promise<{ id: string; blobKey: string; digest: string }> {
  const id = deps.ids('upl');
  const blobKey = uploadBlobKey({
    id,
    tenant_id: session.tenant_id,
    environment: session.environment,
    session_id: session.id,
  });
  await noteUnreferencedBlob(deps.db, blobKey, deps.clock.now());
  await blobs.put(blobKey, bytes);
  return { id, blobKey, digest: await imageDigestIndex(deps.cipher, bytes) };
}

/** Best-effort removal of bytes whose row was never written. */
export async function discardImageBytes(blobs: BlobStore, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map((key) => blobs.delete(key).catch(() => {})));
}
