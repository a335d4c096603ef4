// The four packages as tenants get them: packed (`npm pack --workspaces`) into a temp directory, each
// tarball installed from the registry into an empty project in a temp directory, which sees nothing of
// this repository (no workspace, no node_modules above it), and run there:
//
// - `id-verify` (the widget): its exports resolve, nothing of the server is installed with it, and its
//   installed size is printed.
// - `@id-verify/server`, alone (it needs no other unpublished package): its installed size is printed
//   (`du -sh node_modules`) and bounded; its `id-verify-server` bin migrates and bootstraps an embedded
//   database in a temp dir, then `serve`s it on a free port (GET /healthz 200, the widget bundle, the
//   console and the API reference served from its own build), `worker` refuses to share the embedded
//   database, and the installed package holds no TypeScript (Node does not strip types under node_modules).
// - `@id-verify/node`, alone: creates a sandbox session on that server with the key `bootstrap` printed.
// - `@id-verify/mock`: `@id-verify/mock/node` (MSW's setupServer) answers a `fetch` to the mock API.
//
// What is packed is built first the way each package's `prepack` builds it, but without emptying a folder
// other suites read while they run beside this one (`npm test` runs the Node files concurrently, after its
// build): the server and the mock are compiled afresh into folders only their tarballs use, the widget,
// the hosted page and the console are rebuilt only when missing or older than their sources
// (scripts/ensure-build.ts, `npm start`'s check), and `npm pack` runs with `--ignore-scripts`.
//
// Installing fetches from the registry (npm's cache makes a second run faster; the server's dependencies
// are most of the time); a machine without the registry fails here rather than passing on what it did not
// run.
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  existsSync,
  globSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

/** The environment without npm's own variables: a test started by `npm test` must not pass the workspace on. */
function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return { ...env, ...extra };
}

interface Packed {
  name: string;
  filename: string;
  files: { path: string }[];
}

/** Builds what the packages ship (see the top of this file), then packs every workspace package into `dir`. */
async function packAll(dir: string): Promise<Map<string, Packed>> {
  const node = (script: string) =>
    run(process.execPath, [script], { cwd: ROOT, env: cleanEnvironment(), maxBuffer: 64 * 1024 * 1024 });
  await node('scripts/ensure-build.ts');
  await Promise.all([node('scripts/build-server.ts'), node('scripts/build-mock.ts')]);
  if (!existsSync(join(ROOT, 'server/client/dist/index.js'))) await node('scripts/build-node-client.ts');
  mkdirSync(dir, { recursive: true });
  const { stdout } = await run(
    'npm',
    ['pack', '--workspaces', '--ignore-scripts', '--json', '--pack-destination', dir],
    { cwd: ROOT, env: cleanEnvironment(), maxBuffer: 64 * 1024 * 1024 },
  );
  const report = JSON.parse(stdout) as Packed[];
  return new Map(report.map((entry) => [entry.name, { ...entry, filename: join(dir, entry.filename) }]));
}

/** An empty tenant project in `dir` with `tarballs` installed (registry for their dependencies, no scripts). */
async function project(dir: string, tarballs: string[]): Promise<string> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'tenant', private: true, type: 'module' }));
  await run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--no-package-lock',
      ...tarballs,
    ],
    { cwd: dir, env: cleanEnvironment(), maxBuffer: 64 * 1024 * 1024 },
  );
  return dir;
}

/** Runs a module in a project (as its own file, so bare specifiers resolve in its node_modules). */
async function runIn(
  dir: string,
  name: string,
  code: string,
  env: Record<string, string> = {},
): Promise<string> {
  const file = join(dir, name);
  writeFileSync(file, code);
  const { stdout } = await run(process.execPath, [file], {
    cwd: dir,
    env: cleanEnvironment(env),
    timeout: 60_000,
  });
  return stdout;
}

function sizeOf(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((total, entry) => total + sizeOf(join(path, entry)), 0);
}

/** Every package installed in a project's node_modules, scoped ones as `@scope/name`. */
function installedPackages(dir: string): string[] {
  const modules = join(dir, 'node_modules');
  return readdirSync(modules)
    .filter((entry) => !entry.startsWith('.'))
    .flatMap((entry) =>
      entry.startsWith('@') ? readdirSync(join(modules, entry)).map((name) => `${entry}/${name}`) : [entry],
    );
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address && typeof address === 'object');
  return address.port;
}

