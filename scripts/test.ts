// `npm test`: every check the project has, with one summary at the end.
//
//   type-check (tsc) ∥ lint (biome) ∥ build
//     → Node lanes: unit suites ∥ mock parity suites → process-level suites (the package installs among them)
//                   ∥ model suites (at a lower priority, in the CPU the two others leave idle)
//     → browser lanes: Chromium → its face-camera group ∥ Firefox → WebKit ∥ the mock configurations,
//       engine after engine
//
// Stages run as soon as what they need has ended (`after`): the three first at once (each mostly one
// process; the build is what the others need), then the Node lanes, then the browser lanes. The browser
// engines wait for the Node lanes: beside them, the servers the browser suites start (and their vision
// workers) starve. Tried in two runs on the 2-core machine (the Node lanes at `nice -n 10` so the
// browsers would come first): the Node suites, with a third of the CPU, took 780 and 830 s instead of
// about 600, and the demo's end-to-end flow met a session rejected under the load.
//
// Timed in clean-clone runs on the 2-core machine, on the same machine an hour apart: `npm test` took
// 991 s with two Node lanes (the model suites after the unit suites, the package installs among the
// process-level suites) and the mock configurations after each engine's main one in its lane (3b12aa0),
// and 909 s as above. `vmstat` showed the CPU 96 % busy through the browser phase either way.
//
// A stage's output is held while other stages run and printed whole when it ends, under its heading; a
// line says when each stage starts and ends, and every minute which stages are still running (with the
// file each one's full output is written to as it comes). The counts are read from the runners'
// summaries (node:test's `ℹ pass N`, web-test-runner's "N passed, M failed") and added up, the browser
// counts also per engine. The summary gives each stage's wall time and CPU time (its process tree's, as
// the shell's `times` reports it); the last line is `tests: N passed, M failed` and the exit code is
// non-zero when anything failed, so CI can read either.
//
// Options: --only=node|browser|static to run one group (static is tsc + biome; node the Node stages);
// --browsers=chromium,firefox,webkit (or IDV_BROWSERS) to choose the engines: unset, every installed
// engine runs and a missing one is reported as skipped; named, a missing one fails the run.
// Environment: IDV_BROWSER_LANES=<n> and IDV_NODE_CONCURRENCY, IDV_PARITY_CONCURRENCY,
// IDV_PROCESS_CONCURRENCY (files at once in each Node stage).
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, globSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
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
  /** CPU seconds (user + system) of the stage's process tree, when the shell reported them. */
  cpuSeconds?: number;
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
  /** Stages that must have ended before this one starts (those left out of the run are not waited for). */
  after?: string[];
  /** Run once more when its browser stopped answering (see BROWSER_HANG). */
  rerunOnHang?: boolean;
  /**
   * Run once more when any of its tests failed, for this reason (printed with the first run's failures):
   * only Chromium's face-camera group (faceCameraStage).
   */
  rerunOnFailure?: string;
}

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
};
const hasBuild = Boolean(packageJson.scripts['build']);

const browsersFlag = process.argv.find((arg) => arg.startsWith('--browsers='))?.slice('--browsers='.length);
let engineSelection: EngineSelection | Error;
try {
  engineSelection = selectEngines(browsersFlag ?? process.env['IDV_BROWSERS']);
} catch (error) {
  engineSelection = error as Error;
}
const engines = engineSelection instanceof Error ? [] : engineSelection.engines;

/**
 * The process-level suites: each starts real processes (the server, the worker, `npm pack` and installs,
 * the quickstart's shell, the offline vision engine) and mostly waits for them. Their own stage, beside
 * the unit suites: a stalled one is seen as such, and the unit suites do not queue behind them. A file
 * named here that no longer exists fails the run (rather than silently leaving both stages).
 */
