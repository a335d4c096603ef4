import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  chipQuality,
  extractFaceChip,
  FACE_CHIP_PADDING,
  FACE_CHIP_SIZE,
  faceChipTransform,
  similarityTransform,
} from '../../../server/runtime/node/vision/face-chip.ts';
import type { MeshPoint } from '../../../server/runtime/node/vision/face-geometry.ts';

/** dlib's 5-point template in chip pixels (face-chip.ts), to check where the landmarks land. */
const TEMPLATE = [
  [0.8595674595992, 0.2134981538014],
  [0.6460604764104, 0.2289674387677],
  [0.1205750620789, 0.2137274526848],
  [0.3340850613712, 0.2290642403242],
  [0.4901123135679, 0.6277975316475],
].map(([x, y]) => [
  ((FACE_CHIP_PADDING + (x as number)) / (2 * FACE_CHIP_PADDING + 1)) * FACE_CHIP_SIZE,
  ((FACE_CHIP_PADDING + (y as number)) / (2 * FACE_CHIP_PADDING + 1)) * FACE_CHIP_SIZE,
]);
const MESH_INDICES = [263, 362, 33, 133, 2];

/** A 478-point mesh whose five chip landmarks sit at `points` (image pixels); the rest at the origin. */
function meshWith(points: readonly (readonly [number, number])[]): MeshPoint[] {
  const mesh: MeshPoint[] = Array.from({ length: 478 }, () => [0, 0, 0] as const);
  MESH_INDICES.forEach((index, i) => {
    const [x, y] = points[i] as [number, number];
    mesh[index] = [x, y, 0];
  });
  return mesh;
}

const apply = (t: { a: number; b: number; tx: number; ty: number }, [x, y]: readonly number[]) => [
  t.a * (x as number) - t.b * (y as number) + t.tx,
  t.b * (x as number) + t.a * (y as number) + t.ty,
];

describe("dlib's face chip from the mesh (face-chip.ts)", () => {
  it('finds the exact similarity transform between matching point sets', () => {
    const t = similarityTransform(
      [
        [0, 0],
        [1, 0],
        [0, 1],
      ],
      [
        [10, 10],
        [10, 12],
        [8, 10],
      ],
    );
    assert.ok(Math.abs(t.a) < 1e-9 && Math.abs(t.b - 2) < 1e-9, JSON.stringify(t));
    assert.ok(Math.abs(t.tx - 10) < 1e-9 && Math.abs(t.ty - 10) < 1e-9);
  });

  it("maps a face's five landmarks onto dlib's template, whatever the face's size, place and roll", () => {
    // The template scaled 3×, turned 20° and moved: a rolled face three times the chip's size.
    const angle = (20 * Math.PI) / 180;
    const image = TEMPLATE.map(([x, y]) => [
      3 * (Math.cos(angle) * (x as number) - Math.sin(angle) * (y as number)) + 400,
      3 * (Math.sin(angle) * (x as number) + Math.cos(angle) * (y as number)) + 250,
    ]) as [number, number][];
    const toChip = faceChipTransform(meshWith(image));
    image.forEach((point, i) => {
      const [u, v] = apply(toChip, point);
      const [x, y] = TEMPLATE[i] as number[];
      assert.ok(
        Math.abs((u as number) - (x as number)) < 1e-6 && Math.abs((v as number) - (y as number)) < 1e-6,
      );
    });
  });

  it('samples the image into a 150 × 150 RGB chip, black outside the image, mirrored on request', () => {
    // A 300 × 300 image, left half red and right half blue, and the identity transform scaled 2×.
    const width = 300;
    const data = new Uint8Array(width * width * 3);
    for (let y = 0; y < width; y++) {
      for (let x = 0; x < width; x++) {
        const offset = (y * width + x) * 3;
        if (x < 150) data[offset] = 200;
        else data[offset + 2] = 200;
      }
    }
    const image = { data, width, height: width, channels: 3 as const };
    const toChip = { a: 0.5, b: 0, tx: 0, ty: 0 };
    const chip = extractFaceChip(image, toChip);
    assert.equal(chip.length, FACE_CHIP_SIZE * FACE_CHIP_SIZE * 3);
    const at = (rgb: Float32Array, u: number, v: number) =>
      Array.from(rgb.subarray((v * FACE_CHIP_SIZE + u) * 3, (v * FACE_CHIP_SIZE + u) * 3 + 3)).map(
        Math.round,
      );
    assert.deepEqual(at(chip, 10, 75), [200, 0, 0]);
    assert.deepEqual(at(chip, 140, 75), [0, 0, 200]);
    const mirrored = extractFaceChip(image, toChip, { mirror: true });
    assert.deepEqual(at(mirrored, 10, 75), [0, 0, 200]);
    // Shifted so that the chip's right half falls outside the image: black.
    const outside = extractFaceChip(image, { a: 0.5, b: 0, tx: -75, ty: 0 });
    assert.deepEqual(at(outside, 149, 75), [0, 0, 0]);
  });

  it('refuses a grey image and coinciding points', () => {
    const grey = { data: new Uint8Array(4), width: 2, height: 2, channels: 1 as const };
    assert.throws(() => extractFaceChip(grey, { a: 1, b: 0, tx: 0, ty: 0 }), /RGB/);
    assert.throws(() =>
      similarityTransform(
        [
          [1, 1],
          [1, 1],
        ],
        [
          [0, 0],
          [1, 1],
        ],
      ),
    );
  });

  describe('chipQuality', () => {
    const size = FACE_CHIP_SIZE;
    /** A synthetic "face": mid-grey skin with fine texture, darker eye patches with a bright glint. */
    const chip = (options: { blur?: boolean; sunglasses?: boolean } = {}) => {
      const rgb = new Float32Array(size * size * 3);
      const eyes = [
        [47.7, 47.1],
        [100.3, 47.1],
      ];
      for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
          // A checkerboard of 1-pixel cells is the finest detail; blurred, only its mean is left.
          let value = 150 + (options.blur ? 0 : (x + y) % 2 === 0 ? 20 : -20) + 0.3 * (y - 75);
          for (const [ex, ey] of eyes) {
            const dx = Math.abs(x - (ex as number));
            const dy = Math.abs(y - (ey as number));
            // A lens is larger than the eye it covers.
            if (options.sunglasses && dx < 16 && dy < 10) value = 30;
            else if (!options.sunglasses && dx < 10 && dy < 5) value = dx < 3 ? 60 : 130;
          }
          rgb.set([value, value, value], (y * size + x) * 3);
        }
      }
      return rgb;
    };

    it('scores a blurred chip far less sharp than a detailed one, whatever the brightness', () => {
      const sharp = chipQuality(chip());
      const blurred = chipQuality(chip({ blur: true }));
      assert.ok(sharp.sharpness > 10 * blurred.sharpness, `${sharp.sharpness} vs ${blurred.sharpness}`);
      const darker = chipQuality(chip().map((value) => value * 0.5));
      assert.ok(Math.abs(darker.sharpness - sharp.sharpness) < 1e-6, 'a ratio of variances: no unit');
    });

    it('sees eyes behind dark glasses as much darker than uncovered eyes, relative to the face', () => {
      const open = chipQuality(chip());
      const covered = chipQuality(chip({ sunglasses: true }));
      assert.ok(open.eyes > 0.6, `uncovered ${open.eyes}`);
      assert.ok(covered.eyes < 0.35, `covered ${covered.eyes}`);
    });
  });
});
