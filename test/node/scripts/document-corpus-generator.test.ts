import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tiltedCorners } from '../../../scripts/fixtures/documents/corpus/compose.ts';
import {
  type MrzFormat,
  randomIdentity,
} from '../../../scripts/fixtures/documents/corpus/random-identity.ts';
import { seededRandom } from '../../../scripts/fixtures/documents/scene.ts';
import { parseMrz } from '../../../server/domain/mrz.ts';

const SHAPES: Record<MrzFormat, [lines: number, length: number]> = {
  TD1: [3, 30],
  TD2: [2, 36],
  TD3: [2, 44],
};

// The corpus generator's own logic: its identities and its perspective. Rendering is checked by eye and
// by the bench, not here.
describe('document corpus generator (scripts/fixtures/documents/corpus/)', () => {
  it('makes zones the server verifies, of the right shape, with the names and numbers it drew', () => {
    for (const format of ['TD1', 'TD2', 'TD3'] as const) {
      const random = seededRandom(7);
      for (let i = 0; i < 200; i++) {
        const identity = randomIdentity(random, format);
        const [count, length] = SHAPES[format];
        assert.equal(identity.lines.length, count);
        for (const line of identity.lines) assert.match(line, new RegExp(`^[A-Z0-9<]{${length}}$`));
        const parsed = parseMrz(identity.lines.join('\n'), { now: new Date('2026-11-28T00:00:00Z') });
        assert.equal(parsed.valid, true, identity.lines.join('\n'));
        assert.equal(parsed.format, format);
        assert.equal(parsed.lastName, identity.data.lastName);
        assert.equal(parsed.documentNumber, identity.data.documentNumber);
        assert.equal(parsed.dateOfBirth, identity.data.dateOfBirth);
      }
    }
  });

  it('draws the same identities from the same seed and different ones from another', () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 20 }, () => randomIdentity(random, 'TD3').lines.join('\n'));
    };
    assert.deepEqual(draw(1), draw(1));
    const other = new Set(draw(2));
    assert.equal(
      draw(1).filter((zone) => other.has(zone)).length,
      0,
      'two seeds must not share a zone (the halves are disjoint)',
    );
  });

  it('sees a document tilted about its horizontal axis as a trapezoid, foreshortened, its far edge shorter', () => {
    const [w, h] = [1300, 915];
    const flat = tiltedCorners(w, h, 0, 0, 2.5, 1000, 800, 600);
    assert.deepEqual(
      flat.map(([x, y]) => [Math.round(x), Math.round(y)]),
      [
        [300, 248],
        [1300, 248],
        [1300, 952],
        [300, 952],
      ],
    );

    const [topLeft, topRight, bottomRight, bottomLeft] = tiltedCorners(w, h, 30, 0, 2.5, 1000, 800, 600);
    const top = topRight![0] - topLeft![0];
    const bottom = bottomRight![0] - bottomLeft![0];
    const height = (bottomLeft![1] + bottomRight![1]) / 2 - (topLeft![1] + topRight![1]) / 2;
    // A positive tilt brings the top edge nearer: it is the longer one and spans the requested width.
    assert.ok(bottom < top - 100, `far edge ${bottom} should be clearly shorter than near edge ${top}`);
    assert.ok(Math.abs(top - 1000) < 1, 'the near edge spans the requested width');
    // cos 30° ≈ 0.87 of the flat height (704 px at this scale), less the perspective's own shrink.
    assert.ok(height < 704 * 0.9 && height > 704 * 0.75, `height ${height}`);
  });
});
