import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { ImageAnalysis } from '../../../server/features/evidence/image-analyzer.ts';
import { assessQuality } from '../../../server/features/evidence/quality.ts';
import { sharpImageAnalyzer } from '../../../server/runtime/node/sharp-image-analyzer.ts';
import { blankJpeg, documentJpeg, transformJpeg } from './synthetic-images.ts';

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
      veryBlurred: await transformJpeg(sharp, (image) => image.blur(20)),
      cardOnly: await transformJpeg(sharp, (image) =>
        image.extract({ left: 200, top: 160, width: 1200, height: 860 }).resize(1600),
      ),
      wall: await blankJpeg({ level: 170, noise: 10 }),
      noisyWall: await blankJpeg({ level: 170, noise: 30 }),
      coveredLens: await blankJpeg({ level: 6, noise: 6 }),
      blankSheet: await blankJpeg({ level: 235, noise: 6 }),
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

  it('reports an almost uniform frame (a wall, even with heavy sensor noise) as `no_document`, not as blur', () => {
    assert.deepEqual(assessQuality(analyses['wall']!, 'document'), { ok: false, issues: ['no_document'] });
    assert.deepEqual(assessQuality(analyses['noisyWall']!, 'document').issues, ['no_document']);
    assert.deepEqual(assessQuality(analyses['blankSheet']!, 'document').issues, ['no_document']);
  });

  it('reports a covered lens as both `too_dark` and `no_document`', () => {
    assert.deepEqual(assessQuality(analyses['coveredLens']!, 'document').issues, ['too_dark', 'no_document']);
  });

  it('never reports `no_document` for a real card, however blurred, dark or closely framed', () => {
    for (const name of [
      'sharp',
      'slightlySoft',
      'blurred',
      'veryBlurred',
      'glare',
      'dark',
      'tiny',
      'cardOnly',
    ]) {
      assert.ok(!assessQuality(analyses[name]!, 'document').issues.includes('no_document'), name);
    }
    assert.deepEqual(assessQuality(analyses['veryBlurred']!, 'document').issues, ['blurry']);
    assert.deepEqual(assessQuality(analyses['cardOnly']!, 'document').issues, []);
  });

  it('does not report `no_document` without a contrast measurement, nor for selfies', () => {
    const { contrast: _unmeasured, ...withoutContrast } = analyses['wall']!;
    assert.ok(!assessQuality(withoutContrast, 'document').issues.includes('no_document'));
    assert.ok(!assessQuality(analyses['wall']!, 'selfie').issues.includes('no_document'));
  });

  it('holds a selfie to the softer selfie thresholds', () => {
    const webcam: ImageAnalysis = { ...analyses['sharp']!, width: 640, height: 480, sharpness: 40 };
    assert.deepEqual(assessQuality(webcam, 'selfie').issues, []);
    assert.deepEqual(assessQuality(webcam, 'document').issues, ['blurry']);
    const tiny: ImageAnalysis = { ...webcam, width: 400, height: 300 };
    assert.deepEqual(assessQuality(tiny, 'selfie').issues, ['too_small']);
  });
});

describe('genuine scans are not refused for quality', () => {
  it('accepts a clean 900 px wide scan of a card filling the image: its detail is enough to read', async () => {
    const scan = await transformJpeg(await documentJpeg(), (image) =>
      image.extract({ left: 180, top: 140, width: 1240, height: 900 }).resize(900),
    );
    const analysis = await analyzer.analyze(scan);
    assert.equal(analysis.width, 900);
    assert.deepEqual(assessQuality(analysis, 'document'), { ok: true, issues: [] });
  });

  it('does not count a scan’s white margin or a white background as glare', async () => {
    const card = await transformJpeg(await documentJpeg(), (image) =>
      image.extract({ left: 180, top: 140, width: 1240, height: 900 }),
    );
    // The card on a white page: a third of the image is pure white, all of it reaching the border.
    const scan = await transformJpeg(card, (image) =>
      image.extend({ top: 300, bottom: 300, left: 300, right: 300, background: '#ffffff' }),
    );
    const analysis = await analyzer.analyze(scan);
    assert.ok(analysis.glareRatio < 0.01, `specular share ${analysis.glareRatio}`);
    assert.deepEqual(assessQuality(analysis, 'document'), { ok: true, issues: [] });
  });

  it('still reports a highlight inside the picture, on a white page too', async () => {
    const glare = await transformJpeg(await documentJpeg({ glareShare: 0.1 }), (image) =>
      image.extend({ top: 200, bottom: 200, left: 200, right: 200, background: '#ffffff' }),
    );
    assert.deepEqual(assessQuality(await analyzer.analyze(glare), 'document').issues, ['glare']);
  });
});
