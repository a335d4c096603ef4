// Serves MSW's Service Worker at `/mockServiceWorker.js` (root scope, so it controls the test pages) from
// the output of `msw init`, run once when the config loads: never a hand-written or stale copy.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repoDir = fileURLToPath(new URL('../../..', import.meta.url));
const outputDir = 'node_modules/.cache/id-verify/msw-worker';

let script: string | null = null;

function workerScript(): string {
  if (script === null) {
    const init = spawnSync('npx', ['msw', 'init', outputDir, '--no-save'], {
      cwd: repoDir,
      encoding: 'utf8',
    });
    if (init.status !== 0) throw new Error(`msw init failed: ${init.stderr}`);
    script = readFileSync(`${repoDir}${outputDir}/mockServiceWorker.js`, 'utf8');
  }
  return script;
}

/** A Koa middleware for web-test-runner's `middleware` list. */
export async function mswWorkerMiddleware(
  ctx: { path: string; type: string; body: unknown; set(name: string, value: string): void },
  next: () => Promise<unknown>,
): Promise<unknown> {
  if (ctx.path !== '/mockServiceWorker.js') return next();
  ctx.type = 'application/javascript';
  ctx.set('cache-control', 'no-store');
  ctx.body = workerScript();
  return undefined;
}
