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
import sharp from 'sharp';
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
  /**
   * The whole server's highest resident memory while it reviewed the sessions (the sum over its processes,
   * sampled every 20 ms), MB. Start-up is not in it: see `processes`.
   */
  peakRssMb: number;
  /** Each process's own peak since it started, start-up included (VmHWM), MB. */
  processes: { role: string; peakRssMb: number }[];
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

/** What a process runs, for the report: the script its command line names (`node.ts`, `vision-process.ts`). */
function processRole(pid: number): string {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const script = args.find((arg) => /\.(ts|js|mjs)$/.test(arg));
  return script ? (script.split('/').pop() as string) : (args[0] ?? String(pid));
}

/**
 * The peak memory of the server process and of every process under it (the vision workers), each at its
 * own peak. Their peaks need not coincide, so their sum is an upper bound on the whole server's.
 */
function serverPeaks(pid: number): { role: string; peakRssMb: number }[] {
  return [
    { role: processRole(pid), peakRssMb: processPeakRssMb(pid) },
    ...childPids(pid).flatMap(serverPeaks),
  ];
}

function processRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0; // exited between the listing and the read
  }
}

/** Resident memory of the server process and every process under it, now. */
function serverRssMb(pid: number): number {
  let children: number[] = [];
  try {
    children = childPids(pid);
  } catch {
    return 0;
  }
  return children.reduce((sum, child) => sum + serverRssMb(child), processRssMb(pid));
}

/**
 * Samples the whole server's resident memory (the sum over its processes) every 20 ms until stopped, and
 * keeps the highest sum: the memory the machine must have for it, which the sum of each process's own
 * peak overstates when their peaks do not coincide.
 */
function sampleServerRss(pid: number): { stop(): number } {
  let peak = serverRssMb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, serverRssMb(pid));
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, serverRssMb(pid));
    },
  };
}

/** CPU of the server process and of every process under it. */
function serverCpuSeconds(pid: number): number {
  return childPids(pid).reduce((sum, child) => sum + serverCpuSeconds(child), processCpuSeconds(pid));
}

async function expectOk(response: Response, what: string): Promise<Record<string, unknown>> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/**
 * The fixture re-encoded for session `capture` (JPEG quality 95 − capture % 10, so the bytes differ): each
 * session is a fresh capture of the same person, as in life. Sending the same bytes twice would be an image
 * reused across sessions, which the review rightly sends to a person (`duplicate_detection`).
 */
async function capturedImage(path: string, name: string, capture: number): Promise<File> {
  const bytes = await sharp(readFileSync(path))
    .jpeg({ quality: 95 - (capture % 10) })
    .toBuffer();
  return new File([new Uint8Array(bytes)], name, { type: 'image/jpeg' });
}

/** One person's sessions share a reference, as a tenant's user does: their passport is theirs to reuse. */
const EXTERNAL_USER_REFERENCE = 'bench-astronaut';

export async function runSession(baseUrl: string, sandboxKey: string, capture = 0): Promise<SessionCost> {
  const created = await expectOk(
    await fetch(`${baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { 'x-api-key': sandboxKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        country: 'NLD',
        flow: 'user',
        tier: 'tier2',
        external_user_reference: EXTERNAL_USER_REFERENCE,
      }),
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
  document.set(
    'image',
    await capturedImage(join(DOCUMENT_FIXTURES_DIR, 'passport-astronaut.jpg'), 'passport.jpg', capture),
  );
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
      await capturedImage(
        join(SELFIE_FIXTURES_DIR, 'genuine-astronaut', `${action}.jpg`),
        `${action}.jpg`,
        capture,
      ),
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
      const reasons = (result['reason_codes'] as string[] | undefined) ?? [];
      return {
        cpuSeconds: 0,
        wallSeconds: (performance.now() - started) / 1000,
        decision:
          reasons.length > 0 ? `${result['decision']} (${reasons.join(', ')})` : String(result['decision']),
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
  options: { count?: number; databaseUrl?: string; env?: Record<string, string> } = {},
): Promise<SessionCostReport> {
  const dataDir = await mkdtemp(join(tmpdir(), 'idv-bench-'));
  const server = await startServerProcess(
    {
      IDV_DATA_DIR: dataDir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...options.env,
    },
    { startTimeoutMs: 120_000 },
  );
  try {
    const pid = server.child.pid as number;
    const credentials = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as {
      api_keys: { sandbox: string };
    };
    const sessions: SessionCost[] = [];
    const sampler = sampleServerRss(pid);
    for (let i = 0; i < (options.count ?? 3); i++) {
      const before = serverCpuSeconds(pid);
      const session = await runSession(server.baseUrl, credentials.api_keys.sandbox, i);
      sessions.push({ ...session, cpuSeconds: serverCpuSeconds(pid) - before });
    }
    const peakRssMb = sampler.stop();
    const processes = serverPeaks(pid);
    return {
      database: options.databaseUrl ? 'postgresql' : 'pglite',
      sessions,
      peakRssMb,
      processes,
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
    `  server RSS while reviewing (all its processes, peak of 20 ms samples): ${report.peakRssMb.toFixed(0)} MB (target ≤ 800 MB); tier2 review target ≤ 3 s CPU`,
    `  each process's own peak since start, start-up included: ${report.processes.map((process) => `${process.role} ${process.peakRssMb.toFixed(0)} MB`).join(', ')}`,
  );
  return lines.join('\n');
}