/** Runs the installed server's bin to its end. */
async function bin(
  dir: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const command = join(dir, 'node_modules', '.bin', 'id-verify-server');
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd: dir,
      env: cleanEnvironment(env),
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}

describe('the packages, packed and installed as tenants get them', { timeout: 600_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'idv-packages-'));
  let packed: Map<string, Packed>;
  let widget: string;
  let server: string;
  let client: string;
  let mock: string;

  before(
    async () => {
      let started = performance.now();
      packed = await packAll(join(root, 'tarballs'));
      console.log(`built and packed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      started = performance.now();
      const tarball = (name: string) => {
        const entry = packed.get(name);
        assert.ok(entry, `npm pack made no ${name}: ${[...packed.keys()].join(', ')}`);
        return entry.filename;
      };
      // Each tarball alone, as each is published and installed on its own: none may depend on another
      // unpublished one (the server ships the widget's script-tag bundle it serves).
      [widget, server, client, mock] = await Promise.all([
        project(join(root, 'widget'), [tarball('id-verify')]),
        project(join(root, 'server'), [tarball('@id-verify/server')]),
        project(join(root, 'client'), [tarball('@id-verify/node')]),
        project(join(root, 'mock'), [tarball('@id-verify/mock')]),
      ]);
      console.log(`installed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    },
    { timeout: 600_000 },
  );
  after(() => rmSync(root, { recursive: true, force: true }));

  it('builds each package before it is packed (its prepack), and the server from a clean checkout whole', () => {
    const prepack = (dir: string) =>
      (
        JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
          scripts?: { prepack?: string };
        }
      ).scripts?.prepack;
    assert.equal(prepack('src'), 'node ../scripts/build-widget.ts');
    assert.equal(prepack('server'), 'node ../scripts/build-server.ts --web');
    assert.equal(prepack('server/client'), 'node ../../scripts/build-node-client.ts');
    assert.equal(prepack('mock'), 'node ../scripts/build-mock.ts');
  });

  it('packs the four packages at one version, each with its README and no TypeScript source', () => {
    assert.deepEqual([...packed.keys()].sort(), [
      '@id-verify/mock',
      '@id-verify/node',
      '@id-verify/server',
      'id-verify',
    ]);
    for (const entry of packed.values()) {
      assert.match(entry.filename, /-0\.1\.0\.tgz$/, entry.name);
      const paths = entry.files.map((file) => file.path);
      assert.ok(paths.includes('README.md'), `${entry.name} ships no README.md`);
      assert.deepEqual(
        paths.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts')),
        [],
        `${entry.name}: Node does not strip types under node_modules`,
      );
      assert.deepEqual(
        paths.filter((path) => path.startsWith('node_modules/') || path.includes('/test/')),
        [],
        entry.name,
      );
    }
  });

  describe('id-verify (the widget)', () => {
    it('installs lit and the QR encoder and nothing of the server', () => {
      const installed = installedPackages(widget);
      const megabytes = sizeOf(join(widget, 'node_modules')) / 1024 / 1024;
      console.log(
        `id-verify installed: ${megabytes.toFixed(2)} MB in node_modules (${installed.join(', ')})`,
      );
      assert.ok(installed.includes('lit') && installed.includes('uqr'), installed.join(', '));
      const serverOnly = [
        '@id-verify/server',
        'hono',
        'zod',
        'sharp',
        'pg',
        '@electric-sql/pglite',
        '@node-rs/argon2',
      ];
      assert.deepEqual(
        installed.filter(
          (name) =>
            serverOnly.includes(name) || name.startsWith('@tensorflow/') || name.startsWith('@scalar/'),
        ),
        [],
      );
      // About 5 MB: lit and its packages (development and production builds, with source maps, ~3.5 MB),
      // uqr, the widget. Well past that, a dependency crept in.
      assert.ok(megabytes < 8, `${megabytes.toFixed(2)} MB`);
    });

    it('resolves every export, ships the manifest and the bundle, and no longer exports id-verify/webhooks', async () => {
      const out = JSON.parse(
        await runIn(
          widget,
          'widget-smoke.mjs',
          `import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const resolved = Object.fromEntries(['id-verify', 'id-verify/define', 'id-verify/sdk/id-verify.js', 'id-verify/custom-elements.json']
  .map((specifier) => [specifier, fileURLToPath(import.meta.resolve(specifier))]));
const manifest = JSON.parse(readFileSync(resolved['id-verify/custom-elements.json'], 'utf8'));
const tags = manifest.modules.flatMap((module) => module.declarations ?? []).map((declaration) => declaration.tagName).filter(Boolean);
const bundle = readFileSync(resolved['id-verify/sdk/id-verify.js'], 'utf8');
// Retired: webhook verification is @id-verify/node's alone (see CHANGELOG.md).
let webhooks = 'exported';
try { import.meta.resolve('id-verify/webhooks'); } catch (error) { webhooks = error.code; }
console.log(JSON.stringify({ resolved: Object.values(resolved).map((file) => file.slice(file.indexOf('node_modules/'))), tags, defines: bundle.includes('id-verify'), webhooks }));
`,
        ),
      );
      assert.deepEqual(out.resolved, [
        'node_modules/id-verify/dist/npm/index.js',
        'node_modules/id-verify/dist/npm/id-verify.js',
        'node_modules/id-verify/dist/sdk/id-verify.js',
        'node_modules/id-verify/dist/npm/custom-elements.json',
      ]);
      assert.ok(out.tags.includes('id-verify'), out.tags.join(', '));
      assert.equal(out.defines, true);
      assert.equal(out.webhooks, 'ERR_PACKAGE_PATH_NOT_EXPORTED');
    });
  });

  describe('@id-verify/server and @id-verify/node', () => {
    const dataDir = join(root, 'server-data');
    const env = { IDV_DATA_DIR: dataDir, IDV_VISION: 'off', IDV_LOG_LEVEL: 'error', NODE_ENV: 'development' };
    let sandboxKey = '';
    let baseUrl = '';
    let child: ChildProcess | undefined;
    let output = '';

    after(async () => {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    });

    it('ships compiled JavaScript with its bin, the hosted page and the console', () => {
      const paths = packed.get('@id-verify/server')?.files.map((file) => file.path) ?? [];
      for (const path of [
        'dist/lib/server/index.js',
        'dist/lib/server/index.d.ts',
        'dist/lib/server/bin/id-verify-server.js',
        'dist/lib/server/runtime/node/embedded-database-init.js',
        'dist/lib/server/runtime/node/vision/vision-worker.js',
        'dist/web/hosted/index.html',
        'dist/web/console/index.html',
        'dist/web/sdk/id-verify.js',
        'dist/web/docs/api-reference.js',
      ])
        assert.ok(paths.includes(path), `${path} not in the tarball`);
      assert.ok(
        !paths.some((path) => path.startsWith('client/') || path.startsWith('dist/lib/server/client/')),
      );
    });

    it('installs alone in at most 350 MB: no widget package, no API reference renderer, TensorFlow.js core, converter and the wasm backend only', async () => {
      const installed = installedPackages(server);
      const { stdout } = await run('du', ['-sh', 'node_modules'], { cwd: server });
      console.log(
        `@id-verify/server installed alone: du -sh ${stdout.trim()} (${installed.length} packages)`,
      );
      const { stdout: megabytes } = await run('du', ['-sm', 'node_modules'], { cwd: server });
      assert.ok(Number.parseInt(megabytes, 10) <= 350, `${megabytes.trim()} MB installed`);
      const unwanted = installed.filter(
        (name) =>
          name === 'id-verify' ||
          name.startsWith('@scalar/') ||
          [
            '@tensorflow/tfjs',
            '@tensorflow/tfjs-layers',
            '@tensorflow/tfjs-backend-webgl',
            '@tensorflow/tfjs-data',
          ].includes(name),
      );
      assert.deepEqual(unwanted, []);
      for (const needed of [
        '@tensorflow/tfjs-core',
        '@tensorflow/tfjs-converter',
        '@tensorflow/tfjs-backend-wasm',
        'tesseract.js',
      ])
        assert.ok(installed.includes(needed), `${needed} is not installed`);
    });

    it('id-verify-server help and an unknown command', async () => {
      const help = await bin(server, ['help'], env);
      assert.equal(help.code, 0, help.stderr);
      for (const command of ['serve', 'worker', 'migrate', 'bootstrap'])
        assert.match(help.stdout, new RegExp(`^  ${command}\\b`, 'm'));
      const unknown = await bin(server, ['frobnicate'], env);
      assert.equal(unknown.code, 64);
      assert.match(unknown.stderr, /unknown command "frobnicate"/);
    });

    it('id-verify-server migrate, then bootstrap, on an embedded database', async () => {
      const migrated = await bin(server, ['migrate'], env);
      assert.equal(migrated.code, 0, migrated.stderr);
      assert.match(migrated.stdout, /embedded database .* is migrated/);
      assert.ok(existsSync(join(dataDir, 'pgdata')));
      const created = await bin(
        server,
        ['bootstrap', '--tenant', 'Pack Test Ltd', '--email', 'ops@pack-test.example', '--sandbox-key'],
        env,
      );
      assert.equal(created.code, 0, created.stderr);
      sandboxKey = created.stdout.match(/^sandbox API key \(shown once\): (\S+)$/m)?.[1] ?? '';
      assert.match(sandboxKey, /^sk_sandbox_/, created.stdout);
    });

    it('id-verify-server worker refuses the embedded database (it needs PostgreSQL), exit 78', async () => {
      const worker = await bin(server, ['worker'], env);
      assert.equal(worker.code, 78, worker.stderr);
      assert.match(worker.stderr, /DATABASE_URL/);
    });

    it('id-verify-server serve answers /healthz and serves the widget bundle and the console from the installed packages', async () => {
      const port = await freePort();
      baseUrl = `http://127.0.0.1:${port}`;
      child = spawn(join(server, 'node_modules', '.bin', 'id-verify-server'), ['serve'], {
        cwd: server,
        env: cleanEnvironment({ ...env, PORT: String(port), IDV_HOST: '127.0.0.1', IDV_BASE_URL: baseUrl }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      // /healthz answers as soon as the port is bound; /readyz once the database is open and migrated.
      const deadline = Date.now() + 90_000;
      for (const path of ['/healthz', '/readyz']) {
        let status = 0;
        while (Date.now() < deadline && child.exitCode === null) {
          status = await fetch(`${baseUrl}${path}`).then(
            (response) => response.status,
            () => 0,
          );
          if (status === 200) break;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        assert.equal(status, 200, `no ${path} 200 (exit ${child.exitCode}):\n${output}`);
      }
      const script = await fetch(`${baseUrl}/sdk/id-verify.js`);
      assert.equal(script.status, 200, output);
      assert.match(script.headers.get('content-type') ?? '', /javascript/);
      assert.equal((await fetch(`${baseUrl}/console`)).status, 200);
      assert.equal((await fetch(`${baseUrl}/v1/openapi.json`)).status, 200);
      // /docs renders with the renderer prebuilt into the package (no renderer package is installed).
      const docs = await fetch(`${baseUrl}/docs`);
      assert.equal(docs.status, 200);
      assert.match(await docs.text(), /<script src="\/docs\/assets\/api-reference\.js">/);
      const renderer = await fetch(`${baseUrl}/docs/assets/api-reference.js`);
      assert.equal(renderer.status, 200, output);
      assert.match(renderer.headers.get('content-type') ?? '', /javascript/);
      assert.equal(
        (await renderer.arrayBuffer()).byteLength,
        statSync(join(server, 'node_modules/@id-verify/server/dist/web/docs/api-reference.js')).size,
      );
      // The installed package has no demo shop by design: nothing about it, and no error-level line.
      assert.equal((await fetch(`${baseUrl}/demo/`)).status, 404);
      assert.doesNotMatch(output, /demo shop|npm run build|"level":"error"/i, output);
    });

    it('@id-verify/node creates a sandbox session on it with the key bootstrap printed; its link opens the hosted page', async () => {
      assert.ok(baseUrl && sandboxKey, 'the server did not start');
      const out = JSON.parse(
        await runIn(
          client,
          'client-smoke.mjs',
          `import { createIdVerifyClient, IdVerifyError } from '@id-verify/node';
const idv = createIdVerifyClient({ apiKey: process.env.KEY, baseUrl: process.env.BASE_URL, maxRetries: 0 });
const session = await idv.sessions.create({ country: 'DEU', flow: 'user', tier: 'tier1', external_user_reference: 'pack-test' });
const read = await idv.sessions.get(session.session_id);
let refused;
try { await createIdVerifyClient({ apiKey: process.env.KEY + 'x', baseUrl: process.env.BASE_URL, maxRetries: 0 }).sessions.get(session.session_id); } catch (error) { refused = error instanceof IdVerifyError ? error.status : String(error); }
console.log(JSON.stringify({ id: session.session_id, status: read.status, environment: read.environment, refused, verifyUrl: session.verify_url }));
`,
          { KEY: sandboxKey, BASE_URL: baseUrl },
        ),
      );
      assert.match(out.id, /^sess_/);
      assert.equal(out.status, 'created');
      assert.equal(out.environment, 'sandbox');
      assert.equal(out.refused, 401);
      // The session's link opens the hosted page, which the installed server serves from its own build.
      assert.ok(String(out.verifyUrl).startsWith(`${baseUrl}/verify/`), out.verifyUrl);
      const page = await fetch(out.verifyUrl);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await page.text(), /\/hosted\/assets\//);
    });

    it('reads a face with its vision engine, TensorFlow.js without the umbrella package (face-api included)', async () => {
      const engine = join(
        server,
        'node_modules/@id-verify/server/dist/lib/server/runtime/node/vision/node-vision-engine.js',
      );
      const portrait = join(ROOT, 'test/fixtures/vision/portraits/astronaut.jpg');
      const out = JSON.parse(
        await runIn(
          server,
          'vision-smoke.mjs',
          `import { readFileSync } from 'node:fs';
import { createNodeVisionEngine } from ${JSON.stringify(engine)};
let umbrella;
try { import.meta.resolve('@tensorflow/tfjs'); umbrella = 'installed'; } catch { umbrella = 'absent'; }
const vision = createNodeVisionEngine();
try {
  const faces = await vision.analyzeFaces(new Uint8Array(readFileSync(${JSON.stringify(portrait)})), { embeddings: true });
  console.log(JSON.stringify({ umbrella, faces: faces.faces.length, embedding: faces.faces[0]?.embedding?.length ?? 0 }));
} finally {
  await vision.close();
}
`,
        ),
      );
      assert.deepEqual(out, { umbrella: 'absent', faces: 1, embedding: 128 });
    });

    it('holds no TypeScript source among the installed server modules', () => {
      const installed = join(server, 'node_modules', '@id-verify', 'server');
      assert.deepEqual(
        globSync('**/*.{ts,mts,cts}', { cwd: installed }).filter((path) => !/\.d\.[mc]?ts$/.test(path)),
        [],
      );
    });
  });

  describe('@id-verify/mock', () => {
    it('answers fetch through MSW in Node (@id-verify/mock/node), msw being its peer', async () => {
      assert.ok(installedPackages(mock).includes('msw'), 'npm installs the msw peer');
      const out = JSON.parse(
        await runIn(
          mock,
          'mock-smoke.mjs',
          `import { MOCK_FIXTURES, startMockServer } from '@id-verify/mock/node';
import { API_PATHS } from '@id-verify/mock';
let browserInNode;
try { import.meta.resolve('@id-verify/mock/browser'); browserInNode = 'resolved'; } catch (error) { browserInNode = error.code; }
const { close } = await startMockServer({ origin: 'https://api.pack-test.example', background: false });
try {
  const response = await fetch('https://api.pack-test.example/v1/sessions', {
    method: 'POST',
    headers: { 'x-api-key': MOCK_FIXTURES.sandboxKey, 'content-type': 'application/json' },
    body: JSON.stringify({ country: 'DEU', flow: 'user', tier: 'tier1' }),
  });
  const body = await response.json();
  console.log(JSON.stringify({ status: response.status, id: body.session_id, paths: Array.isArray(API_PATHS) || typeof API_PATHS === 'object', browserInNode }));
} finally {
  await close();
}
`,
        ),
      );
      assert.equal(out.status, 201);
      assert.match(out.id, /^sess_/);
      assert.equal(out.paths, true);
      assert.equal(out.browserInNode, 'ERR_PACKAGE_PATH_NOT_EXPORTED');
    });
  });
});