const PROCESS_LEVEL_FILES = [
  'test/node/client/pack-install.test.ts',
  'test/node/scripts/pack-install.test.ts',
  'test/node/scripts/quickstart-steps.test.ts',
  'test/node/server/crash-loop-embedded.test.ts',
  'test/node/server/init-kill-loop.test.ts',
  'test/node/server/multi-instance.test.ts',
  'test/node/server/production-bootstrap.test.ts',
  'test/node/server/restart.test.ts',
  'test/node/server/shutdown-burst.test.ts',
  'test/node/server/shutdown.test.ts',
  'test/node/server/start-race.test.ts',
  'test/node/server/start-up.test.ts',
  'test/node/server/worker-process.test.ts',
  'test/node/vision/offline.test.ts',
  'test/node/webhooks/crash-restart.test.ts',
];
// The crash loop (SIGKILL during end-user flows, about 75 s an engine on 2 cores) is split between the two
// lanes, its embedded-database half here and its PostgreSQL half among the unit files: whole in either lane
// it left the other lane's core idle at the end. In a clean-clone run of 31c05a3 (the whole loop among the
// unit files), this stage ended at 1,000 s and the unit files at 1,119 s.
// The package installs stay in this stage, one file at a time with the others: `npm pack` runs the
// workspaces' prepack builds, which rewrite the built files that quickstart-steps' server is serving. Run
// in a lane of their own beside this stage, they failed quickstart-steps (curl exit 3) in a clean-clone run.
/**
 * The mock parity shards (test/node/mock/parity-N.test.ts, each re-running a quarter of the HTTP suites
 * through MSW) are the longest files: their own stage beside the unit suites, so the unit stage does not
 * end on one shard running alone (node:test runs files in name order, whatever order they are given in).
 */
const PARITY_FILES = globSync('test/node/mock/parity-*.test.ts').sort();
/**
 * The unit files whose hot loops run long enough for V8's optimising compilers to pay: the real vision
 * models (Tesseract's WebAssembly, the face and document pipelines) and the OpenAPI fuzzer. Every other
 * unit file runs with `--liftoff-only` (see nodeTestCommand). A file named here that no longer exists
 * fails the run.
 */
const MODEL_FILES = [
  'test/node/review-pipeline/vision-decisions.test.ts',
  'test/node/server/fuzz-openapi.test.ts',
  'test/node/vision/mrz-reader.test.ts',
  'test/node/vision/node-vision-engine.test.ts',
  'test/node/vision/turned-faces.test.ts',
];
const nodeUnitFiles = globSync('test/node/**/*.test.ts')
  .filter((file) => ![...PROCESS_LEVEL_FILES, ...PARITY_FILES, ...MODEL_FILES].includes(file))
  .sort();

/**
 * node:test over `files`, `concurrency` files at once. Not --test-force-exit: the mock parity shards
 * register their suites while they import them, and it ends a shard whose first suites have finished
 * before the rest are imported. A file left running by a forgotten handle (an open database) is a bug of
 * that file: close what it opens.
 *
 * `baselineOnly` runs the files' WebAssembly on V8's baseline compiler alone (`--liftoff-only`, passed on
 * to each file's process): a unit file lives a few seconds, most of them in PGlite's start, and V8 spends
 * more CPU optimising PGlite's hot functions in the background than those seconds gain from it. Timed
 * file by file on 2 cores, the unit files used 639 s of CPU with V8's tiers and about 120 s less this way;
 * the parity shards (minutes each), the model files and the process-level files were slower with it.
 */
function nodeTestCommand(files: string[], concurrency: number, baselineOnly = false): string[] {
  return [
    'node',
    ...(baselineOnly ? ['--liftoff-only'] : []),
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    ...files,
  ];
}

/**
 * Files at once in each Node stage: one, in two lanes of about equal CPU time, one per core: the unit
 * files then the model files (about 430 and 90 s of CPU), the parity shards then the process-level files
 * (about 310 and 260 s). More files than cores cost more CPU than they save: run side by side with more
 * files than cores, the same files used 1,966 s of CPU in a clean-clone run of 7891810, against 1,125 s
 * two at a time (the models' and libvips' thread pools spin, V8 compiles and collects on threads of its
 * own).
 */
