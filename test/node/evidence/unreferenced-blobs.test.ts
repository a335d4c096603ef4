// Bytes a crash leaves without their row (stored before the upload row, or left after the rows' deletion
// at retention) are journaled (migration 011) and deleted by the retention sweeper once older than its
// grace; the crash loop (test/node/server/crash-loop.ts) finds them under real SIGKILLs, this pins
// the rules down one by one.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileBlobStore } from '../../../server/runtime/node/file-blob-store.ts';
import {
  createRetentionSweeper,
  UNREFERENCED_BLOB_GRACE_MS,
} from '../../../server/workers/retention-sweeper.ts';
import { deleteSessionEvidence } from '../../../server/features/evidence/delete-session-evidence.ts';
import { noteUnreferencedBlob } from '../../../server/store/unreferenced-blobs.ts';
import { createHarness, type TestHarness } from '../support/test-app.ts';
import { testEngines } from '../support/test-database.ts';
import { createConsentedSession, documentForm, makeImages, verifyCall } from '../verify/verify-support.ts';

for (const engine of testEngines()) {
  describe(`blobs no row names (${engine})`, () => {
    let h: TestHarness;
    let images: Awaited<ReturnType<typeof makeImages>>;
    before(async () => {
      h = await createHarness(engine);
      images = await makeImages();
    });
    after(() => h.close());

    const journal = async () =>
      (await h.deps.db.query<{ key: string }>('select key from unreferenced_blobs order by key')).map(
        (row) => row.key,
      );

    it('an upload journals its key before the bytes and takes it off with its row', async () => {
      const session = await createConsentedSession(h, { tier: 'tier1' });
      // What the journal held at the moment the bytes were stored.
      const journaledAtPut: boolean[] = [];
      const put = h.blobs.put;
      h.blobs.put = async (key, bytes) => {
        journaledAtPut.push((await journal()).includes(key));
        return put(key, bytes);
      };
      let upload: Response;
      try {
        upload = await verifyCall(h, 'POST', '/v1/verify/documents', {
          token: session.token,
          form: documentForm(images.front),
        });
      } finally {
        h.blobs.put = put;
      }
      assert.equal(upload.status, 201);
      assert.deepEqual(journaledAtPut, [true], 'the key is journaled before its bytes are stored');
      const [row] = await h.deps.db.query<{ blob_key: string }>(
        'select blob_key from verify_uploads where session_id = $1',
        [session.sessionId],
      );
      assert.ok(row && [...h.blobs.entries()].some(([key]) => key === row.blob_key), 'the bytes are stored');
      assert.deepEqual(await journal(), [], 'a finished upload leaves nothing journaled');

      // Retention deletes the rows, then the bytes; the keys pass through the journal on the way.
      await deleteSessionEvidence(h.deps.db, h.deps, session.sessionId);
      assert.ok(![...h.blobs.entries()].some(([key]) => key === row.blob_key));
      assert.deepEqual(await journal(), []);
    });

    it('the sweeper deletes journaled bytes past the grace, and only those', async () => {
      const now = h.clock.now();
      const cut = 'ten_x/sandbox/sess_cut/upl_cut';
      const fresh = 'ten_x/sandbox/sess_live/upl_live';
      // A write a crash cut after its bytes were stored, and one still under way.
      await noteUnreferencedBlob(h.deps.db, cut, new Date(now.getTime() - UNREFERENCED_BLOB_GRACE_MS - 1));
      await h.blobs.put(cut, new Uint8Array([1]));
      await noteUnreferencedBlob(h.deps.db, fresh, now);
      await h.blobs.put(fresh, new Uint8Array([2]));

      const swept = await createRetentionSweeper(h.deps).runOnce();
      assert.equal(swept.unreferencedBlobs, 1);
      assert.equal(await h.blobs.get(cut), null, 'the abandoned bytes are gone');
      assert.deepEqual(await h.blobs.get(fresh), new Uint8Array([2]), 'a live write keeps its bytes');
      assert.deepEqual(await journal(), [fresh]);

      // Rows deleted but bytes not yet (a crash between the two): due at once, not after the grace.
      await h.deps.db.query('delete from unreferenced_blobs');
      await h.deps.db.query(`insert into unreferenced_blobs (key, since) values ($1, '-infinity')`, [cut]);
      await h.blobs.put(cut, new Uint8Array([3]));
      assert.equal((await createRetentionSweeper(h.deps).runOnce()).unreferencedBlobs, 1);
      assert.equal(await h.blobs.get(cut), null);
    });
  });
}

describe('the file blob store', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'idv-unreferenced-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('deletes the temporary files a cut write left beside a key with the key, and no other', async () => {
    const store = fileBlobStore(root);
    await store.put('ten_1/sandbox/sess_1/upl_1', new Uint8Array([1]));
    await store.put('ten_1/sandbox/sess_1/upl_10', new Uint8Array([2]));
    const dir = join(root, 'ten_1', 'sandbox', 'sess_1');
    await writeFile(join(dir, 'upl_1.Zx81kq.tmp'), 'half');
    await writeFile(join(dir, 'upl_10.Ab12cd.tmp'), 'half');
    await store.delete('ten_1/sandbox/sess_1/upl_1');
    assert.deepEqual((await readdir(dir)).sort(), ['upl_10', 'upl_10.Ab12cd.tmp']);
    await store.delete('ten_1/sandbox/sess_1/absent');
    await store.delete('ten_9/sandbox/sess_9/upl_9');
  });
});
