// `npm run bench:api`: the API's cost per request against a minimal, well-built peer (bench/api/peer/,
// Fastify 5 + pg, the same tables), both on PostgreSQL, measured interleaved in rounds in one run so that
// a noisy neighbour or a warming cache hits both alike. Each server runs in its own process on its own
// fresh database (migrated with our migrations); ours runs its `npm start` entry in production mode.
//
// Targets: the peer; ours as a user runs it (in-process webhook worker on, no Idempotency-Key); ours with
// IDV_WEBHOOK_WORKER=off; ours with an Idempotency-Key on every create. For each: CPU µs per request (the
// server process's user + system time from /proc), requests/s and p99, as the median over the rounds, and
// the ratio ours ÷ peer of CPU per request, the figure issue #13 targets (≤ 1.5).
//
// Options (environment): BENCH_ROUNDS (default 3), BENCH_SECONDS per measurement (default 5),
// BENCH_CONNECTIONS (default 10), BENCH_DATABASE_URL (an admin URL; default postgres://postgres@127.0.0.1:5432/test),
// BENCH_PROFILE=<dir> runs every server with `node --cpu-prof` and writes their profiles there on exit.
// BENCH_REQUESTS=create or get measures only that request (default both).
// BENCH_VARIANTS=off to measure only the peer and ours as shipped (no worker-off, no Idempotency-Key rows):
// quicker when iterating on one change.
// BENCH_OURS_BEFORE=<dir> adds ours from another checkout (and, unless BENCH_VARIANTS=off, its create with an
// Idempotency-Key) (e.g. `git archive HEAD server package.json | tar -x
// -C <dir>` plus a node_modules link) as one more target, so a change is measured before/after in one run;
// several directories, comma-separated, are one target each (named by the directory), e.g. the same tree
// with one change after another applied, to see what each gained in one run. BENCH_BEFORE_NODE_ARGS adds
// `node` arguments to those targets only (e.g. `--max-semi-space-size=16` against the default).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { issueApiKey } from '../../server/features/auth/api-key-secrets.ts';
import { randomIds } from '../../server/crypto/ids.ts';
import { postgresDatabase } from '../../server/runtime/node/pg-database.ts';
import { migrate } from '../../server/store/migrate.ts';
import { insertApiKey } from '../../server/store/api-keys.ts';
import { insertTenant } from '../../server/store/tenants.ts';
import { freePort } from '../../test/node/server/server-process.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const WARM_UP_SECONDS = 2;
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10);
const ADMIN_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const PROFILE_DIR = process.env['BENCH_PROFILE'];
const BEFORE_TREES = (process.env['BENCH_OURS_BEFORE'] ?? '').split(',').filter((dir) => dir !== '');
/** Extra `node` arguments for the BENCH_OURS_BEFORE targets only, e.g. to compare a V8 flag. */
const BEFORE_NODE_ARGS = (process.env['BENCH_BEFORE_NODE_ARGS'] ?? '').split(' ').filter((arg) => arg !== '');
const REQUESTS = (process.env['BENCH_REQUESTS'] ?? 'create,get').split(',');
const VARIANTS = process.env['BENCH_VARIANTS'] !== 'off';
const SESSION_BODY = JSON.stringify({
  country: 'DEU',
  flow: 'user',
  tier: 'tier2',
  external_user_reference: 'bench-user',
});
const OURS_ENTRY = fileURLToPath(new URL('../../server/node.ts', import.meta.url));
const PEER_ENTRY = fileURLToPath(new URL('./peer/server.ts', import.meta.url));

interface Measurement {
  requestsPerSecond: number;
  p99: number;
  errors: number;
  /** The server process's CPU time (user + system) per request. */
  cpuMicrosPerRequest: number;
}

/** Linux's clock tick for /proc times; 100 on every mainstream kernel configuration. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds a process has used so far, from /proc/<pid>/stat (utime + stime). Unlike requests per
 * second, this barely moves when the load generator or a neighbour competes for the same cores.
 */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

interface Target {
  name: string;
  pid: number;
  baseUrl: string;
  headers: Record<string, string>;
  sessionId: string;
  /** Its database's name. */
  database: string;
  /** Sends a fresh Idempotency-Key with every create. */
  idempotencyKeys?: boolean;
  stop(): Promise<void>;
}

