// `npm run bench:api`: requests per second and latency of the real server (its `npm start` entry, in its
// own process) against a bare node:http baseline on the same machine, measured in one run, on the
// embedded database and, when one answers on 127.0.0.1:5432, on PostgreSQL. Prints ratios, not verdicts.
//
// Options (environment): BENCH_SECONDS (default 8), BENCH_CONNECTIONS (default 10).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort, startServerProcess } from '../../test/node/server/server-process.ts';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 8);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10);
const ADMIN_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const SESSION_BODY = JSON.stringify({
  country: 'DEU',
  flow: 'user',
  tier: 'tier2',
  external_user_reference: 'bench-user',
});

interface Measurement {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server process's CPU time (user + system) per request; null where /proc is not available. */
  cpuMicrosPerRequest: number | null;
}

/** Linux's clock tick for /proc times; 100 on every mainstream kernel configuration. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds a process has used so far, from /proc/<pid>/stat (utime + stime). Unlike requests per
 * second, this barely moves when the load generator or a neighbour competes for the same cores.
 */
function cpuSecondsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

async function load(
  serverPid: number | undefined,
  url: string,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body?: string,
): Promise<Measurement> {
  const cpuBefore = cpuSecondsOf(serverPid);
  const result = await autocannon({
    url,
    method,
    headers,
    body,
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  const cpuAfter = cpuSecondsOf(serverPid);
  const expected = method === 'POST' ? 201 : 200;
  const wrong = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => Number(status) !== expected)
    .reduce((sum, [, stat]) => sum + (stat as { count: number }).count, 0);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + wrong,
    cpuMicrosPerRequest:
      cpuBefore === null || cpuAfter === null || result.requests.total === 0
        ? null
        : ((cpuAfter - cpuBefore) * 1e6) / result.requests.total,
  };
}

async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function withDatabase<T>(
  engine: 'pglite' | 'postgres',
  work: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-'));
  const name = `idv_bench_${process.pid}`;
  const env: Record<string, string> = {
    IDV_DATA_DIR: dataDir,
    IDV_RATE_LIMIT_READS: '1000000000',
    IDV_RATE_LIMIT_WRITES: '1000000000',
  };
  if (engine === 'postgres') {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    env['DATABASE_URL'] = url.toString();
  }
  try {
    return await work(env);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (engine === 'postgres') {
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
}

/** Our server (the `npm start` entry in its own process), then both baselines on the same database. */
async function benchEngine(engine: 'pglite' | 'postgres') {
  return withDatabase(engine, async (env) => {
    const server = await startServerProcess(env);
    let ours: { create: Measurement; read: Measurement; responseBody: string; sessionId: string };
    try {
      const credentials = JSON.parse(
        readFileSync(join(env['IDV_DATA_DIR']!, 'credentials.json'), 'utf8'),
      ) as {
        api_keys: { sandbox: string };
      };
      const headers = { 'x-api-key': credentials.api_keys.sandbox, 'content-type': 'application/json' };
      const created = await fetch(`${server.baseUrl}/v1/sessions`, {
        method: 'POST',
        headers,
        body: SESSION_BODY,
      });
      const responseBody = await created.text();
      const sessionId = (JSON.parse(responseBody) as { session_id: string }).session_id;
      const pid = server.child.pid;
      const create = await load(pid, `${server.baseUrl}/v1/sessions`, 'POST', headers, SESSION_BODY);
      const read = await load(pid, `${server.baseUrl}/v1/sessions/${sessionId}`, 'GET', headers);
      ours = { create, read, responseBody, sessionId };
    } finally {
      await server.stop('SIGTERM');
    }
    const bare = await benchBaseline({ BASELINE_BODY: ours.responseBody });
    // The embedded database is a directory only one process may open: ours has stopped, so this may.
    const database: Record<string, string> =
      engine === 'postgres'
        ? { BASELINE_DATABASE_URL: env['DATABASE_URL']! }
        : { BASELINE_PGLITE_DIR: join(env['IDV_DATA_DIR']!, 'pgdata') };
    const withQuery = await benchBaseline({
      BASELINE_BODY: ours.responseBody,
      BASELINE_SESSION_ID: ours.sessionId,
      ...database,
    });
    return { ours, bare, withQuery };
  });
}

async function benchBaseline(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, [fileURLToPath(new URL('./baseline-server.ts', import.meta.url))], {
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  const url = `http://127.0.0.1:${port}/v1/sessions`;
  const headers = { 'content-type': 'application/json' };
  try {
    return {
      create: await load(child.pid, url, 'POST', headers, SESSION_BODY),
      read: await load(child.pid, `${url}/sess_x`, 'GET', headers),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

function cpu(measurement: Measurement): string {
  return measurement.cpuMicrosPerRequest === null ? 'n/a' : measurement.cpuMicrosPerRequest.toFixed(0);
}

function row(name: string, ours: Measurement, bare: Measurement, withQuery: Measurement): string {
  const share = (base: Measurement) =>
    `${((ours.requestsPerSecond / base.requestsPerSecond) * 100).toFixed(1)} %`;
  return [
    name.padEnd(34),
    ours.requestsPerSecond.toFixed(0).padStart(7),
    `${ours.p50} / ${ours.p99} ms`.padStart(15),
    bare.requestsPerSecond.toFixed(0).padStart(7),
    share(bare).padStart(8),
    withQuery.requestsPerSecond.toFixed(0).padStart(9),
    share(withQuery).padStart(8),
    `${cpu(ours)} / ${cpu(bare)} / ${cpu(withQuery)}`.padStart(20),
    String(ours.errors + bare.errors + withQuery.errors).padStart(7),
  ].join('  ');
}

console.log(`bench:api: ${CONNECTIONS} connections, ${SECONDS} s per measurement, Node ${process.version}`);
const engines: ('pglite' | 'postgres')[] = ['pglite'];
if (await postgresAvailable()) engines.push('postgres');
else console.log('(no PostgreSQL on 127.0.0.1:5432: embedded database only)');

const lines: string[] = [];
for (const engine of engines) {
  const { ours, bare, withQuery } = await benchEngine(engine);
  lines.push(row(`POST /v1/sessions (${engine})`, ours.create, bare.create, withQuery.create));
  lines.push(row(`GET /v1/sessions/:id (${engine})`, ours.read, bare.read, withQuery.read));
}
console.log(
  `\n${'scenario'.padEnd(34)}  ${'req/s'.padStart(7)}  ${'p50 / p99'.padStart(15)}  ${'bare'.padStart(7)}  ${'of bare'.padStart(8)}  ${'bare+SQL'.padStart(9)}  ${'of it'.padStart(8)}  ${'CPU µs/req o/b/b+SQL'.padStart(20)}  ${'errors'.padStart(7)}`,
);
for (const line of lines) console.log(line);
console.log(`
"bare": a node:http server answering a same-size JSON body. "bare+SQL": the same server running the one
statement the request needs (the session select for GET, one insert for POST) on the same database
before answering. "of bare" is the issue's ratio; "of it" shows how much of the gap is the database
round trip on this machine rather than our code (auth, validation, encryption, events, the response).
"CPU µs/req": user + system CPU each server process spent per request (ours / bare / bare+SQL), from
/proc; the load generator shares the machine, so this is steadier than requests/s from run to run.`);
