// `npm test`: every check the project has, in the order that fails fastest, with one summary at the end.
//
//   type-check (tsc) → lint (biome) → build (when package.json has one) → Node suites → browser suites
//
// Each stage's own output streams through unchanged; the counts are read from the runners' summaries
// (node:test's `ℹ pass N`, web-test-runner's "N passed, M failed") and added up. The last line is
// `tests: N passed, M failed` and the exit code is non-zero when anything failed, so CI can read either.
//
// Options: --only=node|browser|static to run one group (the static group is tsc + biome).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { browserTestCounts, nodeTestCounts } from './test-counts.ts';

interface StageResult {
  name: string;
  passed: number;
  failed: number;
  seconds: number;
}

interface Stage {
  name: string;
  group: 'static' | 'node' | 'browser';
  command: string[];
  env?: Record<string, string>;
  /** Reads pass/fail counts from the stage's output; a stage without counts is one check. */
  count?: (output: string) => { passed: number; failed: number } | undefined;
}

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
};

const stages: Stage[] = [
  { name: 'type-check', group: 'static', command: ['npx', 'tsc', '-p', 'tsconfig.json'] },
  { name: 'lint', group: 'static', command: ['npx', 'biome', 'check', '.'] },
  ...(packageJson.scripts['build']
    ? [{ name: 'build', group: 'browser' as const, command: ['npm', 'run', '--silent', 'build'] }]
    : []),
  {
    name: 'node suites',
    group: 'node',
    // Test files run in child processes; node's default runs one fewer than the machine's cores at once (one
    // at a time on a 2-core CI runner). Most files wait on a database or a server process as much as they
    // compute, so one per core finishes the suite in about two thirds of the time.
    command: [
      'node',
      '--test',
      `--test-concurrency=${Math.max(2, availableParallelism())}`,
      '--test-reporter=spec',
      'test/node/**/*.test.ts',
    ],
    count: nodeTestCounts,
  },
  {
    name: 'browser suites',
    group: 'browser',
    command: ['npx', 'web-test-runner'],
    env: { CI: 'true' },
    count: browserTestCounts,
  },
  {
    // The widget against the MSW worker in the page (no server process): its own config, because the
    // mock needs the `browser` export conditions and Node built-in stubs the widget suites must not get.
    name: 'browser mock suites',
    group: 'browser',
    command: ['npx', 'web-test-runner', '--config', 'test/browser/mock/web-test-runner.mock.config.mjs'],
    env: { CI: 'true' },
    count: browserTestCounts,
  },
];

function run(stage: Stage): Promise<StageResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const [command, ...args] = stage.command as [string, ...string[]];
    const child = spawn(command, args, {
      env: { ...process.env, ...stage.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const forward = (target: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk.toString();
      target.write(chunk);
    };
    child.stdout.on('data', forward(process.stdout));
    child.stderr.on('data', forward(process.stderr));
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const counts = stage.count?.(output);
      if (counts) {
        // A runner that exits non-zero without a counted failure (crash, compile error) still fails.
        const failed = counts.failed + (code !== 0 && counts.failed === 0 ? 1 : 0);
        resolve({ name: stage.name, passed: counts.passed, failed, seconds });
      } else {
        resolve({ name: stage.name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, seconds });
      }
    });
  });
}

const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const results: StageResult[] = [];
for (const stage of stages) {
  if (only && stage.group !== only) continue;
  console.log(`\n── ${stage.name}: ${stage.command.join(' ')}`);
  results.push(await run(stage));
}

console.log('\n── summary');
for (const result of results) {
  const status = result.failed > 0 ? 'FAIL' : 'ok  ';
  console.log(
    `${status} ${result.name.padEnd(16)} ${result.passed} passed, ${result.failed} failed (${result.seconds.toFixed(1)} s)`,
  );
}
const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
