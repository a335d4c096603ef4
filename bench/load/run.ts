/**
 * Load bench (issue #13, "Load"): N concurrent end-user flows (create → consent → upload → details →
 * liveness → complete → decision → webhook, see flow.ts) for a fixed time against real server processes
 * (`npm start`'s entry, server/node.ts): on embedded PGlite, on PostgreSQL with one instance, and on
 * PostgreSQL with two instances on one database (no proxy: the load generator sends each request to the next
 * instance in turn). Prints flows per minute, p50/p99 per step, errors, and each process's peak and final RSS.
 *
 *   npm run bench:load
 *   npm run bench:load -- --concurrency=8 --duration=40 --workers=both|one --only=pglite,pg1,pg2
 *   npm run bench:load -- --duration=600 --only=pglite,pg1   (the ten-minute memory run)
 *
 * What it does NOT measure: the vision models. Sessions are created with the sandbox's forced outcome
 * (`sandbox: {outcome: 'approved'}`, API.md §4) and the servers run with IDV_VISION=off, so uploads are
 * quality-checked and stored but not read by the models, liveness frames are not judged, and the
 * automated review returns the forced outcome: the bench measures the server, the database and the
 * workers, which the models' seconds of CPU per session would otherwise drown. Rate limits are raised
 * (IDV_RATE_LIMIT_*) so the bench measures capacity, not the per-key budget. The load generator shares
 * the machine's cores with the servers and the database.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { type ServerProcess, startServerProcess } from '../../test/node/server/server-process.ts';
import { type FlowTimings, runFlow, STEPS, type Step, StepError } from './flow.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '8' },
    duration: { type: 'string', default: '40' },
    workers: { type: 'string', default: 'both' },
    only: { type: 'string', default: 'pglite,pg1,pg2' },
  },
});
const concurrency = Number(values.concurrency);
const durationMs = Number(values.duration) * 1000;
const workersInBoth = values.workers !== 'one';
const adminUrl = process.env['LOAD_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface ConfigResult {
  name: string;
  flows: number;
  elapsedMs: number;
  timings: Record<Step, number[]>;
  errors: Map<string, number>;
  duplicates: number;
  memory: { role: string; peakRssMb: number; finalRssMb: number }[];
  /** Each instance's VmRSS (MB) at every tenth of the run: growth shows as a rising tail. */
  rssSeries: number[][];
}

/** Samples each process's resident set ten times over the run (after each tenth of it). */
function sampleRss(pids: number[], stopAt: number, samples: number[][]): () => void {
  const every = durationMs / 10;
  const timer = setInterval(() => {
    if (performance.now() > stopAt + every / 2) return;
    for (const [i, pid] of pids.entries()) samples[i]?.push(memoryOf(pid).finalRssMb);
  }, every);
  return () => clearInterval(timer);
}

function memoryOf(pid: number): { peakRssMb: number; finalRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { peakRssMb: kb('VmHWM') / 1024, finalRssMb: kb('VmRSS') / 1024 };
}

