// The Dockerfile, compose.yaml and .env.example cannot be built or run here (no image registry), so this
// checks everything they rely on that this machine can: the commands they run exist and work (the image's
// health check against a real server), the runtime stage holds every file and package those commands
// import, compose's services name real entry points, and every variable .env.example sets is one the
// server knows. With TEST_DATABASE_URL, the api and the worker start and stop with compose's environment.
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { parse as parseYaml } from 'yaml';
import { loadConfig, PRODUCTION_REQUIRED } from '../../../server/runtime/node/config.ts';
import { describeVariables } from '../../../scripts/generate-config-docs.ts';
import {
  ENVIRONMENT_SCHEMAS,
  knownEnvironmentVariables,
} from '../../../server/runtime/node/environment-schemas.ts';
import { DEFAULT_DIST_DIR, widgetDistDir } from '../../../server/runtime/node/node-widget-assets.ts';
import { freePort, type ServerProcess, startServerProcess } from './server-process.ts';
import { relaxedCommits } from '../support/test-database.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');

// ── Dockerfile ────────────────────────────────────────────────────────────────────────────────────────────

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined and comments dropped. */
function dockerfile(): Instruction[] {
  return read('Dockerfile')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/** The instructions of each stage by name, the last stage under `runtime`'s name. */
function stages(): Map<string, Instruction[]> {
  const result = new Map<string, Instruction[]>();
  let current: Instruction[] = [];
  for (const instruction of dockerfile()) {
    if (instruction.keyword === 'FROM') {
      current = [instruction];
      const name = instruction.args.match(/\sAS\s+(\S+)$/i)?.[1] ?? String(result.size);
      result.set(name, current);
    } else current.push(instruction);
  }
  return result;
}

function lastStage(): Instruction[] {
  return [...stages().values()].at(-1) ?? [];
}

/** The exec-form (JSON array) command of `CMD [...]` or `HEALTHCHECK … CMD [...]`. */
function execForm(args: string): string[] {
  const json = args.slice(args.indexOf('['));
  const parsed = JSON.parse(json) as unknown;
  assert.ok(
    Array.isArray(parsed) && parsed.every((part) => typeof part === 'string'),
    `not exec form: ${args}`,
  );
  return parsed as string[];
}

function healthcheck(): string[] {
  const instruction = lastStage().find(({ keyword }) => keyword === 'HEALTHCHECK');
  assert.ok(instruction, 'the runtime stage has no HEALTHCHECK');
  return execForm(instruction.args.slice(instruction.args.indexOf(' CMD ') + 5));
}

/** Runs the image's health check command on this machine, as Docker would inside the container. */
function runHealthcheck(port: number): number {
  const [command, ...args] = healthcheck();
  assert.equal(command, 'node', 'the health check must need nothing but Node (no curl in a slim image)');
  const result = spawnSync(process.execPath, args, {
    env: { PATH: process.env['PATH'] ?? '', PORT: String(port) },
    timeout: 15_000,
  });
  return result.status ?? -1;
}

/** A path's relative imports, followed to the end, and the packages they import. */
function importClosure(entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = entries.map((entry) => resolve(ROOT, entry));
  const pattern =
    /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) {
      const specifier = (match[1] ?? match[2] ?? match[3]) as string;
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        if (/\.(ts|js|mjs)$/.test(target) && existsSync(target)) pending.push(target);
      } else if (!specifier.startsWith('node:')) {
        const parts = specifier.split('/');
        packages.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string));
      }
    }
  }
  return { files, packages };
}

/** Files the server runs by path rather than imports: worker processes and the embedded database's init. */
const RUNTIME_ENTRIES = [
  'server/node.ts',
  'server/worker.ts',
  'server/cli.ts',
  'server/bin/id-verify-server.ts',
  'server/index.ts',
  'server/runtime/node/vision/vision-worker.ts',
  'server/runtime/node/embedded-database-init.ts',
];

/** `.dockerignore`'s patterns, in the simple form this repository uses (names, globs of one level, `!`). */
function dockerignored(path: string): boolean {
  let ignored = false;
  for (const raw of read('.dockerignore').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    const pattern = negated ? line.slice(1) : line;
    const regex = new RegExp(
      `^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/.*)?$`,
    );
    if (regex.test(path)) ignored = !negated;
  }
  return ignored;
}

