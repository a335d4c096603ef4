import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { sniffImageType } from '../../../server/features/evidence/sniff-image-type.ts';
import { documentJpeg } from './synthetic-images.ts';

const small = () => sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } });

describe('sniffImageType', () => {
  it('recognises a JPEG, a PNG and a WebP made by an encoder', async () => {
    assert.equal(sniffImageType(await small().jpeg().toBuffer()), 'image/jpeg');
    assert.equal(sniffImageType(await small().png().toBuffer()), 'image/png');
    assert.equal(sniffImageType(await small().webp().toBuffer()), 'image/webp');
    assert.equal(sniffImageType(await small().webp({ lossless: true }).toBuffer()), 'image/webp');
  });

  it('goes by the bytes, so a JPEG uploaded as "scan.png" with type image/png is a JPEG', async () => {
    const upload = new File([await documentJpeg({ width: 64, height: 48 })], 'scan.png', {
      type: 'image/png',
    });
    assert.equal(sniffImageType(new Uint8Array(await upload.arrayBuffer())), 'image/jpeg');
  });

  it('refuses formats the API does not accept even when they are images (GIF, TIFF, SVG, PDF)', async () => {
    assert.equal(sniffImageType(await small().gif().toBuffer()), null);
    assert.equal(sniffImageType(await small().tiff().toBuffer()), null);
    assert.equal(sniffImageType(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')), null);
    assert.equal(sniffImageType(new TextEncoder().encode('%PDF-1.7\n')), null);
  });

  it('refuses empty input, a lone JPEG start marker and a RIFF file that is not WebP', () => {
    assert.equal(sniffImageType(new Uint8Array()), null);
    assert.equal(sniffImageType(new Uint8Array([0xff, 0xd8])), null);
    const wave = new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt ');
    assert.equal(sniffImageType(wave), null);
    assert.equal(sniffImageType(new TextEncoder().encode('RIFF\0\0\0\0WEBP')), null);
  });
});
