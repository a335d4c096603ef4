// What one reviewed tier2 session costs the whole server: `npm start`'s entry runs as a real child process
// (embedded PGlite, or PostgreSQL with `--database-url`), and genuine sessions go through it over HTTP as
// the widget sends them: consent, the passport photo (read by the models: MRZ, portrait), details taken
// from the document, a liveness challenge answered with the person's frames for its actions (judged per
// frame), complete, and the automated review. The server's CPU time (user + system, every thread, from
// /proc) is read before the first upload and after the decision; peak memory is the process's VmHWM.
//
// The first session pays for starting the worker thread and loading the models; it is reported apart.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../../test/node/server/server-process.ts';
import { DOCUMENT_FIXTURES_DIR } from '../../test/fixtures/vision/documents/manifest.ts';
import { SELFIE_FIXTURES_DIR } from '../../test/fixtures/vision/selfies/manifest.ts';

const CLOCK_TICKS_PER_SECOND = 100;

export interface SessionCost {
  /** Server CPU seconds from the first upload to the decision. */
  cpuSeconds: number;
  wallSeconds: number;
  decision: string;
}

export interface SessionCostReport {
  database: 'pglite' | 'postgresql';
  sessions: SessionCost[];
  /** The server's peak resident memory (its process and its vision workers), MB. */
  peakRssMb: number;
}

function processCpuSeconds(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised command name): utime, stime in ticks.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

function processPeakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function childPids(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return children === '' ? [] : children.split(' ').map(Number);
}

/**
 * The whole server's peak memory: the server process and every process under it (the vision workers),
 * each at its own peak. Their peaks need not coincide, so the sum is an upper bound.
 */
function serverPeakRssMb(pid: number): number {
  return childPids(pid).reduce((sum, child) => sum + serverPeakRssMb(child), processPeakRssMb(pid));
}

/** CPU of the server process and of every process under it. */
function serverCpuSeconds(pid: number): number {
  return childPids(pid).reduce((sum, child) => sum + serverCpuSeconds(child), processCpuSeconds(pid));
}

async function expectOk(response: Response, what: string): Promise<Record<string, unknown>> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

function imageFile(path: string, name: string): File {
  return new File([readFileSync(path)], name, { type: 'image/jpeg' });
}

export async function runSession(
  baseUrl: string,
  sandboxKey: string,
): Promise<SessionCost & { startCpu?: never }> {
  const created = await expectOk(
    await fetch(`${baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { 'x-api-key': sandboxKey, 'content-type': 'application/json' },
      body: JSON.stringify({ country: 'NLD', flow: 'user', tier: 'tier2' }),
    }),
    'create',
  );
  const sessionId = String(created['session_id']);
  const token = String(created['verify_url']).split('/verify/')[1] as string;
  const verify = (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { 'x-verify-token': token, ...(init.headers as Record<string, string> | undefined) },
    });
  await expectOk(
    await verify('/v1/verify/consent', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accepted: true, consent_version: 'v1' }),
    }),
    'consent',
  );
  const started = performance.now();
  const document = new FormData();
  document.set('step', 'id_document');
  document.set('document_type', 'passport');
  document.set('issuing_country', 'NLD');
  document.set('side', 'front');
  document.set('image', imageFile(join(DOCUMENT_FIXTURES_DIR, 'passport-astronaut.jpg'), 'passport.jpg'));
  const upload = await expectOk(
    await verify('/v1/verify/documents', { method: 'POST', body: document }),
    'upload',
  );
  const reading = upload['reading'] as { details_required?: boolean } | undefined;
  if (reading?.details_required !== false)
    throw new Error('the passport MRZ was not read: details would be typed');
  const challenge = await expectOk(
    await verify('/v1/verify/liveness/challenge', { method: 'POST' }),
    'challenge',
  );
  const frames = new FormData();
  frames.set('challenge_id', String(challenge['challenge_id']));
  for (const action of challenge['actions'] as string[]) {
    frames.append(
      'frames',
      imageFile(join(SELFIE_FIXTURES_DIR, 'genuine-astronaut', `${action}.jpg`), `${action}.jpg`),
    );
  }
  const liveness = await expectOk(
    await verify('/v1/verify/liveness', { method: 'POST', body: frames }),
    'liveness',
  );
  if (liveness['status'] !== 'accepted') throw new Error(`liveness answered ${JSON.stringify(liveness)}`);
  await expectOk(await verify('/v1/verify/complete', { method: 'POST' }), 'complete');
  for (;;) {
    const result = await expectOk(
      await fetch(`${baseUrl}/v1/sessions/${sessionId}/result`, { headers: { 'x-api-key': sandboxKey } }),
      'result',
    );
    if (result['decision'] && result['decision'] !== 'pending') {
      return {
        cpuSeconds: 0,
        wallSeconds: (performance.now() - started) / 1000,
        decision: String(result['decision']),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Runs `count` genuine tier2 sessions through a fresh server and reports their CPU cost and the server's
 * peak memory.
 *
 * @example
 * const report = await measureSessionCost({ count: 3 });
 */
export async function measureSessionCost(
  options: { count?: number; databaseUrl?: string } = {},
): Promise<SessionCostReport> {
  const dataDir = await mkdtemp(join(tmpdir(), 'idv-bench-'));
  const server = await startServerProcess(
    {
      IDV_DATA_DIR: dataDir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    },
    { startTimeoutMs: 120_000 },
  );
  try {
    const pid = server.child.pid as number;
    const credentials = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as {
      api_keys: { sandbox: string };
    };
    const sessions: SessionCost[] = [];
    for (let i = 0; i < (options.count ?? 3); i++) {
      const before = serverCpuSeconds(pid);
      const session = await runSession(server.baseUrl, credentials.api_keys.sandbox);
      sessions.push({ ...session, cpuSeconds: serverCpuSeconds(pid) - before });
    }
    return {
      database: options.databaseUrl ? 'postgresql' : 'pglite',
      sessions,
      peakRssMb: serverPeakRssMb(pid),
    };
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function formatSessionCostReport(report: SessionCostReport): string {
  const [first, ...warm] = report.sessions;
  const lines = [`Reviewed tier2 sessions through a real server (${report.database}):`];
  if (first) {
    lines.push(
      `  first (starts the worker, loads models): ${first.cpuSeconds.toFixed(2)} s CPU, ${first.wallSeconds.toFixed(2)} s wall, ${first.decision}`,
    );
  }
  for (const [index, session] of warm.entries()) {
    lines.push(
      `  warm #${index + 1}: ${session.cpuSeconds.toFixed(2)} s CPU, ${session.wallSeconds.toFixed(2)} s wall, ${session.decision}`,
    );
  }
  lines.push(
    `  server peak RSS: ${report.peakRssMb.toFixed(0)} MB (target ≤ 800 MB), tier2 review target ≤ 3 s CPU`,
  );
  return lines.join('\n');
}
