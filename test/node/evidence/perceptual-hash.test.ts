import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import { hammingDistance, perceptualHash } from '../../../server/features/evidence/perceptual-hash.ts';
import { MAX_SAME_FRAME_DISTANCE } from '../../../server/features/evidence/liveness-frames.ts';
import { sharpImageAnalyzer } from '../../../server/runtime/node/sharp-image-analyzer.ts';
import { documentJpeg, faceFrameJpeg } from './synthetic-images.ts';

const analyzer = sharpImageAnalyzer();
const hashOf = async (bytes: Uint8Array) => (await analyzer.analyze(bytes)).perceptualHash;

describe('perceptualHash', () => {
  let frame: Uint8Array;
  before(async () => {
    frame = await faceFrameJpeg(-0.12, 0);
  });

  it('gives the same picture the same hash after re-encoding, resizing or brightening', async () => {
    const original = await hashOf(frame);
    const variants = [
      await sharp(frame).jpeg({ quality: 20 }).toBuffer(),
      await sharp(frame).webp().toBuffer(),
      await sharp(frame).resize(512).jpeg().toBuffer(),
      await sharp(frame).linear(1.1, 0).jpeg().toBuffer(),
    ];
    for (const variant of variants) {
      assert.ok(hammingDistance(original, await hashOf(variant)) <= MAX_SAME_FRAME_DISTANCE);
    }
  });

  it('tells apart frames where the head moved, as the liveness actions ask', async () => {
    const left = await hashOf(frame);
    const right = await hashOf(await faceFrameJpeg(0.12, 0));
    const up = await hashOf(await faceFrameJpeg(0, -0.1));
    for (const [a, b] of [
      [left, right],
      [left, up],
      [right, up],
    ] as const) {
      assert.ok(hammingDistance(a, b) > MAX_SAME_FRAME_DISTANCE * 3, `${a} vs ${b}`);
    }
  });

  it('tells a document photo apart from a selfie', async () => {
    const document = await hashOf(await documentJpeg({ width: 640, height: 480 }));
    assert.ok(hammingDistance(document, await hashOf(frame)) > MAX_SAME_FRAME_DISTANCE * 3);
  });

  it('is defined for an image smaller than its 32×32 grid', () => {
    assert.match(
      perceptualHash({ pixels: new Uint8Array(4).fill(9), width: 2, height: 2 }),
      /^[0-9a-f]{16}$/,
    );
  });
});

describe('hammingDistance', () => {
  it('counts differing bits, case-insensitively', () => {
    assert.equal(hammingDistance('ffffffffffffffff', 'FFFFFFFFFFFFFFFE'), 1);
    assert.equal(hammingDistance('0000000000000000', 'ffffffffffffffff'), 64);
  });

  it('throws on a malformed hash, which is a programming error', () => {
    assert.throws(() => hammingDistance('xyz', '0000000000000000'), RangeError);
  });
});
