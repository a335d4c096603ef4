// `node bench/accuracy/latency-under-review.ts [--database-url postgres://…]`: does the API stay
// responsive while the models work? A real server process answers `GET /v1/sessions/:id` under a steady
// load (autocannon, 5 connections) twice: once idle, once while genuine tier2 sessions go through document
// reading, per-frame liveness and the automated review back to back. It prints p50/p99 of both runs and
// how many sessions were reviewed meanwhile.
//
// The models run in a worker process, so the server's event loop never waits on them; on a 2-core machine
// they still compete with the server and the load generator for CPU, which is what moves p99 here.
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startServerProcess } from '../../test/node/server/server-process.ts';
import { runSession } from './session-cost.ts';

const SECONDS = 10;
const { values } = parseArgs({ options: { 'database-url': { type: 'string' } } });

const dataDir = await mkdtemp(join(tmpdir(), 'idv-bench-latency-'));
const server = await startServerProcess(
  {
    IDV_DATA_DIR: dataDir,
    IDV_LOG_LEVEL: 'error',
    // The load generator reads far beyond a sandbox key's budget; the bench measures latency, not limits.
    IDV_RATE_LIMIT_READS: '100000000',
    IDV_RATE_LIMIT_WRITES: '100000000',
    ...(values['database-url'] ? { DATABASE_URL: values['database-url'] } : {}),
  },
  { startTimeoutMs: 120_000 },
);
try {
  const credentials = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as {
    api_keys: { sandbox: string };
  };
  const key = credentials.api_keys.sandbox;
  const created = (await (
    await fetch(`${server.baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ country: 'NLD', flow: 'user', tier: 'tier2' }),
    })
  ).json()) as { session_id: string };
  const load = (duration = SECONDS) =>
    autocannon({
      url: `${server.baseUrl}/v1/sessions/${created.session_id}`,
      headers: { 'x-api-key': key },
      connections: 5,
      duration,
    });
  // Warm the models and the request path first, so the runs compare reviews, not first loads and JIT.
  await runSession(server.baseUrl, key, 0);
  await load(3);
  const idle = await load();
  let reviewing = true;
  let reviewed = 0;
  const reviews = (async () => {
    while (reviewing) {
      reviewed += 1;
      await runSession(server.baseUrl, key, reviewed);
    }
  })();
  const busy = await load();
  reviewing = false;
  await reviews;
  const row = (name: string, result: autocannon.Result) =>
    `${name.padEnd(24)} p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   ${Math.round(result.requests.average)} req/s   errors ${result.errors + result.non2xx}`;
  console.log(
    `GET /v1/sessions/:id, ${SECONDS} s each, 5 connections (${values['database-url'] ? 'postgresql' : 'pglite'}):`,
  );
  console.log(row('idle', idle));
  console.log(row(`while reviewing (${reviewed} sessions)`, busy));
  console.log(`p99 ratio busy/idle: ${(busy.latency.p99 / Math.max(1, idle.latency.p99)).toFixed(2)}`);
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
