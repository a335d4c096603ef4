// The table-driven encoders must give exactly what the textbook versions give: stored ids, verify tokens,
// blind indexes and ciphertexts were written with those, and a changed digit would orphan them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromBase64Url, toBase62, toBase64Url, toHex } from '../../../server/crypto/encoding.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function textbookBase62(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(Math.ceil((bytes.length * 8) / Math.log2(62)), '0');
}

/** Every length up to 70 bytes, each with random, all-zero, all-0xff and leading-zero inputs. */
function* samples(): Generator<Uint8Array> {
  for (let length = 0; length <= 70; length++) {
    yield new Uint8Array(length);
    yield new Uint8Array(length).fill(0xff);
    for (let round = 0; round < 20; round++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      bytes.fill(0, 0, Math.min(length, round % 4));
      yield bytes;
    }
  }
}

describe('encoding', () => {
  it('encodes base62 digit for digit like BigInt division, leading zeros kept', () => {
    for (const bytes of samples()) assert.equal(toBase62(bytes), textbookBase62(bytes), `${bytes}`);
  });

  it('encodes and decodes base64url like Buffer, unpadded', () => {
    for (const bytes of samples()) {
      const encoded = toBase64Url(bytes);
      assert.equal(encoded, Buffer.from(bytes).toString('base64url'));
      assert.deepEqual(fromBase64Url(encoded), new Uint8Array(bytes));
    }
  });

  it('still decodes padded and standard-alphabet base64, and refuses what is not base64', () => {
    const bytes = Uint8Array.from([0xfb, 0xff, 0xbf, 0x01]);
    assert.deepEqual(fromBase64Url(Buffer.from(bytes).toString('base64')), bytes);
    assert.deepEqual(fromBase64Url('-_-_AQ=='), Uint8Array.from([0xfb, 0xff, 0xbf, 0x01]));
    assert.throws(() => fromBase64Url('abcde'));
    assert.throws(() => fromBase64Url('ab$d'));
  });

  it('writes lowercase hex', () => {
    for (const bytes of samples()) assert.equal(toHex(bytes), Buffer.from(bytes).toString('hex'));
  });
});
