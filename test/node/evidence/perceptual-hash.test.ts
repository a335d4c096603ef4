import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import { hammingDistance, perceptualHash } from '../../../src/capture/quality/perceptual-hash.ts';
import { analysisSize } from '../../../src/capture/quality/capture-quality.ts';
import { lumaOfRgba } from '../../../src/capture/quality/luma-image.ts';
import {
  DEVICE_REPEAT_MARGIN,
  MAX_SAME_FRAME_DISTANCE,
  repeatedFramePair,
} from '../../../src/capture/quality/repeated-frames.ts';
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

describe('repeatedFramePair: the one judgement of repeated liveness frames', () => {
  const base = 'c3a51e0f9b2d4871';
  /** `base` with its lowest `bits` bits flipped. */
  const flipped = (bits: number) =>
    (BigInt(`0x${base}`) ^ ((1n << BigInt(bits)) - 1n)).toString(16).padStart(16, '0');

  it('names the first pair within the judge’s distance, in order', () => {
    assert.deepEqual(repeatedFramePair([base, flipped(40), flipped(2)], 'server'), [0, 2]);
    assert.equal(repeatedFramePair([base, flipped(40), flipped(20)], 'server'), null);
  });

  it('is stricter on the device: every set the device would send, the server takes as distinct', () => {
    for (let bits = 0; bits <= 12; bits++) {
      const pair = [base, flipped(bits)];
      const device = repeatedFramePair(pair, 'device');
      const server = repeatedFramePair(pair, 'server');
      if (device === null) assert.equal(server, null, `${bits} bits`);
      assert.equal(server !== null, bits <= MAX_SAME_FRAME_DISTANCE, `${bits} bits`);
      assert.equal(device !== null, bits <= MAX_SAME_FRAME_DISTANCE + DEVICE_REPEAT_MARGIN, `${bits} bits`);
    }
  });

  it('gives the widget’s capture and the server’s upload of one frame hashes within the margin', async () => {
    // The widget hashes the camera frame's luma at the analysis size, the server the JPEG it was sent
    // (here the frame's pixels downscaled by sharp stand in for the canvas's).
    const frame = await faceFrameJpeg(0.05, 0.02);
    const { width = 0, height = 0 } = await sharp(frame).metadata();
    const { data, info } = await sharp(frame)
      .resize(analysisSize(width, height))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const onDevice = perceptualHash(lumaOfRgba(data, info.width, info.height));
    const onServer = await hashOf(await sharp(frame).jpeg({ quality: 85 }).toBuffer());
    assert.ok(hammingDistance(onDevice, onServer) <= DEVICE_REPEAT_MARGIN, `${onDevice} vs ${onServer}`);
  });
});
