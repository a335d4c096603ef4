// `npm test`: every check the project has, in the order that fails fastest, with one summary at the end.
//
//   type-check (tsc) ∥ lint (biome) ∥ build (when package.json has one) → Node suites → browser suites
//
// The three first stages run at once: each is mostly one process on one core, and the Node suites need
// the build's output anyway. Their outputs are printed whole, one after the other, when all three end.
//
// The browser suites run once per engine (Chromium, Firefox, WebKit), one engine after the other: the
// engines do not compete for a small runner's cores, and each stage's counts are one engine's.
//
// Each stage's own output streams through unchanged; the counts are read from the runners' summaries
// (node:test's `ℹ pass N`, web-test-runner's "N passed, M failed") and added up, and the browser counts
// also per engine. The last line is `tests: N passed, M failed` and the exit code is non-zero when
// anything failed, so CI can read either.
//
// Options: --only=node|browser|static to run one group (the static group is tsc + biome);
// --browsers=chromium,firefox,webkit (or IDV_BROWSERS) to choose the engines: unset, every installed
// engine runs and a missing one is reported as skipped; named, a missing one fails the run.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { type Engine, type EngineSelection, selectEngines } from '../test/support-server/engines.ts';
import { browserTestCounts, type Counts, failedTestNames, nodeTestCounts } from './test-counts.ts';

interface StageResult {
  name: string;
  engine?: Engine;
  /** The failed tests the stage's output names (see failedTestNames). */
  failures?: string[];
  passed: number;
  failed: number;
  skipped: number;
  seconds: number;
}

interface Stage {
  name: string;
  group: 'static' | 'node' | 'browser';
  /** The browser engine a browser stage runs in. */
  engine?: Engine;
  command: string[];
  env?: Record<string, string>;
  /** Reads pass/fail counts from the stage's output; a stage without counts is one check. */
  count?: (output: string) => Counts | undefined;
  /** Runs at the same time as the stages next to it with the same value, its output held until it ends. */
  together?: string;
}

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
};

const browsersFlag = process.argv.find((arg) => arg.startsWith('--browsers='))?.slice('--browsers='.length);
let engineSelection: EngineSelection | Error;
try {
  engineSelection = selectEngines(browsersFlag ?? process.env['IDV_BROWSERS']);
} catch (error) {
  engineSelection = error as Error;
}
const engines = engineSelection instanceof Error ? [] : engineSelection.engines;

/** Both browser configurations, in one engine (IDV_BROWSERS=engine for web-test-runner.config.mjs). */
function browserStages(engine: Engine): Stage[] {
  const env = { CI: 'true', IDV_BROWSERS: engine };
  return [
    {
      name: `browser suites (${engine})`,
      group: 'browser',
      engine,
      command: ['npx', 'web-test-runner'],
      env,
      count: browserTestCounts,
    },
    {
      // The widget against the MSW worker in the page (no server process): its own config, because the
      // mock needs the `browser` export conditions and Node built-in stubs the widget suites must not get.
      name: `browser mock suites (${engine})`,
      group: 'browser',
      engine,
      command: ['npx', 'web-test-runner', '--config', 'test/browser/mock/web-test-runner.mock.config.mjs'],
      env,
      count: browserTestCounts,
    },
  ];
}

const stages: Stage[] = [
  {
    name: 'type-check',
    group: 'static',
    command: ['npx', 'tsc', '-p', 'tsconfig.json'],
    together: 'prepare',
  },
  { name: 'lint', group: 'static', command: ['npx', 'biome', 'check', '.'], together: 'prepare' },
  ...(packageJson.scripts['build']
    ? [
        {
          name: 'build',
          group: 'browser' as const,
          command: ['npm', 'run', '--silent', 'build'],
          together: 'prepare',
        },
      ]
    : []),
  {
    name: 'node suites',
    group: 'node',
    // Test files run in child processes; node's default runs one fewer than the machine's cores at once (one
    // at a time on a 2-core CI runner). Most files wait on a database or a server process as much as they
    // compute, so one per core finishes the suite in about two thirds of the time. More than one per core
    // does not pay: three at once on the 2-core runner took 1104 s against 941 s for two, and three
    // timing-sensitive tests (shutdown deadlines, rate-limit batches) failed.
    command: [
      'node',
      '--test',
      `--test-concurrency=${Math.max(2, availableParallelism())}`,
      '--test-reporter=spec',
      // Not --test-force-exit: the mock parity shards register their suites while they import them, and it
      // ends a shard whose first suites have finished before the rest are imported. A file left running by
      // a forgotten handle (an open database) is a bug of that file: close what a test opens.
      'test/node/**/*.test.ts',
    ],
    count: nodeTestCounts,
  },
  ...engines.flatMap(browserStages),
];

/**
 * What web-test-runner prints when a browser stops answering its driver altogether (seen with WebKitGTK's
 * mock camera, about once in ten runs, on a quiet machine too): not a test's failure but the engine's.
 */