describe('Dockerfile', () => {
  it('builds in stages and runs as a non-root user on a slim Node 24 image', () => {
    const all = stages();
    assert.ok(all.size >= 3, 'deps, build and runtime stages');
    const runtime = lastStage();
    const from = runtime[0]?.args.split(/\s+/)[0] ?? '';
    // `FROM ${NODE_IMAGE}`: the image is the ARG's default.
    const image = from.startsWith('$') ? read('Dockerfile').match(/ARG NODE_IMAGE=(\S+)/)?.[1] : from;
    assert.match(image ?? '', /^node:24(\.\d+)*-(bookworm-|trixie-)?slim$/);
    const user = runtime.filter(({ keyword }) => keyword === 'USER').at(-1)?.args;
    assert.ok(user && !/^(root|0)(:|$)/.test(user), `runtime user: ${user}`);
    const commands = [...all.values()]
      .flat()
      .filter(({ keyword }) => keyword === 'RUN')
      .map(({ args }) => args);
    assert.ok(
      commands.some((command) => /\bnpm ci\b/.test(command)),
      'dependencies come from npm ci',
    );
    assert.ok(
      commands.some((command) => /\bnpm run build\b/.test(command)),
      'dist/ comes from npm run build',
    );
  });

  it('copies from the context only paths that exist and .dockerignore lets through, from stages that exist', () => {
    const names = new Set(stages().keys());
    for (const { keyword, args } of dockerfile()) {
      if (keyword !== 'COPY') continue;
      const parts = args.split(/\s+/).filter((part) => !part.startsWith('--chown'));
      const from = parts.find((part) => part.startsWith('--from='))?.slice('--from='.length);
      const sources = parts.filter((part) => !part.startsWith('--')).slice(0, -1);
      if (from) {
        assert.ok(names.has(from), `COPY --from=${from}: no such stage`);
        continue;
      }
      for (const source of sources) {
        if (source === '.') continue;
        assert.ok(existsSync(resolve(ROOT, source)), `COPY ${source}: not in the repository`);
        assert.ok(!dockerignored(source), `COPY ${source}: excluded by .dockerignore`);
      }
    }
    for (const secret of ['.env', '.idv', 'node_modules', '.git']) {
      assert.ok(dockerignored(secret), `.dockerignore must exclude ${secret}`);
    }
    assert.ok(!dockerignored('.env.example'));
  });

  it('gives the runtime stage every file and package its commands import', () => {
    const runtime = lastStage();
    const copied = runtime
      .filter(({ keyword }) => keyword === 'COPY')
      .map(({ args }) => args.split(/\s+/).at(-1)?.replace(/^\.\//, '').replace(/\/$/, '') ?? '');
    const { files, packages } = importClosure(RUNTIME_ENTRIES);
    for (const file of files) {
      const path = relative(ROOT, file);
      const top = path.split('/')[0] as string;
      // A whole top-level folder (server/), or what of src/ the server imports (src/capture/quality/, one file).
      assert.ok(
        copied.some((destination) => path === destination || path.startsWith(`${destination}/`)),
        `${path} is imported at run time but ${top}/ is not copied`,
      );
    }
    // What the server serves from disk: the hosted page and the console from its own build, the script-tag
    // bundle from the widget package (node_modules/id-verify, a workspace link to src/, needs its package.json).
    const widget = widgetDistDir();
    assert.ok(widget, 'the id-verify workspace package is not installed');
    for (const served of [
      relative(ROOT, DEFAULT_DIST_DIR),
      `${relative(ROOT, realpathSync(widget))}/sdk`,
      'src/package.json',
    ]) {
      assert.ok(copied.includes(served), `the runtime stage does not copy ${served}: ${copied.join(', ')}`);
    }
    // The runtime stage prunes devDependencies: what the server imports must be a dependency of its package.
    const server = JSON.parse(read('server/package.json')) as {
      name: string;
      dependencies: Record<string, string>;
    };
    // (Its own name is no dependency: the closure also sees the `@example`s in comments, which use it.)
    const missing = [...packages].filter((name) => !(name in server.dependencies) && name !== server.name);
    assert.deepEqual(missing, [], 'imported at run time but not in server/package.json dependencies');
    const { dependencies: rootDependencies = {} } = JSON.parse(read('package.json')) as {
      dependencies?: Record<string, string>;
    };
    assert.deepEqual(Object.keys(rootDependencies), [], 'the workspace root ships nothing: no dependencies');
  });

  it('gives `npm ci` every workspace package.json beside the root one and the lock file', () => {
    const { workspaces } = JSON.parse(read('package.json')) as { workspaces: string[] };
    const deps = stages().get('deps') ?? [];
    const copiedBeforeCi = deps
      .slice(
        0,
        deps.findIndex(({ keyword, args }) => keyword === 'RUN' && /\bnpm ci\b/.test(args)),
      )
      .filter(({ keyword }) => keyword === 'COPY')
      .flatMap(({ args }) =>
        args
          .split(/\s+/)
          .filter((part) => !part.startsWith('--'))
          .slice(0, -1),
      );
    for (const file of [
      'package.json',
      'package-lock.json',
      ...workspaces.map((dir) => `${dir}/package.json`),
    ]) {
      assert.ok(
        copiedBeforeCi.includes(file),
        `${file} is not copied before npm ci: ${copiedBeforeCi.join(', ')}`,
      );
    }
  });

  it('runs `npm start`s entry as PID 1', () => {
    const cmd = lastStage().find(({ keyword }) => keyword === 'CMD');
    assert.ok(cmd);
    assert.deepEqual(execForm(cmd.args), ['node', 'server/node.ts']);
    assert.equal(JSON.parse(read('package.json')).scripts.start, 'node server/node.ts');
  });

  // `npm start` in development on the embedded database, as the README's first command line runs it.
  describe('HEALTHCHECK, against `npm start`', () => {
    let server: ServerProcess;
    const dataDir = mkdtempSync(join(tmpdir(), 'idv-deploy-'));
    before(async () => {
      server = await startServerProcess({
        IDV_DATA_DIR: dataDir,
        IDV_VISION: 'off',
        IDV_LOG_LEVEL: 'error',
      });
    });
    after(async () => {
      await server?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('asks /readyz with Node alone', () => {
      assert.ok(healthcheck().join(' ').includes('/readyz'));
    });

    it('passes against a ready server', async () => {
      const ready = await fetch(`${server.baseUrl}/readyz`);
      assert.equal(ready.status, 200);
      assert.equal(runHealthcheck(server.port), 0);
    });

    it('fails where nothing answers', async () => {
      assert.equal(runHealthcheck(await freePort()), 1);
    });

    // Not the image's business, but the same server: README.md's URL table is what the banner prints.
    it("prints in its banner exactly the URLs of README.md's table", async () => {
      const printed = [...server.output().matchAll(/^ {2}[A-Za-z ]+: +http:\/\/localhost:\d+(\/\S*)$/gm)].map(
        (match) => match[1] as string,
      );
      const documented = [...read('README.md').matchAll(/^\| `http:\/\/localhost:8080(\/[^`]*)`/gm)].map(
        (match) => match[1] as string,
      );
      assert.ok(printed.includes('/sdk/id-verify.js'), server.output());
      assert.deepEqual([...printed].sort(), [...documented].sort());
    });
  });
});

// ── The operator commands: server/cli.ts, the @id-verify/server package's `id-verify-server` ──────────────

/** Runs `node server/cli.ts …` to its end, as `id-verify-server …` runs it (the bin only imports it). */
function cli(
  args: string[],
  env: Record<string, string>,
): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['server/cli.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

describe('the operator commands (server/cli.ts, `id-verify-server`)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-cli-'));
  const embedded = { IDV_DATA_DIR: dataDir, IDV_VISION: 'off', IDV_LOG_LEVEL: 'error' };
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is the package bin, compiled from server/bin/, and `npm run idv` in the repository', () => {
    const server = JSON.parse(read('server/package.json')) as { bin: Record<string, string> };
    assert.deepEqual(server.bin, { 'id-verify-server': 'dist/lib/server/bin/id-verify-server.js' });
    const source = read('server/bin/id-verify-server.ts');
    assert.ok(source.startsWith('#!/usr/bin/env node\n'), 'an executable bin starts with its shebang');
    assert.match(source, /^import '\.\.\/cli\.ts';$/m);
    assert.equal(JSON.parse(read('package.json')).scripts.idv, 'node server/cli.ts');
  });

  it('lists serve, worker, migrate and bootstrap, and knows every command the deploy files and docs run', () => {
    const help = cli(['help'], embedded);
    assert.equal(help.status, 0, help.stderr);
    const listed = new Set([...help.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((match) => match[1] as string));
    for (const command of ['serve', 'worker', 'migrate', 'bootstrap'])
      assert.ok(listed.has(command), help.stdout);
    for (const file of ['Dockerfile', 'compose.yaml', 'docs/deployment.md', 'server/README.md']) {
      // In Markdown, only what is code: fenced blocks and `inline` spans.
      const text = file.endsWith('.md')
        ? [...read(file).matchAll(/```[^\n]*\n([\s\S]*?)```|`([^`\n]+)`/g)]
            .map((m) => m[1] ?? m[2])
            .join('\n')
        : read(file);
      const used = [...text.matchAll(/(?:server\/cli\.ts|id-verify-server|npm run idv --) ([a-z]+)/g)].map(
        (match) => match[1] as string,
      );
      if (file === 'server/README.md') assert.ok(used.length >= 4, `${file} shows the commands`);
      for (const command of used)
        assert.ok(listed.has(command), `${file} runs \`${command}\`, which the CLI lacks`);
    }
  });

  it('refuses an unknown command and a bootstrap without its arguments (exit 64)', () => {
    const unknown = cli(['frobnicate'], embedded);
    assert.equal(unknown.status, 64);
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
    const bootstrap = cli(['bootstrap', '--tenant', 'Acme'], embedded);
    assert.equal(bootstrap.status, 64);
    assert.match(bootstrap.stderr, /--email/);
    assert.equal(cli(['migrate', '--force'], embedded).status, 64);
  });

  it('migrates the embedded database, then bootstraps a tenant on it and prints its secrets once', () => {
    const migrated = cli(['migrate'], embedded);
    assert.equal(migrated.status, 0, migrated.stderr);
    assert.match(migrated.stdout, /^the embedded database \(.+\) is migrated$/m);
    const created = cli(
      ['bootstrap', '--tenant', 'Acme', '--email', 'ops@acme.example', '--sandbox-key'],
      embedded,
    );
    assert.equal(created.status, 0, created.stderr);
    assert.match(created.stdout, /^tenant ten_\S+ created with admin ops@acme\.example$/m);
    assert.match(created.stdout, /^admin password \(shown once\): \S{12,}$/m);
    assert.match(created.stdout, /^sandbox API key \(shown once\): sk_sandbox_\S+$/m);
  });

  it('runs the worker, which refuses the embedded database (exit 78, EX_CONFIG)', () => {
    const worker = cli(['worker'], embedded);
    assert.equal(worker.status, 78, worker.stderr);
    assert.match(worker.stderr, /DATABASE_URL: required by the worker process/);
  });
});

// ── .env.example ─────────────────────────────────────────────────────────────────────────────────────────

interface ExampleVariable {
  name: string;
  value: string;
  /** `# NAME=value`: shown, not set. */
  commented: boolean;
}

function envExample(): ExampleVariable[] {
  return read('.env.example')
    .split('\n')
    .flatMap((line) => {
      const match = line.match(/^(# )?([A-Z][A-Z0-9_]*)=(.*)$/);
      return match
        ? [{ name: match[2] as string, value: match[3] as string, commented: match[1] !== undefined }]
        : [];
    });
}

// ── compose.yaml ─────────────────────────────────────────────────────────────────────────────────────────

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  env_file?: string | string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  volumes?: string[];
}

function compose(): { services: Record<string, ComposeService>; volumes?: Record<string, unknown> } {
  return parseYaml(read('compose.yaml'));
}

/** The variables compose.yaml interpolates (`${NAME}`, `${NAME:?…}`, `${NAME:-…}`). */
function interpolated(): Set<string> {
  return new Set(
    [...read('compose.yaml').matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((match) => match[1] as string),
  );
}

/** A service's environment as compose gives it: `.env` (here, .env.example's set lines), then `environment`. */
function serviceEnvironment(service: ComposeService, values: Record<string, string>): Record<string, string> {
  const fromFile = Object.fromEntries(
    envExample()
      .filter(({ commented }) => !commented)
      .map(({ name, value }) => [name, values[name] ?? value]),
  );
  const substitute = (text: string) =>
    text.replace(
      /\$\{([A-Z][A-Z0-9_]*)(?::[?-][^}]*)?\}/g,
      (_, name: string) => values[name] ?? fromFile[name] ?? '',
    );
  const own = Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [name, substitute(String(value))]),
  );
  return { ...fromFile, ...own };
}

describe('.env.example', () => {
  it('sets or shows only variables the server knows, or compose.yaml reads', () => {
    const known = knownEnvironmentVariables();
    const composeOnly = interpolated();
    const unknown = envExample().filter(({ name }) => !known.has(name) && !composeOnly.has(name));
    assert.deepEqual(
      unknown.map(({ name }) => name),
      [],
    );
  });

  it('lists every variable the server knows, and sets every one production requires', () => {
    const listed = new Set(envExample().map(({ name }) => name));
    assert.deepEqual(
      [...knownEnvironmentVariables()].filter((name) => !listed.has(name)),
      [],
    );
    const set = new Set(
      envExample()
        .filter(({ commented }) => !commented)
        .map(({ name }) => name),
    );
    for (const name of PRODUCTION_REQUIRED) assert.ok(set.has(name), `${name} must be set in .env.example`);
    for (const name of interpolated()) assert.ok(set.has(name), `compose.yaml needs ${name} from .env`);
  });

  it('shows each default as the schema has it', () => {
    const defaults = new Map(
      ENVIRONMENT_SCHEMAS.flatMap(({ schema }) => describeVariables(schema)).map((row) => [
        row.name,
        row.default,
      ]),
    );
    for (const { name, value, commented } of envExample()) {
      const documented = defaults.get(name);
      // Only a plain value (`90`), not a rule (`0.0.0.0` in production, …), compares.
      if (!commented || !documented || !/^`[^`]*`$/.test(documented)) continue;
      assert.equal(
        `\`${value}\``,
        documented,
        `${name}: .env.example shows ${value}, the default is ${documented}`,
      );
    }
  });

  it('holds no secret, and its key command makes keys the server accepts', () => {
    for (const { name, value } of envExample()) {
      if (/KEY|SECRET|PASSWORD/.test(name) && !name.endsWith('_KEY_PREFIX'))
        assert.equal(value, '', `${name} has a value`);
    }
    const command = read('.env.example').match(/node -e "([^"]+)"/)?.[1];
    assert.ok(command, 'no key generation command');
    const key = () => execFileSync(process.execPath, ['-e', command], { encoding: 'utf8' }).trim();
    const config = loadConfig({
      NODE_ENV: 'production',
      IDV_BASE_URL: 'https://idv.example.com',
      IDV_MASTER_KEY: key(),
      IDV_JWT_SECRET: key(),
    });
    assert.equal(config.masterKey?.length, 32);
    assert.equal(config.jwtSecret?.length, 32);
  });
});

describe('compose.yaml', () => {
  it('runs PostgreSQL 16 on a volume with a health check', () => {
    const { services, volumes } = compose();
    const postgres = services['postgres'];
    assert.ok(postgres);
    assert.match(postgres.image ?? '', /^postgres:16/);
    const volume = postgres.volumes?.[0]?.split(':')[0];
    assert.ok(volume && volumes && volume in volumes, 'a named volume for the data');
    assert.ok(postgres.healthcheck?.test?.join(' ').includes('pg_isready'));
  });

  it('runs the image CMD as the api, and the worker entry, both on the database and its blob store', () => {
    const { services } = compose();
    const api = services['api'];
    const worker = services['worker'];
    assert.ok(api && worker);
    assert.equal(api.command, undefined, 'the api runs the image CMD (server/node.ts)');
    assert.deepEqual(worker.command, ['node', 'server/worker.ts']);
    assert.equal(JSON.parse(read('package.json')).scripts.worker, 'node server/worker.ts');
    assert.ok(existsSync(resolve(ROOT, 'server/worker.ts')));
    assert.equal(api.environment?.['IDV_WORKERS'], 'off');
    assert.equal(worker.healthcheck?.disable, true, 'the worker has no /readyz to ask');
    for (const service of [api, worker]) {
      assert.ok(service.build !== undefined && service.image === api.image, 'both run the one image');
      assert.equal(service.env_file, '.env');
      assert.match(service.environment?.['DATABASE_URL'] ?? '', /^postgres:\/\/[^@]+@postgres:5432\//);
      assert.equal(service.environment?.['IDV_BLOB_STORE'], 'postgres');
      assert.equal(service.environment?.['NODE_ENV'], 'production');
      assert.equal(service.depends_on?.['postgres']?.condition, 'service_healthy');
      for (const name of Object.keys(service.environment ?? {})) {
        assert.ok(knownEnvironmentVariables().has(name), `${name} is not a server variable`);
      }
    }
  });

  it('gives each service a configuration the server accepts', () => {
    const { services } = compose();
    for (const name of ['api', 'worker']) {
      const environment = serviceEnvironment(services[name] as ComposeService, {
        POSTGRES_PASSWORD: 'example',
        IDV_MASTER_KEY: 'a'.repeat(64),
        IDV_JWT_SECRET: 'b'.repeat(64),
      });
      assert.equal(loadConfig(environment).mode, 'production');
    }
  });
});

// ── Both processes with compose's environment, on PostgreSQL ─────────────────────────────────────────────

const ADMIN_URL = process.env['TEST_DATABASE_URL'];

describe('the api and worker services, with the environment compose gives them', {
  skip: ADMIN_URL ? false : 'TEST_DATABASE_URL is not set: needs a PostgreSQL server',
}, () => {
  const name = `idv_deploy_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let databaseUrl = '';

  async function admin(statement: string): Promise<void> {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }

  const hexKey = () =>
    execFileSync(
      process.execPath,
      ['-e', "console.log(require('node:crypto').randomBytes(32).toString('hex'))"],
      {
        encoding: 'utf8',
      },
    ).trim();
  const masterKey = hexKey();
  const jwtSecret = hexKey();

  /** compose's environment for a service, with this machine's database and fresh keys for the blanks. */
  function environmentOf(service: string, extra: Record<string, string> = {}): Record<string, string> {
    const environment = serviceEnvironment(compose().services[service] as ComposeService, {
      POSTGRES_PASSWORD: 'unused',
      IDV_MASTER_KEY: masterKey,
      IDV_JWT_SECRET: jwtSecret,
    });
    assert.match(environment['DATABASE_URL'] ?? '', /@postgres:5432\/idv$/);
    return { ...environment, DATABASE_URL: databaseUrl, PATH: process.env['PATH'] ?? '', ...extra };
  }

  before(async () => {
    await admin(`create database ${name}`);
    await admin(relaxedCommits(name));
    const url = new URL(ADMIN_URL as string);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  });
  after(async () => {
    await admin(`drop database if exists ${name} with (force)`);
  });

  it('`node server/cli.ts migrate` migrates it with the environment of the api service and exits 0', () => {
    const migrated = cli(['migrate'], environmentOf('api'));
    assert.equal(migrated.status, 0, migrated.stderr);
    assert.match(migrated.stdout, /^PostgreSQL is migrated$/m);
  });

  it('the api serves, is ready for the health check, runs no background work, and stops on SIGTERM', async () => {
    const port = await freePort();
    const api = await startServerProcess(
      environmentOf('api', { PORT: String(port), IDV_HOST: '127.0.0.1' }),
      {
        startTimeoutMs: 60_000,
      },
    );
    try {
      const started = api.records().find((record) => record['message'] === 'server started');
      assert.equal(started?.['mode'], 'production');
      assert.equal(started?.['database'], 'postgres');
      assert.equal(started?.['blob_store'], 'postgres');
      assert.deepEqual(started?.['workers'], []);
      assert.equal(runHealthcheck(api.port), 0);
    } finally {
      assert.equal(await api.stop('SIGTERM'), 0);
    }
  });

  it('the worker starts on the migrated database and stops on SIGTERM with exit 0', async () => {
    const [command, ...args] = compose().services['worker']?.command ?? [];
    assert.equal(command, 'node');
    const child: ChildProcess = spawn(process.execPath, args, {
      cwd: ROOT,
      env: environmentOf('worker'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`worker did not start:\n${stdout}\n${stderr}`)),
          60_000,
        );
        child.stdout?.on('data', () => {
          if (stdout.includes('"message":"worker started"')) {
            clearTimeout(timer);
            resolve();
          }
        });
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`worker exited with ${code}:\n${stdout}\n${stderr}`));
        });
      });
      const started = stdout
        .split('\n')
        .filter((line) => line.includes('"worker started"'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)[0];
      assert.equal(started?.['mode'], 'production');
      assert.equal(started?.['blob_store'], 'postgres');
      assert.deepEqual(started?.['workers'], ['webhooks', 'review', 'sweepers']);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0, stderr);
  });
});
