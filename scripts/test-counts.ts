// Reads pass/fail counts from the test runners' own summaries, for scripts/test.ts.
import { stripVTControlCharacters } from 'node:util';

// Summary lines look like `ℹ pass 12` / `ℹ fail 0` (node:test's spec reporter).
export function nodeTestCounts(output: string) {
  const passed = output.match(/^ℹ pass (\d+)$/m);
  const failed = output.match(/^ℹ fail (\d+)$/m);
  if (!passed || !failed) return undefined;
  return { passed: Number(passed[1]), failed: Number(failed[1]) };
}

// web-test-runner ends with one line per browser group, e.g.
//   Chrome: |██████| 7/7 test files | 63 passed, 0 failed
//   Chrome: |██████| 1/1 test files | 2 passed, 0 failed
//   Finished running tests in 24.1s, all tests passed!
// The block of such lines just before "Finished" is the final tally; earlier ones are progress redraws.
export function browserTestCounts(output: string) {
  const lines = stripVTControlCharacters(output).split('\n');
  let end = lines.findLastIndex((line) => line.startsWith('Finished running tests'));
  if (end < 0) end = lines.length;
  const tally = /(\d+) passed, (\d+) failed/;
  let start = end - 1;
  while (start >= 0 && !tally.test(lines[start]!)) start--;
  if (start < 0) return undefined;
  let passed = 0;
  let failed = 0;
  for (let index = start; index >= 0; index--) {
    const match = tally.exec(lines[index]!);
    if (!match) break;
    passed += Number(match[1]);
    failed += Number(match[2]);
  }
  return { passed, failed };
}
