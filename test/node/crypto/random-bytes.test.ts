// randomBytes cuts small values from a pooled CSPRNG block: every value must still be fresh, the right
// length and independent of the others, across pool refills and for every size.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomBytes } from '../../../server/crypto/primitives.ts';
import { toHex } from '../../../server/crypto/encoding.ts';

describe('randomBytes', () => {
  it('never repeats a value across many pool refills, at every size', () => {
    const seen = new Set<string>();
    for (let round = 0; round < 20_000; round++) {
      const length = 8 + (round % 57); // 8..64 bytes: pooled sizes, misaligned so refills land mid-value
      const bytes = randomBytes(length);
      assert.equal(bytes.length, length);
      const hex = toHex(bytes);
      assert.ok(!seen.has(hex), `value repeated at round ${round}`);
      seen.add(hex);
    }
  });

  it('draws larger values straight from the CSPRNG', () => {
    const a = randomBytes(4096);
    const b = randomBytes(4096);
    assert.equal(a.length, 4096);
    assert.notDeepEqual(a, b);
  });

  it('spreads bytes evenly (a chi-square check that a pooling bug like zeroed or reused bytes fails)', () => {
    const counts = new Array<number>(256).fill(0);
    let total = 0;
    for (let round = 0; round < 16_000; round++) {
      for (const byte of randomBytes(16)) counts[byte] = (counts[byte] as number) + 1;
      total += 16;
    }
    const expected = total / 256;
    const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    // 255 degrees of freedom: 420 is beyond the 1 - 1e-8 quantile; zeroed bytes would give thousands.
    assert.ok(chiSquare < 420, `chi-square ${chiSquare.toFixed(0)}`);
  });
});
