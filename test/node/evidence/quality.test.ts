import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { ImageAnalysis } from '../../../server/evidence/image-analyzer.ts';
import { assessQuality } from '../../../server/evidence/quality.ts';
import { sharpImageAnalyzer } from '../../../server/node/sharp-image-analyzer.ts';
import { documentJpeg, transformJpeg } from './synthetic-images.ts';

const analyzer = sharpImageAnalyzer();

describe('document quality on synthetic ID-card photos', () => {
  const analyses: Record<string, ImageAnalysis> = {};
  before(async () => {
    const sharp = await documentJpeg();
    const images = {
      sharp,
      slightlySoft: await transformJpeg(sharp, (image) => image.blur(3)),
      blurred: await transformJpeg(sharp, (image) => image.blur(4)),
      glare: await documentJpeg({ glareShare: 0.1 }),
      dark: await transformJpeg(sharp, (image) => image.linear(0.2, 0)),
      tiny: await documentJpeg({ width: 400, height: 300 }),
    };
    for (const [name, bytes] of Object.entries(images)) analyses[name] = await analyzer.analyze(bytes);
  });

  it('accepts a sharp, well-lit 1600×1200 photo with no issue', () => {
    assert.deepEqual(assessQuality(analyses['sharp']!, 'document'), { ok: true, issues: [] });
  });

  it('does not bounce a slightly soft photo (σ=3 blur) that is still legible', () => {
    assert.deepEqual(assessQuality(analyses['slightlySoft']!, 'document').issues, []);
  });

  it('asks for a retake of a blurred photo (σ=4) as `blurry`, and only that', () => {
    assert.deepEqual(assessQuality(analyses['blurred']!, 'document'), { ok: false, issues: ['blurry'] });
  });

  it('reports a specular hotspot over 10 % of the frame as `glare`', () => {
    assert.ok(analyses['glare']!.glareRatio > 0.05);
    assert.deepEqual(assessQuality(analyses['glare']!, 'document').issues, ['glare']);
  });

  it('reports an under-exposed photo as `too_dark` without also blaming blur', () => {
    assert.deepEqual(assessQuality(analyses['dark']!, 'document').issues, ['too_dark']);
  });

  it('reports a 400×300 photo as `too_small` even though it is sharp', () => {
    assert.deepEqual(assessQuality(analyses['tiny']!, 'document').issues, ['too_small']);
  });

  it('holds a selfie to the softer selfie thresholds', () => {
    const webcam: ImageAnalysis = { ...analyses['sharp']!, width: 640, height: 480, sharpness: 40 };
    assert.deepEqual(assessQuality(webcam, 'selfie').issues, []);
    assert.deepEqual(assessQuality(webcam, 'document').issues.toSorted(), ['blurry', 'too_small']);
  });
});