async function load(target: Target, kind: 'create' | 'get', seconds: number): Promise<Measurement> {
  // The creates before have grown `sessions` from empty in seconds, faster than autovacuum refreshes the
  // planner's statistics; a stale plan for the GET's select (seen: a fraction of the peer's usual rate)
  // would measure the bench, not the servers. A production table has current statistics.
  if (kind === 'get') await query(databaseUrl(target.database), 'analyze sessions');
  const cpuBefore = cpuSecondsOf(target.pid);
  const result = await autocannon({
    url:
      kind === 'create'
        ? `${target.baseUrl}/v1/sessions`
        : `${target.baseUrl}/v1/sessions/${target.sessionId}`,
    method: kind === 'create' ? 'POST' : 'GET',
    headers: target.headers,
    ...(kind === 'create' ? { body: SESSION_BODY } : {}),
    ...(target.idempotencyKeys
      ? {
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                headers: { ...request.headers, 'idempotency-key': randomUUID() },
              }),
            },
          ],
        }
      : {}),
    connections: CONNECTIONS,
    duration: seconds,
  });
  const cpuAfter = cpuSecondsOf(target.pid);
  const expected = kind === 'create' ? 201 : 200;
  const wrong = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => Number(status) !== expected)
    .reduce((sum, [, stat]) => sum + (stat as { count: number }).count, 0);
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + wrong,
    cpuMicrosPerRequest:
      result.requests.total === 0 ? Number.NaN : ((cpuAfter - cpuBefore) * 1e6) / result.requests.total,
  };
}

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function admin(statement: string): Promise<void> {
  return query(ADMIN_URL, statement);
}

async function query(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh database with our schema, one active tenant and one production API key (returned). */
async function freshDatabase(name: string): Promise<string> {
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const db = postgresDatabase(databaseUrl(name), { max: 2 });
  try {
    await migrate(db);
    const now = new Date();
    const tenantId = randomIds('ten');
    const key = await issueApiKey('production');
    await insertTenant(db, { id: tenantId, name: 'Bench', now });
    await insertApiKey(db, {
      id: randomIds('key'),
      tenant_id: tenantId,
      environment: 'production',
      name: 'bench',
      key_id: key.keyId,
      secret_hash: key.secretHash,
      last4: key.last4,
      created_by: null,
      created_at: now,
    });
    return key.secret;
  } finally {
    await db.close();
  }
}

/** Spawns a server, drains its output (ours logs a line per request) and waits for its first line. */
async function spawnServer(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let seen = '';
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  await new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${seen}\n${errors}`)), 30_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (ready.test(seen)) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolveReady();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${seen}\n${errors}`));
    });
  });
  return child;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
    child.kill('SIGTERM');
    await exited;
  };
}

/** `node --cpu-prof` for every server when BENCH_PROFILE names a directory (one profile per process). */
function profileArgs(): string[] {
  return PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${resolve(PROFILE_DIR)}`] : [];
}

async function firstSession(baseUrl: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/sessions`, { method: 'POST', headers, body: SESSION_BODY });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`create answered ${response.status}: ${text}`);
  return (JSON.parse(text) as { session_id: string }).session_id;
}

async function startOurs(
  name: string,
  database: string,
  extraEnv: Record<string, string>,
  entry = OURS_ENTRY,
  nodeArgs: string[] = [],
): Promise<Target> {
  const apiKey = await freshDatabase(database);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-'));
  const child = await spawnServer(
    [...profileArgs(), ...nodeArgs, entry],
    {
      PATH: process.env['PATH'] ?? '',
      NODE_ENV: 'production',
      PORT: String(port),
      IDV_HOST: '127.0.0.1',
      IDV_BASE_URL: baseUrl,
      IDV_MASTER_KEY: randomBytes(32).toString('base64'),
      IDV_JWT_SECRET: randomBytes(32).toString('base64'),
      IDV_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl(database),
      // Nothing here uses image analysis; loading its models would only slow the start.
      IDV_VISION: 'off',
      IDV_RATE_LIMIT_READS: '1000000000',
      IDV_RATE_LIMIT_WRITES: '1000000000',
      ...extraEnv,
    },
    /"message":"server started"/,
  );
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const stop = stopper(child);
  return {
    name,
    database,
    pid: child.pid!,
    baseUrl,
    headers,
    sessionId: await firstSession(baseUrl, headers),
    stop: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
      await admin(`drop database if exists ${database} with (force)`);
    },
  };
}

