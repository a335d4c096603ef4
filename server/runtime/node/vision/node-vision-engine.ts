import { type ChildProcess, fork } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { UnprocessableImageError } from '../../../features/evidence/image-analyzer.ts';
import { ApiError } from '../../../errors/api-error.ts';
import type {
  DocumentReading,
  FaceAnalysis,
  ReadDocumentOptions,
  TextReading,
  VisionEngine,
} from '../../../features/vision/vision-engine.ts';
import type { JobRequest, JobResponse, VisionJob, WorkerError } from './vision-protocol.ts';

export interface NodeVisionEngineOptions {
  /**
   * Worker processes, each with its own copy of the models (about 300 MB each once loaded). Default 1;
   * raise it on a larger host for throughput. (Named `threads` for `IDV_VISION_THREADS`.)
   */
  threads?: number;
  /**
   * How long one job may run in a worker before it is given up, the worker killed (a model stuck in
   * WebAssembly cannot be interrupted otherwise) and replaced. Default 60 s: a cold start loads the models
   * (about 2 s) and a document read takes a few seconds on a busy core.
   */
  jobTimeoutMs?: number;
  /** Jobs waiting for a free worker before new ones are refused. Default 64. */
  maxQueuedJobs?: number;
  /** The worker script; tests pass a stand-in. Default: `vision-worker.ts` next to this file. */
  workerUrl?: URL;
}

/** Seconds a client is told to wait after a lost or busy worker: a replacement loads its models in ~2 s. */
export const VISION_RETRY_AFTER_SECONDS = 2;

/**
 * The engine could not run a job now, through no fault of the image: the API answers 503
 * `service_unavailable` with `retry-after` (an ApiError, so every route that lets it through does), and
 * no upload or liveness attempt is spent, since the routes call the engine before they record anything.
 */
class VisionUnavailableError extends ApiError {
  constructor(detail: string) {
    super('service_unavailable', detail, {
      headers: { 'retry-after': String(VISION_RETRY_AFTER_SECONDS) },
      extensions: { user_message: 'We could not check this just now. Please try again in a moment.' },
    });
  }
}

/** A job gave up: it ran longer than `jobTimeoutMs`, or too many were waiting. */
export class VisionEngineBusyError extends VisionUnavailableError {
  constructor(message: string) {
    super(message);
    this.name = 'VisionEngineBusyError';
  }
}

/** The worker running a job died or failed (killed, out of memory, V8 aborted); a new one replaces it. */
export class VisionWorkerLostError extends VisionUnavailableError {
  constructor(message: string) {
    super(message);
    this.name = 'VisionWorkerLostError';
  }
}

interface PendingJob {
  request: JobRequest;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: ChildProcess;
  job: PendingJob | null;
  timer: NodeJS.Timeout | null;
}

const DEFAULT_JOB_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_QUEUED_JOBS = 64;

/** The process and its IPC channel both hold the event loop; both are released while the worker idles. */
function unrefWorker(worker: ChildProcess): void {
  worker.unref();
  worker.channel?.unref();
}

function refWorker(worker: ChildProcess): void {
  worker.ref();
  worker.channel?.ref();
}

function stopWorker(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    worker.once('exit', () => resolve());
    // Held again until it is gone: an unreferenced child would let the event loop end before its exit.
    worker.ref();
    worker.kill('SIGKILL');
  });
}

function rebuildError(error: WorkerError): Error {
  if (error.name === 'UnprocessableImageError' && error.reason) {
    return new UnprocessableImageError(error.reason, error.message);
  }
  return new Error(`Vision job failed (${error.name}): ${error.message}`);
}

/**
 * The {@link VisionEngine} on Node: real models (Human's face detector and mesh, face-api's dlib ResNet
 * embedder, tesseract.js for the MRZ and pages, zxing-wasm for PDF417) in a pool of child processes, so
 * a document read never blocks the HTTP event loop. The server process loads no model: workers start on
 * the first call and each loads its models on its first job.
 *
 * Processes rather than worker threads: V8 keeps one registry of JIT code pages per process, and
 * WebAssembly compiled and freed in several isolates of one process (the embedded PGlite on the main
 * thread, the models in a worker) can desynchronise it; V8 then aborts the whole process ("Check failed:
 * jit_page_->allocations_.erase(addr) == 1", seen in this project's test runs and reported against
 * Node 24 with PGlite). In its own process a model that brings V8 down takes one job with it, never the
 * server: the job rejects and the worker is replaced, as for any crash or a job that overruns
 * `jobTimeoutMs`. Idle workers do not keep the server alive; `close()` stops them.
 *
 * @example
 * const vision = createNodeVisionEngine({ threads: 1 });
 * const { faces } = await vision.analyzeFaces(selfieBytes, { embeddings: true });
 * await vision.close();
 */
