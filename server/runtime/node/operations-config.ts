import { z } from 'zod';
import { ConfigError } from './config.ts';

export const LOG_LEVELS = ['info', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Documented like config.ts's EnvSchema: docs/configuration.md is generated from it. */
export const OperationsEnv = z.object({
  IDV_LOG_LEVEL: z
    .enum(LOG_LEVELS, { message: 'must be info (default), error (errors only) or silent' })
    .default('info')
    .describe(
      '`info`: a JSON line on stdout per request and lifecycle event; `error`: failures only; `silent`: nothing.',
    ),
  IDV_SHUTDOWN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100, 'must be at least 100 (milliseconds)')
    .max(600_000, 'must be at most 600000 (10 minutes)')
    .default(10_000)
    .describe(
      'How long SIGTERM or SIGINT waits for accepted requests and background rounds before cutting them off (exit 1), in milliseconds.',
    ),
  IDV_WEBHOOK_ALLOW_LOOPBACK: z
    .enum(['true', 'false'], { message: 'must be true or false (default)' })
    .default('false')
    .describe(
      '`true` lets sandbox webhook endpoints of a production server be on loopback (a receiver on the same machine). Private, link-local and metadata addresses stay refused.',
    ),
});

export interface OperationsConfig {
  /** `info`: every request and lifecycle line; `error`: failures only; `silent`: nothing. */
  logLevel: LogLevel;
  /** How long a stop waits for accepted requests and background rounds before it cuts them off. */
  shutdownTimeoutMs: number;
  /**
   * Whether sandbox webhook endpoints of a production-mode server may be on loopback (a receiver on the
   * same machine, as in tests). Private, link-local and metadata addresses stay refused regardless.
   */
  webhookAllowLoopback: boolean;
}

/**
 * How the process runs, beside what the app is configured with (config.ts): logging, the stop deadline
 * and the loopback allowance for sandbox webhooks. Read once at start-up; a bad value names itself.
 *
 * @example
 * const operations = loadOperationsConfig(process.env); // { logLevel: 'info', shutdownTimeoutMs: 10000, … }
 */
export function loadOperationsConfig(env: Record<string, string | undefined>): OperationsConfig {
  const present = Object.fromEntries(
    Object.entries(env).filter(
      ([name, value]) => name in OperationsEnv.shape && value !== undefined && value !== '',
    ),
  );
  const parsed = OperationsEnv.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return {
    logLevel: parsed.data.IDV_LOG_LEVEL,
    shutdownTimeoutMs: parsed.data.IDV_SHUTDOWN_TIMEOUT_MS,
    webhookAllowLoopback: parsed.data.IDV_WEBHOOK_ALLOW_LOOPBACK === 'true',
  };
}
