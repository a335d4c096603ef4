import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BlobStore } from '../../../server/store/blobs/blob-store.ts';
import { encryptedBlobStore } from '../../../server/store/blobs/encrypted-blob-store.ts';
import { memoryBlobStore } from '../../../server/store/blobs/memory-blob-store.ts';
import { createFieldCipher } from '../../../server/crypto/field-cipher.ts';
import { randomBytes } from '../../../server/crypto/primitives.ts';
import { fileBlobStore } from '../../../server/runtime/node/file-blob-store.ts';

const image = new TextEncoder().encode('\xff\xd8\xff JPEG bytes of someone’s passport');

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

describe('encryptedBlobStore', () => {
  it('stores ciphertext only and gives the plaintext back', async () => {
    const raw = memoryBlobStore();
    const blobs = encryptedBlobStore(raw, await createFieldCipher(randomBytes(32)));
    await blobs.put('ten_1/sandbox/sess_1/upl_1', image);
    const [[, stored]] = [...raw.entries()] as [[string, Uint8Array]];
    assert.ok(!contains(stored, image.subarray(0, 16)), 'no plaintext at rest');
    assert.equal(stored.length, image.length + 5 + 12 + 16, 'magic, IV and tag only');
    assert.deepEqual(await blobs.get('ten_1/sandbox/sess_1/upl_1'), image);
  });

  it('refuses a blob copied under another key, a tampered one, and one read with another master key', async () => {
    const raw = memoryBlobStore();
    const blobs = encryptedBlobStore(raw, await createFieldCipher(randomBytes(32)));
    await blobs.put('a/upl_1', image);
    const stored = (await raw.get('a/upl_1')) as Uint8Array;
    await raw.put('b/upl_2', stored);
    await assert.rejects(blobs.get('b/upl_2'));
    const tampered = stored.slice();
    tampered[tampered.length - 1]! ^= 1;
    await raw.put('a/upl_1', tampered);
    await assert.rejects(blobs.get('a/upl_1'));
    await raw.put('a/upl_1', stored);
    const otherKey = encryptedBlobStore(raw, await createFieldCipher(randomBytes(32)));
    await assert.rejects(otherKey.get('a/upl_1'));
  });

  it('answers null for a missing blob', async () => {
    const blobs = encryptedBlobStore(memoryBlobStore(), await createFieldCipher(randomBytes(32)));
    assert.equal(await blobs.get('nothing/here'), null);
  });
});

describe('fileBlobStore', () => {
  let root: string;
  let blobs: BlobStore;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'idv-blobs-'));
    blobs = fileBlobStore(root);
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('writes one file per key, reads it back, replaces it and deletes it (twice without error)', async () => {
    await blobs.put('ten_1/sandbox/sess_1/upl_1', image);
    assert.deepEqual(await readFile(join(root, 'ten_1', 'sandbox', 'sess_1', 'upl_1')), Buffer.from(image));
    await blobs.put('ten_1/sandbox/sess_1/upl_1', new Uint8Array([1]));
    assert.deepEqual(await blobs.get('ten_1/sandbox/sess_1/upl_1'), new Uint8Array([1]));
    assert.deepEqual(
      await readdir(join(root, 'ten_1', 'sandbox', 'sess_1')),
      ['upl_1'],
      'no temp files left',
    );
    await blobs.delete('ten_1/sandbox/sess_1/upl_1');
    await blobs.delete('ten_1/sandbox/sess_1/upl_1');
    assert.equal(await blobs.get('ten_1/sandbox/sess_1/upl_1'), null);
  });

  it('refuses keys that could leave its directory', async () => {
    for (const key of ['../escape', 'a/../../b', '/abs', 'a//b', 'a/b.c', '']) {
      await assert.rejects(blobs.put(key, image), RangeError, key);
    }
  });
});
