import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import { UnprocessableImageError } from '../../../server/features/evidence/image-analyzer.ts';
import { sharpImageAnalyzer } from '../../../server/runtime/node/sharp-image-analyzer.ts';
import { documentJpeg } from './synthetic-images.ts';

const analyzer = sharpImageAnalyzer();

async function refusal(bytes: Uint8Array, options = {}): Promise<UnprocessableImageError> {
  try {
    await sharpImageAnalyzer(options).analyze(bytes);
  } catch (error) {
    assert.ok(error instanceof UnprocessableImageError, `expected UnprocessableImageError, got ${error}`);
    return error;
  }
  assert.fail('the image was accepted');
}

describe('sharpImageAnalyzer', () => {
  let document: Uint8Array;
  before(async () => {
    document = await documentJpeg({ width: 1200, height: 900 });
  });

  it('reports the size and format of a JPEG, PNG and WebP alike', async () => {
    for (const [format, bytes] of [
      ['image/jpeg', document],
      ['image/png', await sharp(document).png().toBuffer()],
      ['image/webp', await sharp(document).webp().toBuffer()],
    ] as const) {
      const analysis = await analyzer.analyze(bytes);
      assert.equal(analysis.format, format);
      assert.equal(analysis.width, 1200);
      assert.equal(analysis.height, 900);
      assert.match(analysis.perceptualHash, /^[0-9a-f]{16}$/);
    }
  });

  it('reports the upright size of a photo stored sideways with an EXIF rotation', async () => {
    const sideways = await sharp(document).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const analysis = await analyzer.analyze(sideways);
    assert.deepEqual([analysis.width, analysis.height], [900, 1200]);
  });

  it('refuses a truncated JPEG as undecodable instead of throwing anything else', async () => {
    const error = await refusal(document.subarray(0, Math.floor(document.length / 2)));
    assert.equal(error.reason, 'undecodable');
  });

  it('refuses bytes that are not an accepted image format before decoding them', async () => {
    assert.equal(
      (await refusal(new TextEncoder().encode('not an image at all'))).reason,
      'unsupported_format',
    );
    const gif = await sharp(document).gif().toBuffer();
    assert.equal((await refusal(gif)).reason, 'unsupported_format');
  });

  it('refuses a JPEG header followed by garbage', async () => {
    const garbage = new Uint8Array(4096).map((_, index) => (index * 31) % 251);
    garbage.set([0xff, 0xd8, 0xff, 0xe0]);
    assert.equal((await refusal(garbage)).reason, 'undecodable');
  });

  it('refuses an image with more pixels than allowed, from its header (decompression bombs)', async () => {
    assert.equal((await refusal(document, { maxInputPixels: 1000 * 1000 })).reason, 'too_many_pixels');
  });
});
