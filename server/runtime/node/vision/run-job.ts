import { analyzeFaces } from './analyze-faces.ts';
import { readDocument } from './read-document.ts';
import { readText } from './read-text.ts';
import type { VisionJob } from './vision-protocol.ts';

/**
 * Runs one job inside a vision worker.
 *
 * @example
 * await runJob({ kind: 'analyzeFaces', embeddings: true }, bytes)
 */
export function runJob(job: VisionJob, bytes: Uint8Array): Promise<unknown> {
  switch (job.kind) {
    case 'analyzeFaces':
      return analyzeFaces(bytes, { embeddings: job.embeddings });
    case 'readDocument':
      return readDocument(bytes, job.options);
    case 'readText':
      return readText(bytes);
    default:
      throw new Error(`Unknown vision job ${(job as { kind: string }).kind}.`);
  }
}
