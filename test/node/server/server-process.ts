import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('../../../server/node.ts', import.meta.url));

/**
 * What the server prints once it serves (server/node.ts): its `server started` log line, or, when its log
 * level hides that, the end of the development banner. (A production server at `IDV_LOG_LEVEL=silent`
 * prints nothing at all; this helper is not for that one.)
 */
const STARTED = /"message":"server started"|Hosted page:[^\n]*\n/;

/** A port that was free a moment ago: the server must print a correct base URL, so 0 will not do. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  port: number;
  /** Everything the process printed to stdout so far. */
  output(): string;
  /** Everything the process printed to stderr so far. */
  errors(): string;
  /** The JSON log records printed so far (stdout lines that parse as objects). */
  records(): Record<string, unknown>[];
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs `npm start`'s entry (server/node.ts) as a real child process and waits until it says that it
 * serves. Tests use it for what only a real process shows: start-up output, restarts, crashes, signals.
 * `env` replaces the environment (PATH, PORT and IDV_HOST are set unless given).
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { startTimeoutMs?: number } = {},
): Promise<ServerProcess> {
  // The wait ends on the server's own events: its `server started` line, or its exit (a failed start
  // exits with a message). The timer only ends a start that hangs without either, so it is far above any
  // start time: a budget near the usual start (it was 30 s) failed healthy starts on a loaded runner.
  const startTimeoutMs = options.startTimeoutMs ?? 600_000;
  const port = env['PORT'] && /^\d+$/.test(env['PORT']) ? Number(env['PORT']) : await freePort();
  const child = spawn(process.execPath, [ENTRY], {
    env: { PATH: process.env['PATH'] ?? '', PORT: String(port), IDV_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running behind a failed start.
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${startTimeoutMs / 1000} s:\n${stdout}\n${stderr}`));
    }, startTimeoutMs);
    const check = () => {
      if (STARTED.test(stdout)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before starting:\n${stdout}\n${stderr}`));
    });
  });
  return {
    child,
    baseUrl: `http://localhost:${port}`,
    port,
    output: () => stdout,
    errors: () => stderr,
    records: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

const WORKER_ENTRY = fileURLToPath(new URL('../../../server/worker.ts', import.meta.url));

/** `npm run worker`'s entry as a child process: background workers only, no HTTP listener. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Its stdout's JSON log lines, parsed. */
  records(): Record<string, unknown>[];
  errors(): string;
  exited: Promise<number | null>;
}

/**
 * Runs `npm run worker`'s entry (server/worker.ts) with `env` (PATH added) and waits for its
 * `worker started` line; rejects with its output when it exits first or takes over 30 s.
 *
 * @example
 * const worker = await startWorkerProcess({ DATABASE_URL: url, IDV_MASTER_KEY: key, … });
 */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [WORKER_ENTRY], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker did not start in 30 s:\n${stdout}\n${stderr}`));
    }, 30_000);
    child.stdout!.on('data', () => {
      if (stdout.includes('"message":"worker started"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code} before starting:\n${stdout}\n${stderr}`));
    });
  });
  return {
    child,
    records: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    errors: () => stderr,
    exited,
  };
}
