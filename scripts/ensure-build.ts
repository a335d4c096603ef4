// `npm start` runs this first (prestart): the server serves /sdk/id-verify.js from src/dist/sdk and the
// hosted page and /console from server/dist/web, so a fresh clone, or one whose widget sources changed since the last build, is built before the
// server starts. A current build is left alone, so restarts stay instant.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const OUTPUTS = [
  'src/dist/sdk/id-verify.js',
  'server/dist/web/hosted',
  'src/dist/npm/index.js',
  'server/dist/web/console/index.html',
  'demo/dist/index.html',
];
const SOURCES = ['src', 'server/web', 'demo', 'vite.config.ts', 'package.json'];

/** The newest modification under `path`, leaving out build output (src/dist lives among the sources). */
function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path)
    .filter((entry) => entry !== 'dist' && entry !== 'node_modules')
    .reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stat.mtimeMs);
}

const missing = OUTPUTS.filter((output) => !existsSync(join(root, output)));
const builtAt = missing.length
  ? 0
  : Math.min(...OUTPUTS.map((output) => statSync(join(root, output)).mtimeMs));
const changedAt = Math.max(
  ...SOURCES.filter((source) => existsSync(join(root, source))).map((source) =>
    newestMtime(join(root, source)),
  ),
);

if (missing.length > 0 || changedAt > builtAt) {
  console.log(
    missing.length
      ? 'building the widget, the hosted page and the console (first start)…'
      : 'widget sources changed: rebuilding…',
  );
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
