import assert from 'node:assert/strict';
import * as nodeCrypto from 'node:crypto';
import { describe, it } from 'node:test';
import { createFieldCipher } from '../../../server/crypto/field-cipher.ts';
import { randomBytes, sha256Hex } from '../../../server/crypto/primitives.ts';

// The server encrypts with Node's synchronous crypto, the browser mock with Web Crypto: data written by
// one must read back with the other, byte for byte the same format.
describe('field cipher', () => {
  const masterKey = randomBytes(32);

  it('reads back on Web Crypto what Node wrote, and the other way round', async () => {
    const native = await createFieldCipher(masterKey, { native: nodeCrypto });
    const web = await createFieldCipher(masterKey, { native: undefined });
    const fromNode = await native.encrypt('Jane Ödön Doe', 'identity:idn_1');
    const fromWeb = await web.encrypt('Jane Ödön Doe', 'identity:idn_1');
    assert.equal(await web.decrypt(fromNode, 'identity:idn_1'), 'Jane Ödön Doe');
    assert.equal(await native.decrypt(fromWeb, 'identity:idn_1'), 'Jane Ödön Doe');
    assert.equal(
      await native.blindIndex('P1234567', 'document_number'),
      await web.blindIndex('P1234567', 'document_number'),
    );
    assert.equal(
      await native.derivedSecret('verify', 'sess_1', 128),
      await web.derivedSecret('verify', 'sess_1', 128),
    );
  });

  for (const [name, native] of [
    ['Node', nodeCrypto],
    ['Web Crypto', undefined],
  ] as const) {
    it(`refuses a ciphertext moved to another context (${name})`, async () => {
      const cipher = await createFieldCipher(masterKey, { native });
      const sealed = await cipher.encrypt('secret', 'session.metadata:sess_a');
      await assert.rejects(cipher.decrypt(sealed, 'session.metadata:sess_b'));
    });

    it(`refuses a tampered or truncated ciphertext (${name})`, async () => {
      const cipher = await createFieldCipher(masterKey, { native });
      const sealed = await cipher.encrypt('secret value', 'ctx');
      const [version, iv, body] = sealed.split('.') as [string, string, string];
      const flipped = `${version}.${iv}.${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
      await assert.rejects(cipher.decrypt(flipped, 'ctx'));
      await assert.rejects(cipher.decrypt(`${version}.${iv}.${body.slice(0, 8)}`, 'ctx'));
      await assert.rejects(cipher.decrypt('v0.abc.def', 'ctx'), /format/);
    });

    it(`never repeats a ciphertext for the same plaintext (${name})`, async () => {
      const cipher = await createFieldCipher(masterKey, { native });
      assert.notEqual(await cipher.encrypt('same', 'ctx'), await cipher.encrypt('same', 'ctx'));
    });
  }

  it('refuses a master key that is not 32 bytes', async () => {
    await assert.rejects(createFieldCipher(randomBytes(16)), /32 bytes/);
  });

  it('hashes with the standard SHA-256', async () => {
    assert.equal(await sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