const cores = availableParallelism();
/**
 * The niceness of the model files' lane, which runs beside the two others from the build's end: the two
 * lanes leave a core idle about an eighth of the time (the unit files wait on PostgreSQL and child
 * processes, the process-level files on the processes they start), which the model files' CPU-bound work
 * takes, while at 5 they still get about a seventh of the machine when nothing is idle, so that no vision
 * job nears its 60 s time-out. In a clean-clone run of 3b12aa0 the model files took 110 s (85 s of CPU)
 * after the unit files, in their lane.
 */
const MODEL_PRIORITY = 5;
const nodeConcurrency = Number(process.env['IDV_NODE_CONCURRENCY']) || Math.max(1, cores - 1);
const parityConcurrency = Number(process.env['IDV_PARITY_CONCURRENCY']) || 1;
const processConcurrency = Number(process.env['IDV_PROCESS_CONCURRENCY']) || 1;
// Tried and left: the unit files in one process (`--test-isolation=none`). They took 479 s and 558 s in
// two runs, against 600 s and 815 s one process per file in two others: on this 2-core machine the same
// files' CPU time moved by a third from run to run, so no ranking held. One process lets files see each
// other's globals (Vite's build sets NODE_ENV=production in the process that runs it), so each keeps its own.

/**
 * How many lanes the engines' main browser configurations take, after the Node stages: one per core (at
 * most one per engine), IDV_BROWSER_LANES=<n> to choose; each lane runs its engines one after the other.
 * On 2 cores Chromium, the longest (it alone runs the camera, passkey and demo suites), runs alone and
 * Firefox then WebKit share the other: in a clean-clone run of c9074b4 the engines took 288, 224 and
 * 163 s with 133, 108 and 33 s of CPU. The mock configurations have a lane of their own beside these (see
 * browserMockStage). Three lanes for the main configurations were tried on 2 cores: about 60 s sooner,
 * but the demo's end-to-end flow ended `rejected` beside the two other engines in one of three clean-clone
 * runs (3644035), as it had in a run beside the Node stages. Giving every group of an engine's
 * configuration its browser at once (web-test-runner's `concurrentBrowsers` 4 instead of 2) did not
 * shorten the browser phase (302 s, against 291 and 283 s in two runs without it) and failed a console
 * accessibility test on a timed-out screen heading: the phase is CPU-bound. Starting Chromium's lane when
 * the unit and model suites ended (beside the process-level suites, which leave a core mostly idle), with
 * the three mock configurations at once, was 38 s sooner (761 s, against 799 s the same hour, clean-clone
 * runs of 47edbc2's tree) and failed two tests under the load: the astronaut's liveness by camera was not
 * accepted in 3 attempts, and WebKit's mock session across an IndexedDB restart timed out.
 */
const browserLaneCount = Math.max(
  1,
  Math.min(engines.length, Number(process.env['IDV_BROWSER_LANES']) || cores),
);
/** The engines of each lane, in order: one engine a lane, the last lane taking the rest. */
const browserLanes: Engine[][] = Array.from({ length: browserLaneCount }, () => []);
for (const [index, engine] of engines.entries())
  browserLanes[Math.min(index, browserLaneCount - 1)]?.push(engine);

/** The Node stages, which the browser lanes wait for (see the top of this file). */
const NODE_STAGES = ['node suites', 'node model suites', 'mock parity suites', 'process-level suites'];

/**
 * The main browser configuration of one engine (IDV_BROWSERS=engine for web-test-runner.config.mjs), on a
 * port chosen for the engine (`--port`) so engines can run beside each other. It waits for the Node stages
 * and for the engine before it in its lane.
 */
