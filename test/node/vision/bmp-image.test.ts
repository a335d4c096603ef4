import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeBmp } from '../../../bench/accuracy/bmp-image.ts';

/** A BMP of `width` × 2 (bottom-up) with BITMAPINFOHEADER: `pixels` are the stored rows, padded here. */
function bmp(bits: 8 | 24, width: number, rows: number[][], palette: number[][] = []): Buffer {
  const rowBytes = Math.ceil((width * bits) / 32) * 4;
  const paletteBytes = palette.length * 4;
  const pixelsAt = 14 + 40 + paletteBytes;
  const file = Buffer.alloc(pixelsAt + rowBytes * rows.length);
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(pixelsAt, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(width, 18);
  file.writeInt32LE(rows.length, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(bits, 28);
  file.writeUInt32LE(palette.length, 46);
  for (const [i, [b, g, r]] of palette.entries())
    file.set([b as number, g as number, r as number, 0], 54 + i * 4);
  for (const [y, row] of rows.entries()) file.set(row, pixelsAt + y * rowBytes);
  return file;
}

describe('decodeBmp', () => {
  it('reads 24-bit rows bottom-up, blue-green-red, past the row padding', () => {
    // Stored bottom row first: the bottom row is blue then white, the top row red then black.
    const file = bmp(24, 2, [
      [255, 0, 0, 255, 255, 255],
      [0, 0, 255, 0, 0, 0],
    ]);
    const { data, width, height } = decodeBmp(file);
    assert.deepEqual([width, height], [2, 2]);
    assert.deepEqual([...data], [255, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255]);
  });

  it('reads 8-bit rows through the palette', () => {
    const palette = [
      [0, 0, 0],
      [10, 20, 30],
    ];
    const { data } = decodeBmp(
      bmp(
        8,
        3,
        [
          [1, 0, 1],
          [0, 0, 0],
        ],
        palette,
      ),
    );
    // Top row (stored second) black; bottom row: palette 1 (stored B 10, G 20, R 30), 0, 1.
    assert.deepEqual([...data.subarray(9)], [30, 20, 10, 0, 0, 0, 30, 20, 10]);
  });

  it('refuses what it does not read', () => {
    assert.throws(() => decodeBmp(Buffer.from('GIF89a')), /not a BMP/);
    const compressed = bmp(24, 1, [[0, 0, 0]]);
    compressed.writeUInt32LE(1, 30);
    assert.throws(() => decodeBmp(compressed), /compressed BMP/);
    const index = bmp(8, 1, [[5]], [[0, 0, 0]]);
    assert.throws(() => decodeBmp(index), /palette index 5/);
  });
});