async function withAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function runConfig(
  name: string,
  instances: number,
  databaseUrl: string | undefined,
): Promise<ConfigResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'idv-load-'));
  const receiver = await startWebhookReceiver();
  const servers: ServerProcess[] = [];
  const env: Record<string, string> = {
    IDV_DATA_DIR: dataDir,
    // Replicas share their keys, as in production; explicit so the second does not generate its own.
    IDV_MASTER_KEY: randomBytes(32).toString('base64'),
    IDV_JWT_SECRET: randomBytes(32).toString('base64'),
    IDV_VISION: 'off',
    IDV_RATE_LIMIT_READS: '1000000',
    IDV_RATE_LIMIT_WRITES: '1000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, IDV_BLOB_STORE: 'postgres' } : {}),
  };
  try {
    // One after the other: the first migrates and bootstraps the development tenant and its keys.
    for (let i = 0; i < instances; i++) {
      const workersOff = i > 0 && !workersInBoth;
      servers.push(
        await startServerProcess(
          { ...env, ...(workersOff ? { IDV_WORKERS: 'off' } : {}) },
          { startTimeoutMs: 120_000 },
        ),
      );
    }
    const credentials = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as {
      api_keys: { sandbox: string };
    };
    const sandboxKey = credentials.api_keys.sandbox;
    const first = servers[0] as ServerProcess;
    const hook = await fetch(`${first.baseUrl}/v1/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': sandboxKey, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['session.approved'] }),
    });
    if (hook.status !== 201) throw new Error(`webhook create: ${hook.status} ${await hook.text()}`);

    const timings = Object.fromEntries(STEPS.map((step) => [step, [] as number[]])) as Record<Step, number[]>;
    const errors = new Map<string, number>();
    let flows = 0;
    let next = 0;
    // Round robin per request, not per flow: a flow's steps land on both instances, so whatever one
    // instance wrote (session, token, uploads, rate-limit windows) must be visible to the other.
    let request = 0;
    const baseUrl = () => (servers[request++ % servers.length] as ServerProcess).baseUrl;
    const started = performance.now();
    const stopAt = started + durationMs;
    const rssSeries = servers.map(() => [] as number[]);
    const stopSampling = sampleRss(
      servers.map((server) => server.child.pid as number),
      stopAt,
      rssSeries,
    );
    const lanes = Array.from({ length: concurrency }, async () => {
      while (performance.now() < stopAt) {
        const index = next++;
        try {
          const flow: FlowTimings = await runFlow(
            { baseUrl, sandboxKey, webhookOf: receiver.webhookOf },
            index,
          );
          for (const step of STEPS) if (flow[step] !== undefined) timings[step].push(flow[step] as number);
          flows++;
        } catch (error) {
          const key =
            error instanceof StepError
              ? `${error.step}: ${error.message.slice(0, 120)}`
              : String(error).slice(0, 120);
          errors.set(key, (errors.get(key) ?? 0) + 1);
        }
      }
    });
    await Promise.all(lanes);
    stopSampling();
    const elapsedMs = performance.now() - started;
    const memory = servers.map((server, i) => ({
      role: `instance ${i + 1}${i > 0 && !workersInBoth ? ' (IDV_WORKERS=off)' : ''}`,
      ...memoryOf(server.child.pid as number),
    }));
    return { name, flows, elapsedMs, timings, errors, duplicates: receiver.duplicates(), memory, rssSeries };
  } finally {
    for (const server of servers) await server.stop('SIGTERM').catch(() => {});
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function report(results: ConfigResult[]): string {
  const lines = [
    `${concurrency} concurrent flows for ${durationMs / 1000} s per configuration; background workers in ${
      workersInBoth ? 'both instances' : 'the first instance only'
    } for two instances.`,
    '',
    `| configuration | flows | flows/min | errors | ${STEPS.map((step) => `${step} p50/p99 ms`).join(' | ')} | RSS peak/final MB |`,
    `|---|---:|---:|---:|${STEPS.map(() => '---:').join('|')}|---|`,
  ];
  for (const result of results) {
    const errorCount = [...result.errors.values()].reduce((sum, n) => sum + n, 0);
    const steps = STEPS.map((step) => {
      const values = result.timings[step];
      return values.length
        ? `${percentile(values, 50).toFixed(0)} / ${percentile(values, 99).toFixed(0)}`
        : '–';
    });
    const memory = result.memory
      .map((m) => `${m.peakRssMb.toFixed(0)}/${m.finalRssMb.toFixed(0)}`)
      .join(', ');
    lines.push(
      `| ${result.name} | ${result.flows} | ${((result.flows / result.elapsedMs) * 60_000).toFixed(0)} | ${errorCount} | ${steps.join(' | ')} | ${memory} |`,
    );
  }
  lines.push(
    '',
    `RSS (MB) of each instance after each tenth of the run (${durationMs / 10_000} s apart); growth shows as a rising tail:`,
    '',
  );
  for (const result of results) {
    result.rssSeries.forEach((series, i) => {
      lines.push(`- ${result.name}, instance ${i + 1}: ${series.map((mb) => mb.toFixed(0)).join(' → ')}`);
    });
  }
  for (const result of results) {
    for (const [key, count] of result.errors) lines.push(`- ${result.name} error ×${count}: ${key}`);
    if (result.duplicates > 0)
      lines.push(`- ${result.name}: ${result.duplicates} duplicate webhook deliveries`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const only = new Set((values.only ?? '').split(','));
  const results: ConfigResult[] = [];
  if (only.has('pglite')) results.push(await runConfig('PGlite, 1 instance', 1, undefined));
  for (const instances of [1, 2]) {
    if (!only.has(`pg${instances}`)) continue;
    const name = `idv_load_${process.pid}_${instances}`;
    await withAdmin(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    try {
      results.push(
        await runConfig(
          `PostgreSQL, ${instances} instance${instances > 1 ? 's' : ''}`,
          instances,
          url.toString(),
        ),
      );
    } finally {
      await withAdmin(`drop database if exists ${name} with (force)`);
    }
  }
  console.log(report(results));
}

await main();