function browserStage(engine: Engine): Stage {
  const lane = browserLanes.find((engines) => engines.includes(engine)) ?? [engine];
  const before = lane[lane.indexOf(engine) - 1];
  const stage = webTestRunnerStage(
    `browser suites (${engine})`,
    engine,
    [],
    before && `browser suites (${before})`,
  );
  // Chromium's face-camera group runs after it, in its lane (faceCameraStage).
  if (engine === 'chromium') stage.env = { ...stage.env, IDV_SKIP_GROUPS: FACE_CAMERA_GROUP };
  return stage;
}

/** web-test-runner.config.mjs's group of the astronaut in front of Chromium's fake camera. */
const FACE_CAMERA_GROUP = 'face-camera';

/**
 * Chromium's face-camera group (the astronaut's liveness answered by camera with the face model in the
 * page, judged by the real engine, and the demo shop's flows) after Chromium's main configuration, in
 * its lane. The fake camera holds each pose 1.5 s, and the page's face model must see it twice in a row
 * to fire the shutter; with two other browsers on two cores it did not, now and then, and a genuine
 * liveness was refused three times (in one of four clean-clone runs on 2026-11-30; earlier in one of
 * three beside the Node stages). It takes about 140 s, 35–50 s of it CPU: mostly it waits for the camera.
 * Until 2026-12-01 it ran alone after every other browser stage; it now shares the CPU with what is left
 * of the other lane (WebKit, about a fifth of a core) and of the mock lane, once the widget keeps no frame
 * the server would refuse as repeated or as an action that does not stand out (src/steps/liveness-step.ts),
 * which is what the CPU-starved runs had met.
 */
function faceCameraStage(chromiumMain: Stage): Stage {
  return {
    ...webTestRunnerStage(
      'browser face-camera (chromium)',
      'chromium',
      ['--group', FACE_CAMERA_GROUP],
      undefined,
    ),
    after: ['build', chromiumMain.name],
    rerunOnFailure: FACE_CAMERA_RERUN,
  };
}

/**
 * Why the face-camera group gets a second run when a test fails. The fake camera plays its poses at wall
 * clock speed (1.5 s each, a 9 s loop) whatever the load, while the page's face model looks more slowly
 * when the CPU is short; the widget waits 12 s for an action before it takes a frame anyway, and the
 * server judges each action from its own face mesh. On the slower 2-core machine of 2026-11-30 this group
 * failed in two of three clean-clone runs: a genuine liveness refused three times by a gate before the
 * models. The demo's trail, with the server's answers, showed why under a one-core busy loop: the page's
 * model fired for the next action on the very picture it had just taken for the last one (the person, here
 * the camera, still holding that pose), and the server refused the set as `frames_repeated`. The widget
 * now keeps no such frame (src/steps/liveness-step.ts). In ten runs beside the busy loop since, the group
 * passed every time; of the seven whose trail was read, the widget refused a repeated picture in four
 * (each a refused attempt before), and in three of the five whose server answers were printed one demo
 * flow needed a second attempt: the server judged an action `not_performed` that the page's model had
 * seen. That disagreement of two models remains, so the rerun stays. A product failure fails both runs;
 * the summary names the first run's failures either way.
 */
const FACE_CAMERA_RERUN =
  "the page's face model and the server's judged an action differently (this group's runs depend on the CPU the page's model gets)";

/**
 * The widget and the console against the MSW worker in the page (no server process), one engine after
 * the other in a lane of their own beside the engines' main configurations: its own config, because the
 * mock needs the `browser` export conditions and Node built-in stubs the widget suites must not get. They
 * mostly wait (PGlite starting in the page): in a clean-clone run of 3b12aa0 the three took 54, 71 and 59 s
 * with 18, 34 and 8 s of CPU, when each still ran after its engine's main configuration in that lane.
 */
function browserMockStage(engine: Engine): Stage {
  const before = engines[engines.indexOf(engine) - 1];
  return webTestRunnerStage(
    `browser mock suites (${engine})`,
    engine,
    ['--config', 'test/browser/mock/web-test-runner.mock.config.mjs'],
    before && `browser mock suites (${before})`,
  );
}

