// Parity (issue 6 acceptance): every HTTP-level suite, run a second time with IDV_TEST_TRANSPORT=mock, so
// each request goes through global `fetch` → MSW `setupServer` → the mock's app on the mock's
// dependencies (see mock-transport.ts). Suites are found, not listed: any file that builds its app with
// `createHarness` joins automatically, so a new HTTP suite is held to parity from its first commit.
//
// The suites are dealt to PARITY_SHARDS files (../parity-<n>.test.ts), so the test runner spreads them
// over the machine's cores beside the other files; in one file they were the suite's longest pole.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mockTransportRequestCount } from './mock-transport.ts';

/** How many parity-<n>.test.ts files share the suites; a test below checks each one exists. */
export const PARITY_SHARDS = 4;

const NODE_TESTS = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Suites that use the harness but test something the mock does not claim to be, with the reason.
 * Keep it short: every entry is a parity gap a reader should be able to judge.
 */
const NOT_HTTP_LEVEL: Record<string, string> = {
  'server/fuzz-openapi.test.ts':
    'fuzzes how the server itself treats hostile requests (URLs of 50,000 characters among them); through the mock, MSW’s own URL matcher throws on any URL over 8,192 characters before the mock’s app sees the request, a limit of the offline tool the fuzz is not about',
  'review-pipeline/vision-decisions.test.ts':
    'runs the real face and OCR models, which the mock never does (it has the deterministic stand-in); the routes and review it drives are the ones every other suite runs through the mock',
};

function harnessSuites(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    const name = relative(NODE_TESTS, path);
    if (entry.isDirectory()) {
      if (name !== 'mock') found.push(...harnessSuites(path));
    } else if (entry.name.endsWith('.test.ts') && !(name in NOT_HTTP_LEVEL)) {
      if (readFileSync(path, 'utf8').includes('createHarness(')) found.push(path);
    }
  }
  return found.sort();
}

/**
 * Runs shard `shard` (1-based) of the HTTP suites through the mock: every PARITY_SHARDS-th suite in name
 * order, so each shard gets a mix of directories.
 */
export async function runParityShard(shard: number): Promise<void> {
  process.env['IDV_TEST_TRANSPORT'] = 'mock';
  const all = harnessSuites(NODE_TESTS);
  const suites = all.filter((_, index) => index % PARITY_SHARDS === shard - 1);

  describe(`parity ${shard}/${PARITY_SHARDS}: the HTTP suites through fetch → MSW → the mock`, () => {
    it('found the HTTP-level suites to run again, and every shard has its file', () => {
      assert.ok(all.length >= 4 * PARITY_SHARDS, `only ${all.length} suites found`);
      assert.ok(suites.length > 0, `shard ${shard} has no suite`);
      const shardFiles = readdirSync(join(NODE_TESTS, 'mock')).filter((name) =>
        /^parity-\d+\.test\.ts$/.test(name),
      );
      assert.deepEqual(
        shardFiles.sort(),
        Array.from({ length: PARITY_SHARDS }, (_, index) => `parity-${index + 1}.test.ts`).sort(),
      );
    });
  });

  for (const suite of suites) await import(pathToFileURL(suite).href);

  // Registered last, so it runs after every imported suite: the requests really went through MSW.
  describe(`parity ${shard}/${PARITY_SHARDS}: transport check`, () => {
    it('sent the suites’ requests through MSW to the mock', () => {
      const { intercepted, unsendable } = mockTransportRequestCount();
      console.log(
        `parity ${shard}/${PARITY_SHARDS}: ${suites.length} suites, ${intercepted} requests through MSW, ${unsendable} unsendable by fetch`,
      );
      assert.ok(intercepted > 25, `only ${intercepted} requests reached the mock through MSW`);
    });
  });
}