async function startPeer(database: string): Promise<Target> {
  const apiKey = await freshDatabase(database);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = await spawnServer(
    [...profileArgs(), PEER_ENTRY],
    {
      PATH: process.env['PATH'] ?? '',
      PORT: String(port),
      PEER_DATABASE_URL: databaseUrl(database),
      PEER_BASE_URL: baseUrl,
    },
    /peer: http/,
  );
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const stop = stopper(child);
  return {
    name: 'peer (Fastify + pg)',
    database,
    pid: child.pid!,
    baseUrl,
    headers,
    sessionId: await firstSession(baseUrl, headers),
    stop: async () => {
      await stop();
      await admin(`drop database if exists ${database} with (force)`);
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

interface Scenario {
  target: Target;
  kind: 'create' | 'get';
  label: string;
  runs: Measurement[];
}

const tag = `${process.pid}`;
console.log(
  `bench:api: PostgreSQL, ${ROUNDS} rounds × ${SECONDS} s per measurement, ${CONNECTIONS} connections, Node ${process.version}`,
);
const targets: Target[] = [];
try {
  const peer = await startPeer(`idv_bench_peer_${tag}`);
  targets.push(peer);
  const ours = await startOurs('ours', `idv_bench_ours_${tag}`, {});
  targets.push(ours);
  const oursWorkerOff = VARIANTS
    ? await startOurs('ours, webhook worker off', `idv_bench_ours_nowh_${tag}`, {
        IDV_WEBHOOK_WORKER: 'off',
      })
    : null;
  if (oursWorkerOff) targets.push(oursWorkerOff);
  const oursIdempotent: Target = {
    ...ours,
    name: 'ours, with Idempotency-Key',
    idempotencyKeys: true,
    stop: async () => {},
  };

  const befores: Target[] = [];
  for (const [index, dir] of BEFORE_TREES.entries()) {
    const label = BEFORE_TREES.length === 1 ? 'ours @ BENCH_OURS_BEFORE' : `ours @ ${basename(resolve(dir))}`;
    const before = await startOurs(
      label,
      `idv_bench_before${index}_${tag}`,
      {},
      join(resolve(dir), 'server/node.ts'),
      BEFORE_NODE_ARGS,
    );
    befores.push(before);
    targets.push(before);
  }

  const allScenarios: Scenario[] = [
    { target: peer, kind: 'create', label: 'peer', runs: [] },
    { target: ours, kind: 'create', label: 'ours', runs: [] },
    ...(oursWorkerOff
      ? [
          { target: oursWorkerOff, kind: 'create' as const, label: 'ours, webhook worker off', runs: [] },
          { target: oursIdempotent, kind: 'create' as const, label: 'ours, with Idempotency-Key', runs: [] },
        ]
      : []),
    ...befores.map((before) => ({ target: before, kind: 'create' as const, label: before.name, runs: [] })),
    // The before trees' idempotent create too, so a change to the Idempotency-Key path is measured A/B.
    ...(VARIANTS
      ? befores.map((before) => {
          const label = `${before.name}, with Idempotency-Key`;
          const target: Target = { ...before, name: label, idempotencyKeys: true, stop: async () => {} };
          return { target, kind: 'create' as const, label, runs: [] };
        })
      : []),
    { target: peer, kind: 'get', label: 'peer', runs: [] },
    { target: ours, kind: 'get', label: 'ours', runs: [] },
    ...(oursWorkerOff
      ? [{ target: oursWorkerOff, kind: 'get' as const, label: 'ours, webhook worker off', runs: [] }]
      : []),
    ...befores.map((before) => ({ target: before, kind: 'get' as const, label: before.name, runs: [] })),
  ];
  const scenarios = allScenarios.filter((scenario) => REQUESTS.includes(scenario.kind));
  // JIT, pools and caches warm up before anything counts.
  for (const scenario of scenarios) await load(scenario.target, scenario.kind, WARM_UP_SECONDS);
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternate the order so neither side always runs right after the other.
    const order = round % 2 ? scenarios : [...scenarios].reverse();
    for (const scenario of order) scenario.runs.push(await load(scenario.target, scenario.kind, SECONDS));
    process.stdout.write(`  round ${round}/${ROUNDS} done\n`);
  }

  const cpuOf = (scenario: Scenario) => median(scenario.runs.map((run) => run.cpuMicrosPerRequest));
  const peerOf = (kind: 'create' | 'get') =>
    cpuOf(scenarios.find((scenario) => scenario.target === peer && scenario.kind === kind)!);
  const peerCpu = {
    create: REQUESTS.includes('create') ? peerOf('create') : Number.NaN,
    get: REQUESTS.includes('get') ? peerOf('get') : Number.NaN,
  };
  console.log(
    `\n${'request'.padEnd(22)}  ${'server'.padEnd(28)}  ${'CPU µs/req'.padStart(10)}  ${'÷ peer'.padStart(7)}  ${'req/s'.padStart(7)}  ${'p99 ms'.padStart(7)}  ${'errors'.padStart(6)}`,
  );
  for (const scenario of scenarios) {
    const cpu = cpuOf(scenario);
    console.log(
      [
        (scenario.kind === 'create' ? 'POST /v1/sessions' : 'GET /v1/sessions/:id').padEnd(22),
        scenario.label.padEnd(28),
        cpu.toFixed(0).padStart(10),
        (cpu / peerCpu[scenario.kind]).toFixed(2).padStart(7),
        median(scenario.runs.map((run) => run.requestsPerSecond))
          .toFixed(0)
          .padStart(7),
        median(scenario.runs.map((run) => run.p99))
          .toFixed(1)
          .padStart(7),
        String(scenario.runs.reduce((sum, run) => sum + run.errors, 0)).padStart(6),
      ].join('  '),
    );
  }
  console.log(`
Medians over ${ROUNDS} rounds. "CPU µs/req": user + system CPU of the server process per request, from /proc
(includes the in-process webhook worker's own polling where it runs). "÷ peer" divides it by the peer's
figure for the same request: issue #13 targets ≤ 1.5 for ours as shipped (the "ours" rows). What the peer
does and does not do compared with ours is listed at the top of bench/api/peer/server.ts.`);
} finally {
  for (const target of targets.reverse()) await target.stop();
}