export function createNodeVisionEngine(options: NodeVisionEngineOptions = {}): VisionEngine {
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  const jobTimeoutMs = options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const maxQueuedJobs = options.maxQueuedJobs ?? DEFAULT_MAX_QUEUED_JOBS;
  const workerPath = fileURLToPath(options.workerUrl ?? new URL('./vision-worker.ts', import.meta.url));
  const slots = new Set<Slot>();
  const queue: PendingJob[] = [];
  let nextId = 1;
  let closed = false;

  function finish(slot: Slot): PendingJob | null {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    slot.timer = null;
    // An idle worker must not keep a process alive that has nothing else to do.
    unrefWorker(slot.worker);
    return job;
  }

  function retire(slot: Slot, reason: Error): void {
    if (!slots.delete(slot)) return;
    finish(slot)?.reject(reason);
    slot.worker.kill('SIGKILL');
    dispatch();
  }

  function spawn(): Slot {
    // Structured clone over the IPC channel carries the image bytes as they are; no other process reads
    // them. The worker inherits the server's stdout/stderr (it logs nothing personal) and its flags.
    const worker = fork(workerPath, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // glibc gives every thread that allocates (tesseract's, libvips') its own arena and never hands
      // them back: two arenas keep a worker about 100 MB smaller at no measurable cost (docs/models.md).
      // An operator's own setting wins.
      env: { ...process.env, MALLOC_ARENA_MAX: process.env['MALLOC_ARENA_MAX'] ?? '2' },
      // The models' tensors live in WebAssembly memory, not on the JavaScript heap, so the worker's young
      // generation can be small: 2 MB semi-spaces instead of 16 keep it ~40–70 MB smaller, and the GC
      // time it adds does not show in a review's CPU time (docs/models.md). Flags the server was started
      // with still reach the worker.
      execArgv: [...process.execArgv, '--max-semi-space-size=2'],
    });
    lowerPriority(worker);
    const slot: Slot = { worker, job: null, timer: null };
    worker.on('message', (response: JobResponse) => {
      if (slot.job?.request.id !== response.id) return;
      const job = finish(slot);
      if (response.ok) job?.resolve(response.result);
      else job?.reject(rebuildError(response.error));
      dispatch();
    });
    worker.on('error', (error) =>
      retire(slot, new VisionWorkerLostError(`Vision worker failed: ${error.message}`)),
    );
    worker.on('exit', (code, signal) =>
      retire(
        slot,
        new VisionWorkerLostError(`Vision worker stopped unexpectedly (${signal ?? `exit code ${code}`}).`),
      ),
    );
    unrefWorker(worker);
    slots.add(slot);
    return slot;
  }

  function idleSlot(): Slot | undefined {
    for (const slot of slots) if (slot.job === null) return slot;
    return slots.size < threads ? spawn() : undefined;
  }

  function dispatch(): void {
    while (!closed && queue.length > 0) {
      const slot = idleSlot();
      if (!slot) return;
      const job = queue.shift() as PendingJob;
      slot.job = job;
      refWorker(slot.worker);
      slot.timer = setTimeout(
        () => retire(slot, new VisionEngineBusyError(`Vision job timed out after ${jobTimeoutMs} ms.`)),
        jobTimeoutMs,
      );
      slot.worker.send(job.request);
    }
  }

  function run<T>(job: VisionJob, bytes: Uint8Array): Promise<T> {
    if (closed) return Promise.reject(new Error('Vision engine is closed.'));
    if (queue.length >= maxQueuedJobs) {
      return Promise.reject(new VisionEngineBusyError(`Vision engine has ${queue.length} jobs waiting.`));
    }
    // One copy of exactly the image's bytes (a view may sit on a larger buffer).
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    return new Promise<T>((resolve, reject) => {
      queue.push({
        request: { id: nextId++, job, bytes: copy.buffer },
        resolve: resolve as (result: unknown) => void,
        reject,
      });
      dispatch();
    });
  }

  return {
    readDocument: (bytes: Uint8Array, documentOptions: ReadDocumentOptions) =>
      run<DocumentReading>({ kind: 'readDocument', options: documentOptions }, bytes),
    analyzeFaces: (bytes: Uint8Array, faceOptions: { embeddings?: boolean } = {}) =>
      run<FaceAnalysis>({ kind: 'analyzeFaces', embeddings: faceOptions.embeddings === true }, bytes),
    readText: (bytes: Uint8Array) => run<TextReading>({ kind: 'readText' }, bytes),
    async close() {
      if (closed) return;
      closed = true;
      const stopped = new Error('Vision engine closed.');
      for (const job of queue.splice(0)) job.reject(stopped);
      const running = [...slots];
      slots.clear();
      for (const slot of running) finish(slot)?.reject(stopped);
      await Promise.all(running.map((slot) => stopWorker(slot.worker)));
    },
  };
}

/**
 * How much lower than the server the vision workers run (a `nice` increment). A review is a background job
 * measured in seconds; an API request is measured in milliseconds, and on a machine with few cores the two
 * compete for the same CPU. At nice 10 the kernel gives the server's threads about ten times the workers'
 * share when both want a core, so requests keep their latency while reviews run and reviews take longer only
 * when the machine is busy (`npm run bench:review-load`).
 */
const VISION_NICENESS = 10;

function lowerPriority(worker: ChildProcess): void {
  if (worker.pid === undefined) return; // the fork failed; its 'error' event reports it
  try {
    setPriority(worker.pid, Math.min(19, getOwnPriority() + VISION_NICENESS));
  } catch {
    // Not permitted in some sandboxes: the workers then run at the server's priority, as before.
  }
}

function getOwnPriority(): number {
  try {
    return getPriority();
  } catch {
    return 0;
  }
}
