import type { UnprocessableImageReason } from '../../evidence/image-analyzer.ts';
import type { ReadDocumentOptions } from '../vision-engine.ts';

// The messages between the engine (main thread) and its worker threads. Plain data only: they cross
// threads by structured clone, the image bytes by transfer.

export type VisionJob =
  | { kind: 'analyzeFaces'; embeddings: boolean }
  | { kind: 'readDocument'; options: ReadDocumentOptions }
  | { kind: 'readText' };

export interface JobRequest {
  id: number;
  job: VisionJob;
  /** The image bytes, transferred (not copied) to the worker. */
  bytes: ArrayBuffer;
}

/** An error thrown inside a worker, reduced to what the engine rebuilds on the main thread. */
export interface WorkerError {
  name: string;
  message: string;
  /** Set for `UnprocessableImageError`, so the caller can answer 422. */
  reason?: UnprocessableImageReason;
}

export type JobResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: WorkerError };
