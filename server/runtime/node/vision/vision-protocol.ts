import type { UnprocessableImageReason } from '../../../features/evidence/image-analyzer.ts';
import type { ReadDocumentOptions } from '../../../features/vision/vision-engine.ts';

// The messages between the engine (in the server process) and its worker processes. Plain data only:
// they cross the IPC channel by structured clone (`serialization: 'advanced'`), the image bytes included.

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
