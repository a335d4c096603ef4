import type { z } from 'zod';
import { BlobEnv } from './blob-store-config.ts';
import { EnvSchema } from './config.ts';
import { OperationsEnv } from './operations-config.ts';
import { WorkerEnv } from './webhook-worker-config.ts';
import { WorkersEnv } from './workers-config.ts';

export interface EnvironmentSchema {
  /** The heading it gets in docs/configuration.md. */
  title: string;
  /** The file that reads it, for the reader who wants the code. */
  source: string;
  schema: z.ZodObject;
}

/**
 * Every zod schema the Node entries (server/node.ts, server/worker.ts, server/cli.ts) read the environment
 * with, in the order the configuration reference lists them. The reference (docs/configuration.md) and
 * the deployment files' test (every variable in `.env.example` is known here) both start from this list,
 * so a new schema joins it to be documented.
 *
 * @example
 * ENVIRONMENT_SCHEMAS.flatMap(({ schema }) => Object.keys(schema.shape)); // ['NODE_ENV', 'PORT', …]
 */
export const ENVIRONMENT_SCHEMAS: readonly EnvironmentSchema[] = [
  { title: 'Server', source: 'server/runtime/node/config.ts', schema: EnvSchema },
  { title: 'Evidence storage', source: 'server/runtime/node/blob-store-config.ts', schema: BlobEnv },
  { title: 'Background workers', source: 'server/runtime/node/workers-config.ts', schema: WorkersEnv },
  { title: 'Webhook delivery', source: 'server/runtime/node/webhook-worker-config.ts', schema: WorkerEnv },
  { title: 'Operations', source: 'server/runtime/node/operations-config.ts', schema: OperationsEnv },
];

/** The name of every environment variable the server reads. */
export function knownEnvironmentVariables(): Set<string> {
  return new Set(ENVIRONMENT_SCHEMAS.flatMap(({ schema }) => Object.keys(schema.shape)));
}
