import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  blackInkView,
  colouredInkShare,
  MIN_COLOURED_INK_SHARE,
} from '../../../server/runtime/node/vision/black-ink-view.ts';
import type { RawImage } from '../../../server/runtime/node/vision/decode-upright.ts';

/** A 40 × 40 RGB image of `paper`, with the top `rows` rows painted `ink`. */
function image(paper: [number, number, number], ink: [number, number, number], rows: number): RawImage {
  const width = 40;
  const height = 40;
  const data = new Uint8Array(width * height * 3);
  for (let p = 0; p < width * height; p++) data.set(p < rows * width ? ink : paper, p * 3);
  return { data, width, height, channels: 3 };
}

const PAPER: [number, number, number] = [236, 232, 222];
const RED_STAMP: [number, number, number] = [196, 40, 45];
const BLACK_PRINT: [number, number, number] = [28, 28, 30];
const PASTEL_GUILLOCHE: [number, number, number] = [190, 215, 200];

describe('the black-ink view of a document photo', () => {
  it('washes a red stamp out towards the paper and keeps black print dark', () => {
    const stamped = blackInkView(image(PAPER, RED_STAMP, 10));
    assert.equal(stamped.data[0], 196, 'the stamp is as bright as its red channel');
    const printed = blackInkView(image(PAPER, BLACK_PRINT, 10));
    assert.equal(printed.data[0], 30, 'black print stays black');
    assert.equal(printed.data[3 * 40 * 20], 236, 'the paper stays paper');
  });

  it('counts coloured ink, not pale security print or black print', () => {
    assert.ok(colouredInkShare(image(PAPER, RED_STAMP, 4)) >= MIN_COLOURED_INK_SHARE);
    assert.equal(colouredInkShare(image(PAPER, PASTEL_GUILLOCHE, 20)), 0);
    assert.equal(colouredInkShare(image(PAPER, BLACK_PRINT, 20)), 0);
  });

  it('leaves a gray image as it is', () => {
    const gray: RawImage = { data: new Uint8Array([10, 200]), width: 2, height: 1, channels: 1 };
    assert.equal(blackInkView(gray), gray);
    assert.equal(colouredInkShare(gray), 0);
  });
});
