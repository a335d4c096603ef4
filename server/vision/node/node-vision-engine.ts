import { Worker } from 'node:worker_threads';
import { UnprocessableImageError } from '../../evidence/image-analyzer.ts';
import type {
  DocumentReading,
  FaceAnalysis,
  ReadDocumentOptions,
  TextReading,
  VisionEngine,
} from '../vision-engine.ts';
import type { JobRequest, JobResponse, VisionJob, WorkerError } from './vision-protocol.ts';

export interface NodeVisionEngineOptions {
  /**
   * Worker threads, each with its own copy of the models (about 300 MB each once loaded). Default 1: the
   * whole server stays under 800 MB; raise it on a larger host for throughput.
   */
  threads?: number;
  /**
   * How long one job may run in a worker before it is given up, the worker terminated (a model stuck in
   * WebAssembly cannot be interrupted otherwise) and replaced. Default 60 s: a cold start loads the models
   * (about 2 s) and a document read takes a few seconds on a busy core.
   */
  jobTimeoutMs?: number;
  /** Jobs waiting for a free worker before new ones are refused. Default 64. */
  maxQueuedJobs?: number;
  /** The worker script; tests pass a stand-in. Default: `vision-worker.ts` next to this file. */
  workerUrl?: URL;
}

/** A job gave up: it ran longer than `jobTimeoutMs`, or too many were waiting. */
export class VisionEngineBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VisionEngineBusyError';
  }
}

interface PendingJob {
  request: JobRequest;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: PendingJob | null;
  timer: NodeJS.Timeout | null;
}

const DEFAULT_JOB_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_QUEUED_JOBS = 64;

function rebuildError(error: WorkerError): Error {
  if (error.name === 'UnprocessableImageError' && error.reason) {
    return new UnprocessableImageError(error.reason, error.message);
  }
  return new Error(`Vision job failed (${error.name}): ${error.message}`);
}

/**
 * The {@link VisionEngine} on Node: real models (Human's face detector and mesh, face-api's dlib ResNet
 * embedder, tesseract.js for the MRZ and pages, zxing-wasm for PDF417) in a pool of `worker_threads`,
 * so a document read never blocks the HTTP event loop. The main thread loads no model: workers start on
 * the first call and each loads its models on its first job. Image bytes are copied once and transferred.
 *
 * A job that throws inside a model rejects alone; a worker that crashes or overruns `jobTimeoutMs`
 * rejects its job and is replaced. Idle workers do not keep the process alive; `close()` stops them.
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
  const workerUrl = options.workerUrl ?? new URL('./vision-worker.ts', import.meta.url);
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
    slot.worker.unref();
    return job;
  }

  function retire(slot: Slot, reason: Error): void {
    if (!slots.delete(slot)) return;
    finish(slot)?.reject(reason);
    void slot.worker.terminate();
    dispatch();
  }

  function spawn(): Slot {
    const worker = new Worker(workerUrl);
    const slot: Slot = { worker, job: null, timer: null };
    worker.on('message', (response: JobResponse) => {
      if (slot.job?.request.id !== response.id) return;
      const job = finish(slot);
      if (response.ok) job?.resolve(response.result);
      else job?.reject(rebuildError(response.error));
      dispatch();
    });
    worker.on('error', (error) => retire(slot, new Error(`Vision worker crashed: ${error.message}`)));
    worker.on('messageerror', (error) =>
      retire(slot, new Error(`Vision worker message failed: ${error.message}`)),
    );
    worker.on('exit', (code) =>
      retire(slot, new Error(`Vision worker stopped unexpectedly (exit code ${code}).`)),
    );
    worker.unref();
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
      slot.worker.ref();
      slot.timer = setTimeout(
        () => retire(slot, new VisionEngineBusyError(`Vision job timed out after ${jobTimeoutMs} ms.`)),
        jobTimeoutMs,
      );
      slot.worker.postMessage(job.request, [job.request.bytes]);
    }
  }

  function run<T>(job: VisionJob, bytes: Uint8Array): Promise<T> {
    if (closed) return Promise.reject(new Error('Vision engine is closed.'));
    if (queue.length >= maxQueuedJobs) {
      return Promise.reject(new VisionEngineBusyError(`Vision engine has ${queue.length} jobs waiting.`));
    }
    // One copy, so the caller's buffer is never detached; the copy itself is transferred.
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
      await Promise.all(running.map((slot) => slot.worker.terminate()));
    },
  };
}
