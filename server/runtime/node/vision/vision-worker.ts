import sharp from 'sharp';
import { UnprocessableImageError } from '../../../features/evidence/image-analyzer.ts';
import { installOfflineFetch } from './offline-fetch.ts';
import { modelRoot } from './package-paths.ts';
import type { JobRequest, JobResponse, WorkerError } from './vision-protocol.ts';

// A vision worker process: receives one job at a time from `node-vision-engine.ts` and answers it. The
// offline `fetch` goes in before any model library is even imported (hence the dynamic import below):
// a library that tried to reach a CDN fails with "network refused" instead of downloading.
installOfflineFetch(modelRoot());
// Each image is decoded once: libvips' operation cache (up to 50 MB by default) would only hold memory.
sharp.cache(false);
const { runJob } = await import('./run-job.ts');

function describe(error: unknown): WorkerError {
  if (error instanceof UnprocessableImageError) {
    return { name: error.name, message: error.message, reason: error.reason };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

const send = process.send?.bind(process);
if (!send) throw new Error('vision-worker.ts runs as a child process of the vision engine only.');
// The server going away closes the channel: nothing is left to answer, so the worker goes too.
process.on('disconnect', () => process.exit(0));
process.on('message', async (request: JobRequest) => {
  let response: JobResponse;
  try {
    response = { id: request.id, ok: true, result: await runJob(request.job, new Uint8Array(request.bytes)) };
  } catch (error) {
    // A model that throws fails its job only; the process and its loaded models stay up for the next one.
    response = { id: request.id, ok: false, error: describe(error) };
  }
  send(response);
});