/**
 * web-test-runner in one engine (IDV_BROWSERS=engine), on a port chosen when it starts, after the stage
 * `previous` of its lane or, first in its lane, after the Node stages.
 */
function webTestRunnerStage(
  name: string,
  engine: Engine,
  args: string[],
  previous: string | undefined,
): Stage {
  return {
    name,
    group: 'browser',
    engine,
    command: ['npx', 'web-test-runner', ...args, '--port', PORT],
    env: { CI: 'true', IDV_BROWSERS: engine },
    count: browserTestCounts,
    after: ['build', ...(previous ? [previous] : NODE_STAGES)],
    rerunOnHang: true,
  };
}

/**
 * A port for one web-test-runner, looked for when its stage starts (its own search upward from 8000
 * races between runs started together): below the ephemeral range, so the test servers and connections
 * of the stages running meanwhile do not take it, and never one this run handed out before.
 */
let nextPortCandidate = 8100;
async function webTestRunnerPort(): Promise<number> {
  for (;;) {
    const port = nextPortCandidate++;
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
/** In a stage's command, replaced by webTestRunnerPort() when the stage starts. */
const PORT = '{port}';

const stages: Stage[] = [
  { name: 'type-check', group: 'static', command: ['npx', 'tsc', '-p', 'tsconfig.json'] },
  { name: 'lint', group: 'static', command: ['npx', 'biome', 'check', '.'] },
  ...(hasBuild
    ? [{ name: 'build', group: 'browser' as const, command: ['npm', 'run', '--silent', 'build'] }]
    : []),
  {
    name: 'node suites',
    group: 'node',
    command: nodeTestCommand(nodeUnitFiles, nodeConcurrency, true),
    count: nodeTestCounts,
    after: ['build'],
  },
  {
    // A third lane at a lower priority (see MODEL_PRIORITY), from the build's end.
    name: 'node model suites',
    group: 'node',
    command: ['nice', '-n', String(MODEL_PRIORITY), ...nodeTestCommand(MODEL_FILES, 1)],
    count: nodeTestCounts,
    after: ['build'],
  },
  {
    name: 'mock parity suites',
    group: 'node',
    command: nodeTestCommand(PARITY_FILES, parityConcurrency),
    count: nodeTestCounts,
    after: ['build'],
  },
  {
    name: 'process-level suites',
    group: 'node',
    command: nodeTestCommand(PROCESS_LEVEL_FILES, processConcurrency),
    count: nodeTestCounts,
    after: ['build', 'mock parity suites'],
  },
  ...engines.map(browserStage),
  ...engines.map(browserMockStage),
];
const chromiumMain = stages.find((stage) => stage.name === 'browser suites (chromium)');
if (chromiumMain) stages.push(faceCameraStage(chromiumMain));

/**
 * What web-test-runner prints when a browser stops answering its driver altogether (seen with WebKitGTK's
 * mock camera, about once in ten runs, on a quiet machine too), or its process goes away mid-file (seen
 * once in WebKit on a loaded CI runner, in a console test that neither crashes nor hangs elsewhere): not a
 * test's failure but the engine's. The stage runs once more; a test that takes its browser down every
 * time still fails.
 */
const BROWSER_HANG =
  /Browser tests did not finish within \d+ms|WebDriverError: Request timed out|Tests were interrupted because the browser disconnected/;

/** `times`' second line (the children's user and system time), in seconds. */
function childCpuSeconds(times: string): number | undefined {
  const pairs = [...times.matchAll(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/g)];
  const children = pairs[1];
  if (!children) return undefined;
  const [, um, us, sm, ss] = children.map(Number) as [number, number, number, number, number];
  return um * 60 + us + sm * 60 + ss;
}

const logDir = mkdtempSync(join(tmpdir(), 'idv-test-logs-'));
const logFile = (stage: Stage) => join(logDir, `${stage.name.replace(/[^\w]+/g, '-').replace(/-$/, '')}.log`);
const runStarted = performance.now();
const elapsed = () => `${((performance.now() - runStarted) / 1000).toFixed(0)} s`;

/**
 * Runs a stage under bash, whose `times` (written to fd 3) gives the CPU time of the stage's process
 * tree. The output is held and returned (and written to the stage's log file as it comes).
 */
async function run(stage: Stage): Promise<StageResult & { output: string }> {
  const started = performance.now();
  const command = await Promise.all(
    stage.command.map(async (part) => (part === PORT ? String(await webTestRunnerPort()) : part)),
  );
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', '"$@"; code=$?; times >&3; exit $code', stage.name, ...command], {
      env: { ...process.env, ...stage.env },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const log = createWriteStream(logFile(stage));
    let output = '';
    let times = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      log.write(chunk);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
      times += chunk.toString();
    });
    child.on('close', (code) => {
      log.end();
      const seconds = (performance.now() - started) / 1000;
      const cpuSeconds = childCpuSeconds(times);
      const counts = stage.count?.(output);
      const { name, engine } = stage;
      const timing = { seconds, ...(cpuSeconds === undefined ? {} : { cpuSeconds }) };
      if (counts) {
        // A runner that exits non-zero without a counted failure (crash, compile error) still fails.
        const failed = counts.failed + (code !== 0 && counts.failed === 0 ? 1 : 0);
        const skipped = counts.skipped ?? 0;
        resolve({ name, engine, passed: counts.passed, failed, skipped, ...timing, output });
      } else {
        const passed = code === 0 ? 1 : 0;
        resolve({ name, engine, passed, failed: 1 - passed, skipped: 0, ...timing, output });
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
// The Node stages' named file lists: a file named there that no longer exists fails the run (rather than
// silently leaving its stage).
for (const [list, files] of [
  ['process-level', PROCESS_LEVEL_FILES],
  ['model', MODEL_FILES],
] as const) {
  const missing = files.filter((file) => !existsSync(file));
  if (!chosen.some((stage) => stage.group === 'node') || missing.length === 0) continue;
  console.error(`\n── ${list} file list: no such file: ${missing.join(', ')}`);
  results.push({ name: `${list} file list`, passed: 0, failed: 1, skipped: 0, seconds: 0 });
}

// The fake camera videos every browser configuration writes when it loads (test/fixtures/fake-camera.ts),
// written once here first: configurations loading at the same time would rewrite a file another
// engine's browser is reading.
const cameras = chosen.some((stage) => stage.engine)
  ? import('../test/fixtures/fake-camera.ts').then(async (camera) => {
      camera.writeFakeCamera();
      await Promise.allSettled([camera.writeFaceCamera(), camera.writePassportCamera()]);
    })
  : Promise.resolve();

const heading = (stage: Stage) => {
  const env = Object.entries(stage.env ?? {}).filter(([name]) => name === 'IDV_BROWSERS');
  const prefix = env.map(([name, value]) => `${name}=${value} `).join('');
  const command = stage.command.length > 12 ? [...stage.command.slice(0, 5), '…'] : stage.command;
  return `\n── ${stage.name}: ${prefix}${command.join(' ')}`;
};

const running = new Map<string, number>();
const progress = setInterval(() => {
  if (running.size === 0) return;
  const list = [...running].map(
    ([name, since]) => `${name} (${((performance.now() - since) / 1000).toFixed(0)} s)`,
  );
  console.log(`   … at ${elapsed()}, running: ${list.join(', ')}`);
}, 60_000);
progress.unref();

const launched = new Map<string, Promise<void>>();
function launch(stage: Stage): Promise<void> {
  const existing = launched.get(stage.name);
  if (existing) return existing;
  const promise = (async () => {
    const before = chosen.filter((other) => stage.after?.includes(other.name));
    await Promise.all(before.map(launch));
    if (stage.engine) await cameras.catch(() => {});
    console.log(`▶ ${stage.name} starts at ${elapsed()} (output as it comes: ${logFile(stage)})`);
    running.set(stage.name, performance.now());
    let result = await run(stage);
    // A browser that hung is given one more run of the whole stage, and the summary says so; a stage whose
    // tests failed without a hang is never re-run.
    const hung = stage.rerunOnHang === true && BROWSER_HANG.test(result.output);
    if (result.failed > 0 && (hung || stage.rerunOnFailure)) {
      const why = hung ? 'the browser stopped answering its driver or went away' : stage.rerunOnFailure;
      console.log(`\n── ${stage.name}: ${why}; running the stage once more`);
      const names = failedTestNames(result.output);
      rerun.push(
        `${stage.name} (${why}; the first run: ${result.passed} passed, ${result.failed} failed${names.length > 0 ? `: ${names.join('; ')}` : ''})`,
      );
      const first = result;
      result = await run(stage);
      // The stage's time is both runs'.
      result.seconds += first.seconds;
      if (result.cpuSeconds !== undefined) result.cpuSeconds += first.cpuSeconds ?? 0;
    }
    running.delete(stage.name);
    const { output, ...counted } = result;
    console.log(heading(stage));
    process.stdout.write(output);
    console.log(`■ ${stage.name} ends at ${elapsed()}: ${countsText(counted)}`);
    results.push(counted.failed > 0 ? { ...counted, failures: failedTestNames(output) } : counted);
  })();
  launched.set(stage.name, promise);
  return promise;
}

function countsText(counts: {
  passed: number;
  failed: number;
  skipped: number;
  seconds: number;
  cpuSeconds?: number;
}) {
  const cpu = counts.cpuSeconds === undefined ? '' : `, ${counts.cpuSeconds.toFixed(0)} s CPU`;
  return `${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''} (${counts.seconds.toFixed(1)} s${cpu})`;
}

console.log(`── ${chosen.map((stage) => stage.name).join(', ')}; full outputs under ${logDir}`);
await Promise.all(chosen.map(launch));
clearInterval(progress);

console.log('\n── summary');
const order = (result: StageResult) => chosen.findIndex((stage) => stage.name === result.name);
results.sort((a, b) => order(a) - order(b));
for (const result of results) {
  const status = result.failed > 0 ? 'FAIL' : 'ok  ';
  console.log(`${status} ${result.name.padEnd(30)} ${countsText(result)}`);
}
if (runsBrowsers && !(engineSelection instanceof Error)) {
  for (const reason of engineSelection.skipped) console.log(`skip ${reason}`);
  // Both browser configurations of each engine added up: how many tests each engine ran and passed.
  const perEngine = new Map<
    Engine,
    { passed: number; failed: number; skipped: number; seconds: number; cpuSeconds: number }
  >();
  for (const result of results) {
    if (!result.engine) continue;
    const sum = perEngine.get(result.engine) ?? {
      passed: 0,
      failed: 0,
      skipped: 0,
      seconds: 0,
      cpuSeconds: 0,
    };
    sum.passed += result.passed;
    sum.failed += result.failed;
    sum.skipped += result.skipped;
    sum.seconds += result.seconds;
    sum.cpuSeconds += result.cpuSeconds ?? 0;
    perEngine.set(result.engine, sum);
  }
  for (const [engine, sum] of perEngine) {
    console.log(
      `${sum.failed > 0 ? 'FAIL' : 'ok  '} ${`browser tests in ${engine}`.padEnd(30)} ${countsText(sum)}`,
    );
  }
}
const cpuTotal = results.reduce((sum, result) => sum + (result.cpuSeconds ?? 0), 0);
console.log(`wall time ${elapsed()} (stages overlap), CPU ${cpuTotal.toFixed(0)} s in all`);
for (const stage of rerun) console.log(`rerun ${stage}`);
for (const result of results) {
  for (const failure of result.failures ?? []) console.log(`failed in ${result.name}: ${failure}`);
}
const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
