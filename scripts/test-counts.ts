// Reads pass/fail counts from the test runners' own summaries, for scripts/test.ts.
import { stripVTControlCharacters } from 'node:util';

export interface Counts {
  passed: number;
  failed: number;
  /** Tests the runner reported as skipped (web-test-runner: e.g. a Chromium-only test in Firefox). */
  skipped?: number;
}

// Summary lines look like `ℹ pass 12` / `ℹ fail 0` (node:test's spec reporter).
export function nodeTestCounts(output: string): Counts | undefined {
  const passed = output.match(/^ℹ pass (\d+)$/m);
  const failed = output.match(/^ℹ fail (\d+)$/m);
  if (!passed || !failed) return undefined;
  return { passed: Number(passed[1]), failed: Number(failed[1]) };
}

// web-test-runner ends with one line per browser launcher (each engine of the main group, each group
// with browsers of its own), named by the launcher, e.g.
//   Chromium: |██████| 7/7 test files | 63 passed, 0 failed
//   Firefox:  |██████| 7/7 test files | 60 passed, 0 failed, 3 skipped
//   Chromium: |██████| 1/1 test files | 2 passed, 0 failed
//   Finished running tests in 24.1s, all tests passed!
// The block of such lines just before "Finished" is the final tally; earlier ones are progress redraws.
const TALLY = /(\d+) passed, (\d+) failed(?:, (\d+) skipped)?/;

function finalTallyLines(output: string): string[] | undefined {
  const lines = stripVTControlCharacters(output).split('\n');
  let end = lines.findLastIndex((line) => line.startsWith('Finished running tests'));
  if (end < 0) end = lines.length;
  let start = end - 1;
  while (start >= 0 && !TALLY.test(lines[start]!)) start--;
  if (start < 0) return undefined;
  const block: string[] = [];
  for (let index = start; index >= 0 && TALLY.test(lines[index]!); index--) block.unshift(lines[index]!);
  return block;
}

/** The final tally per browser name ("Chromium", "Firefox", "WebKit"), groups of one engine added up. */
export function browserTestCountsByEngine(output: string): Map<string, Counts> | undefined {
  const block = finalTallyLines(output);
  if (!block) return undefined;
  const byEngine = new Map<string, Counts>();
  for (const line of block) {
    const match = TALLY.exec(line)!;
    const name = /^\s*([^:|]+?)\s*:/.exec(line)?.[1] ?? 'browser';
    const sum = byEngine.get(name) ?? { passed: 0, failed: 0, skipped: 0 };
    sum.passed += Number(match[1]);
    sum.failed += Number(match[2]);
    sum.skipped = (sum.skipped ?? 0) + Number(match[3] ?? 0);
    byEngine.set(name, sum);
  }
  return byEngine;
}

/** Every engine and group of one run added up. */
export function browserTestCounts(output: string): Counts | undefined {
  const byEngine = browserTestCountsByEngine(output);
  if (!byEngine) return undefined;
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const counts of byEngine.values()) {
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped ?? 0;
  }
  return total;
}

/**
 * The failed tests a runner's output names, with the first line of each error, for the summary (a CI log
 * is often read from its tail, far from where the failure scrolled by). node:test lists them after
 * `✖ failing tests:` as `test at <file>:<line>` and `✖ <name>`; web-test-runner as the file, then
 * ` ❌ <suite> > <name>` and the error. At most `limit` lines.
 */
export function failedTestNames(output: string, limit = 24): string[] {
  const lines = stripVTControlCharacters(output).split('\n');
  const found: string[] = [];
  const failing = lines.findLastIndex((line) => line.startsWith('✖ failing tests:'));
  if (failing >= 0) {
    for (const [offset, line] of lines.slice(failing + 1).entries()) {
      if (line.startsWith('test at ')) found.push(line.slice('test at '.length));
      else if (line.startsWith('✖ ')) {
        const error = lines[failing + 2 + offset]?.trim();
        found.push(`  ${line}${error ? ` — ${error}` : ''}`);
      }
    }
  }
  let file = '';
  for (const [index, line] of lines.entries()) {
    if (/^\S+\.test\.\w+:$/.test(line)) file = line.slice(0, -1);
    const failed = /^\s*❌ (.+)$/.exec(line);
    if (failed) {
      const error = lines[index + 1]?.trim();
      found.push(`${file}: ${failed[1]}${error ? ` — ${error}` : ''}`);
    }
  }
  return [...new Set(found)].slice(0, limit);
}
