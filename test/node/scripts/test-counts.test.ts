import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  browserTestCounts,
  browserTestCountsByEngine,
  failedTestNames,
  nodeTestCounts,
} from '../../../scripts/test-counts.ts';

describe('npm test summary counts', () => {
  it("reads node:test's spec summary", () => {
    assert.deepEqual(nodeTestCounts('ℹ tests 12\nℹ pass 10\nℹ fail 2\n'), { passed: 10, failed: 2 });
    assert.equal(nodeTestCounts('no summary'), undefined);
  });

  it('adds up the final line of every browser group, ignoring progress redraws and colours', () => {
    const output = [
      'Chrome: |███     | 2/7 test files | 48 passed, 0 failed',
      'Chrome: |████████| 0/1 test files | 0 passed, 0 failed',
      '',
      'Browser logs: …',
      '',
      '\u001b[32mChrome: |████████| 7/7 test files | 63 passed, 1 failed\u001b[0m',
      'Chrome: |████████| 1/1 test files | 2 passed, 0 failed',
      '',
      'Finished running tests in 24.1s, all tests passed!',
    ].join('\n');
    assert.deepEqual(browserTestCounts(output), { passed: 65, failed: 1, skipped: 0 });
  });

  it('reads a single group without a Finished line, and nothing from unrelated output', () => {
    assert.deepEqual(browserTestCounts('Chrome: | 4/4 test files | 31 passed, 0 failed\n'), {
      passed: 31,
      failed: 0,
      skipped: 0,
    });
    assert.equal(browserTestCounts('Error: Chromium not found'), undefined);
  });

  it('counts each engine apart, its groups added up, with the tests it skipped', () => {
    const output = [
      'Chromium: |███     | 2/7 test files | 48 passed, 0 failed',
      '',
      'Chromium: |████████| 7/7 test files | 63 passed, 1 failed',
      'Firefox:  |████████| 7/7 test files | 60 passed, 0 failed, 4 skipped',
      'WebKit:   |████████| 7/7 test files | 59 passed, 2 failed, 4 skipped',
      'Chromium: |████████| 1/1 test files | 2 passed, 0 failed',
      '',
      'Finished running tests in 80.2s with 3 failed tests.',
    ].join('\n');
    assert.deepEqual(Object.fromEntries(browserTestCountsByEngine(output) ?? []), {
      Chromium: { passed: 65, failed: 1, skipped: 0 },
      Firefox: { passed: 60, failed: 0, skipped: 4 },
      WebKit: { passed: 59, failed: 2, skipped: 4 },
    });
    assert.deepEqual(browserTestCounts(output), { passed: 184, failed: 3, skipped: 8 });
  });

  it('names the failed tests of either runner with the first line of their error', () => {
    const node = [
      '✖ store conformance (pglite) (3628.8ms)',
      'ℹ fail 1',
      '',
      '✖ failing tests:',
      '',
      'test at test/node/store/store-conformance.test.ts:151:7',
      '✖ inserts a session and its event (12.1ms)',
      '  AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
      '      at TestContext.<anonymous> (file:///x.test.ts:163:16)',
    ].join('\n');
    assert.deepEqual(failedTestNames(node), [
      'test/node/store/store-conformance.test.ts:151:7',
      '  ✖ inserts a session and its event (12.1ms) — AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
    ]);
    const browser = [
      '\u001b[2K\u001b[1A\u001b[2K\u001b[Gtest/browser/zz.test.ts:',
      '',
      ' 🚧 Browser logs:',
      '      Lit is in dev mode.',
      '',
      ' ❌ temp suite > fails on purpose',
      '      AssertionError: expected 1 to equal 2',
      'Chromium: |████| 1/1 test files | 0 passed, 1 failed',
    ].join('\n');
    assert.deepEqual(failedTestNames(browser), [
      'test/browser/zz.test.ts: temp suite > fails on purpose — AssertionError: expected 1 to equal 2',
    ]);
    assert.deepEqual(failedTestNames('ℹ pass 3\nℹ fail 0'), []);
  });
});
