// The offline demo's stand-ins for `node:crypto` and `Buffer` (demo/node-shims/) against Node's own: the
// shop backend's webhook check runs on them in the page, so a wrong digest would refuse every delivery
// (test/browser/e2e/demo-shop.test.ts runs the whole check on them, offline).
import assert from 'node:assert/strict';
import { createHash, createHmac as nodeHmac, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { BrowserBuffer } from '../../../demo/node-shims/buffer.ts';
import { createHmac, timingSafeEqual } from '../../../demo/node-shims/crypto.ts';
import { sha256 } from '../../../demo/node-shims/sha256.ts';

describe('demo/node-shims', () => {
  it('hashes like Node for every length around the block and padding boundaries', () => {
    for (const length of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 70_000]) {
      const data = randomBytes(length);
      assert.equal(
        Buffer.from(sha256(data)).toString('hex'),
        createHash('sha256').update(data).digest('hex'),
        `length ${length}`,
      );
    }
  });

  it('computes HMAC-SHA256 like Node, for short and long keys, in every output encoding', () => {
    for (const keyLength of [0, 16, 64, 65, 200]) {
      const key = randomBytes(keyLength);
      const message = `payload ${keyLength} ✓`;
      const ours = createHmac('sha256', key).update(message.slice(0, 5)).update(message.slice(5));
      const expected = nodeHmac('sha256', key).update(message).digest();
      assert.deepEqual([...(ours.digest() as Uint8Array)], [...expected], `key of ${keyLength}`);
      assert.equal(createHmac('sha256', key).update(message).digest('hex'), expected.toString('hex'));
      assert.equal(createHmac('sha256', key).update(message).digest('base64'), expected.toString('base64'));
    }
  });

  it('converts like Buffer: utf8, hex and base64 both ways, and stops at bad hex', () => {
    const text = 'Zoë ✓ whsec_';
    assert.equal(BrowserBuffer.from(text, 'utf8').toString('utf8'), text);
    assert.deepEqual([...BrowserBuffer.from(text)], [...Buffer.from(text)]);
    assert.deepEqual([...BrowserBuffer.from('00ff10', 'hex')], [0, 255, 16]);
    assert.deepEqual([...BrowserBuffer.from('00fz10', 'hex')], [0]);
    const bytes = randomBytes(33);
    const base64 = bytes.toString('base64');
    assert.deepEqual([...BrowserBuffer.from(base64, 'base64')], [...bytes]);
    assert.equal(BrowserBuffer.from(bytes).toString('base64'), base64);
    assert.equal(BrowserBuffer.from(bytes).toString('hex'), bytes.toString('hex'));
  });

  it('compares in constant time and refuses different lengths as Node does', () => {
    assert.equal(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2])), true);
    assert.equal(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3])), false);
    assert.throws(() => timingSafeEqual(new Uint8Array([1]), new Uint8Array([1, 2])), RangeError);
  });
});
