import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import { FRAMEWORKS_DIR, generateFrameworkTypes } from '../../../scripts/generate-framework-types.ts';

describe('the framework typings of <id-verify>', () => {
  it('match a fresh generation from the custom-elements manifest (run `node scripts/generate-framework-types.ts` when not)', () => {
    const fresh = generateFrameworkTypes();
    assert.equal(fresh.size, 4);
    for (const [path, text] of fresh) {
      assert.match(text, /'id-verify'/, 'the generation typed the element');
      assert.ok(
        readFileSync(path, 'utf8') === text,
        `${relative(FRAMEWORKS_DIR, path)} differs from the manifest: run node scripts/generate-framework-types.ts`,
      );
    }
  });
});
