/**
 * The newcomer's path of docs/quickstart.md, timed by machine on a fresh clone (issue #16: "from clone to a
 * verified demo identity in under ten minutes"):
 *
 *   1. `git clone` of this repository's HEAD into a temporary directory;
 *   2. `source .ci/node.sh && npm ci` with an empty npm cache (a newcomer's first install downloads
 *      every package from the registry);
 *   3. `npm start` until its banner (the prestart build of the widget, hosted page, console and demo, then
 *      the server on the embedded database, the demo tenant and the shop's webhook endpoint), then a GET of
 *      `/demo/` and `/readyz`;
 *   4. the demo shop's end-to-end tests in that clone (test/browser/e2e/demo-*.test.ts: Chromium with a fake
 *      camera, the visitor verifies embedded and by redirect on the real server and offline on the mocks),
 *      which print how long each visitor took from opening the shop to the verified name.
 *
 *   npm run bench:quickstart            (all four steps; needs Chromium, see README)
 *   npm run bench:quickstart -- --no-flow   (steps 1–3)
 *
 * What it cannot time: a person reading the page and choosing a file, which docs/quickstart.md budgets.
 * The npm cache is emptied for step 2 only; what the network gives that day is part of the figure.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../../test/node/server/server-process.ts';

const { values } = parseArgs({ options: { 'no-flow': { type: 'boolean', default: false } } });
const REPO = new URL('../../', import.meta.url).pathname;
const BANNER_TIMEOUT_MS = 10 * 60_000;

interface Step {
  name: string;
  seconds: number;
}

function run(command: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} exited ${code}:\n${output.slice(-4000)}`)),
    );
  });
}

async function timed<T>(steps: Step[], name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  steps.push({ name, seconds: (performance.now() - started) / 1000 });
  console.log(`  ${name}: ${steps.at(-1)?.seconds.toFixed(1)} s`);
  return result;
}

/** Starts `npm start` in `dir` and resolves with its banner once every line of it is out. */
function startUntilBanner(dir: string, port: number): Promise<{ child: ChildProcess; banner: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', 'source .ci/node.sh >/dev/null && exec npm start'], {
      cwd: dir,
      env: { ...process.env, PORT: String(port), NODE_ENV: 'development' },
      detached: true,
    });
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`no banner after 10 minutes:\n${output}`)),
      BANNER_TIMEOUT_MS,
    );
    const read = (chunk: Buffer) => {
      output += chunk;
      // The banner's last line names the credentials (first start) or their file.
      if (/Demo shop:[\s\S]*(file:|credentials:)\s+\S+\n/.test(output)) {
        clearTimeout(timer);
        resolve({ child, banner: output.slice(output.indexOf('id-verify development server')) });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited ${code} before its banner:\n${output}`));
    });
  });
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'idv-quickstart-'));
  const clone = join(work, 'id-verify');
  const steps: Step[] = [];
  let server: ChildProcess | undefined;
  console.log(`bench:quickstart in ${work}`);
  try {
    await timed(steps, '1. git clone', () =>
      run(`git clone --quiet ${JSON.stringify(REPO)} id-verify`, work),
    );
    await timed(steps, '2. npm ci (empty npm cache)', () =>
      run('source .ci/node.sh >/dev/null && npm ci --no-audit --no-fund', clone, {
        npm_config_cache: join(work, 'npm-cache'),
      }),
    );
    const port = await freePort();
    const started = await timed(steps, '3. npm start → banner (build included)', () =>
      startUntilBanner(clone, port),
    );
    server = started.child;
    for (const path of ['/demo/', '/readyz']) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
    }
    console.log(started.banner.replace(/(password|API key):\s+\S+/g, '$1: <shown once>'));
    process.kill(-(server.pid as number), 'SIGTERM');
    server = undefined;

    if (!values['no-flow']) {
      const output = await timed(
        steps,
        '4. browser group face-camera (the demo visitors among its tests)',
        () =>
          run(
            'source .ci/node.sh >/dev/null && IDV_BROWSERS=chromium npx web-test-runner --group face-camera',
            clone,
          ),
      );
      const visitors = [...output.matchAll(/demo (server|offline) (embed|redirect): verified in (\d+) ms/g)];
      if (visitors.length === 0)
        throw new Error(`the demo e2e printed no verified visitor:\n${output.slice(-4000)}`);
      for (const [, target, mode, ms] of visitors) {
        console.log(
          `     visitor, ${target} ${mode}: shop opened → verified name in ${(Number(ms) / 1000).toFixed(1)} s`,
        );
      }
    }
    const machine = steps.filter((step) => !step.name.startsWith('4.'));
    const total = machine.reduce((sum, step) => sum + step.seconds, 0);
    console.log(`\nclone → running demo shop: ${total.toFixed(0)} s (${(total / 60).toFixed(1)} min)`);
  } finally {
    if (server?.pid) process.kill(-server.pid, 'SIGTERM');
    await rm(work, { recursive: true, force: true });
  }
}

await main();
