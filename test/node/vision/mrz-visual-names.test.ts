import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  namesInDoubt,
  visualNameConfirmations,
} from '../../../server/runtime/node/vision/mrz-visual-names.ts';
import type { VisualWord } from '../../../server/runtime/node/vision/mrz-visual-zone.ts';

const word = (text: string, confidence = 0.97): VisualWord => ({
  text,
  confidences: [...text].map(() => confidence),
});

// The French specimen: `CHRISTOPHE`'s `I` (position 16) in doubt, offered as Tesseract read it.
const passport = ['P<FRAULYSSE<<CHRISTOPHE'.padEnd(44, '<'), '0'.repeat(44)];
const card = [
  'I<UTOD231458907'.padEnd(30, '<'),
  '7408122F1204159UTO'.padEnd(30, '<'),
  'ERIKSSON<<ANNA<MARIA'.padEnd(30, '<'),
];

describe('letters of the names in doubt, confirmed by the visual zone', () => {
  it('is consulted only when a letter of the names is in doubt', () => {
    assert.equal(namesInDoubt('TD3', [[16], []]), true);
    assert.equal(namesInDoubt('TD3', [[2], [4]]), false); // the issuing state and the number: not names
    assert.equal(namesInDoubt('TD1', [[], [], [11]]), true);
  });

  it('confirms a letter the visual zone spells the same, confidently', () => {
    const words = [word('PASSPORT'), word('ULYSSE'), word('CHRISTOPHE'), word('FRA')];
    assert.deepEqual(visualNameConfirmations('TD3', passport, [[16], []], words), [16]);
  });

  it('confirms a name Tesseract split into two words', () => {
    assert.deepEqual(
      visualNameConfirmations('TD3', passport, [[16], []], [word('CHRIS'), word('TOPHE')]),
      [16],
    );
  });

  it('confirms on the third line of a card', () => {
    assert.deepEqual(
      visualNameConfirmations('TD1', card, [[], [], [10, 11]], [word('ANNA'), word('MARIA')]),
      [10, 11],
    );
  });

  it('confirms nothing where the visual zone spells the letter otherwise', () => {
    assert.deepEqual(visualNameConfirmations('TD3', passport, [[16], []], [word('CHRTSTOPHE')]), []);
  });

  it('confirms nothing when two words of the visual zone disagree on the letter', () => {
    const words = [word('CHRISTOPHE'), word('CHRTSTOPHE')];
    assert.deepEqual(visualNameConfirmations('TD3', passport, [[16], []], words), []);
  });

  it('confirms nothing read without confidence', () => {
    assert.deepEqual(visualNameConfirmations('TD3', passport, [[16], []], [word('CHRISTOPHE', 0.6)]), []);
  });

  it('confirms no name too short, or with too few letters read surely, to be told from another field', () => {
    const short = ['P<UTOLI<<BO'.padEnd(44, '<'), '0'.repeat(44)];
    assert.deepEqual(visualNameConfirmations('TD3', short, [[6], []], [word('LI')]), []);
    const mostlyDoubtful = ['P<UTOABE<<ANNA'.padEnd(44, '<'), '0'.repeat(44)];
    assert.deepEqual(visualNameConfirmations('TD3', mostlyDoubtful, [[5, 6], []], [word('ABE')]), []);
  });

  it('leaves the other names in doubt: each name is confirmed on its own', () => {
    // `ULYSSE`'s `Y` (position 7) in doubt too; the visual zone prints only the given name.
    assert.deepEqual(visualNameConfirmations('TD3', passport, [[7, 16], []], [word('CHRISTOPHE')]), [16]);
  });
});