const BROWSER_HANG = /Browser tests did not finish within \d+ms|WebDriverError: Request timed out/;

/** Runs a stage; `quiet` holds its output (returned, not streamed) for a stage that runs beside others. */
function run(stage: Stage, quiet = false): Promise<StageResult & { output: string }> {
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
      if (!quiet) target.write(chunk);
    };
    child.stdout.on('data', forward(process.stdout));
    child.stderr.on('data', forward(process.stderr));
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const counts = stage.count?.(output);
      const { name, engine } = stage;
      if (counts) {
        // A runner that exits non-zero without a counted failure (crash, compile error) still fails.
        const failed = counts.failed + (code !== 0 && counts.failed === 0 ? 1 : 0);
        const skipped = counts.skipped ?? 0;
        resolve({ name, engine, passed: counts.passed, failed, skipped, seconds, output });
      } else {
        resolve({
          name,
          engine,
          passed: code === 0 ? 1 : 0,
          failed: code === 0 ? 0 : 1,
          skipped: 0,
          seconds,
          output,
        });
      }
    });
  });
}

const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const results: StageResult[] = [];
/** Browser stages run a second time because their browser hung (printed in the summary). */
const rerun: string[] = [];
const runsBrowsers = !only || only === 'browser';
if (runsBrowsers && engineSelection instanceof Error) {
  // Engines were named (CI) and one is missing: a failure, not a silently smaller run.
  console.error(`\n── browser engines: ${engineSelection.message}`);
  results.push({ name: 'browser engines', passed: 0, failed: 1, skipped: 0, seconds: 0 });
}
const chosen = stages.filter((stage) => !only || stage.group === only);
const heading = (stage: Stage) => {
  const env = Object.entries(stage.env ?? {}).filter(([name]) => name === 'IDV_BROWSERS');
  const prefix = env.map(([name, value]) => `${name}=${value} `).join('');
  return `\n── ${stage.name}: ${prefix}${stage.command.join(' ')}`;
};
for (let index = 0; index < chosen.length; index++) {
  const stage = chosen[index] as Stage;
  if (stage.together) {
    const group = [stage];
    while (chosen[index + 1]?.together === stage.together) group.push(chosen[++index] as Stage);
    console.log(`\n── ${group.map((other) => other.name).join(', ')}: at the same time`);
    for (const result of await Promise.all(group.map((other) => run(other, true)))) {
      const { output, ...counted } = result;
      console.log(heading(group.find((other) => other.name === result.name) as Stage));
      process.stdout.write(output);
      results.push(counted.failed > 0 ? { ...counted, failures: failedTestNames(output) } : counted);
    }
    continue;
  }
  console.log(heading(stage));
  let result = await run(stage);
  // A browser that hung is given one more run of the whole stage, and the summary says so; a stage whose
  // tests failed without a hang is never re-run.
  if (result.failed > 0 && stage.group === 'browser' && BROWSER_HANG.test(result.output)) {
    console.log(`\n── ${stage.name}: the browser stopped answering its driver; running the stage once more`);
    rerun.push(
      `${stage.name} (the first run's browser hung: ${result.passed} passed, ${result.failed} failed)`,
    );
    result = await run(stage);
  }
  const { output, ...counted } = result;
  results.push(counted.failed > 0 ? { ...counted, failures: failedTestNames(output) } : counted);
}

const countsText = (counts: { passed: number; failed: number; skipped: number; seconds: number }) =>
  `${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''} (${counts.seconds.toFixed(1)} s)`;

console.log('\n── summary');
for (const result of results) {
  const status = result.failed > 0 ? 'FAIL' : 'ok  ';
  console.log(`${status} ${result.name.padEnd(30)} ${countsText(result)}`);
}
if (runsBrowsers && !(engineSelection instanceof Error)) {
  for (const reason of engineSelection.skipped) console.log(`skip ${reason}`);
  // Both browser configurations of each engine added up: how many tests each engine ran and passed.
  const perEngine = new Map<Engine, { passed: number; failed: number; skipped: number; seconds: number }>();
  for (const result of results) {
    if (!result.engine) continue;
    const sum = perEngine.get(result.engine) ?? { passed: 0, failed: 0, skipped: 0, seconds: 0 };
    sum.passed += result.passed;
    sum.failed += result.failed;
    sum.skipped += result.skipped;
    sum.seconds += result.seconds;
    perEngine.set(result.engine, sum);
  }
  for (const [engine, sum] of perEngine) {
    console.log(
      `${sum.failed > 0 ? 'FAIL' : 'ok  '} ${`browser tests in ${engine}`.padEnd(30)} ${countsText(sum)}`,
    );
  }
}
for (const stage of rerun) console.log(`rerun ${stage}`);
for (const result of results) {
  for (const failure of result.failures ?? []) console.log(`failed in ${result.name}: ${failure}`);
}
const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
