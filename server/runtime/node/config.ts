import { z } from 'zod';
import type { RunMode } from '../../app-config.ts';
import type { RetentionConfig } from '../../features/retention/retention-policy.ts';

const origin = z
  .string()
  .url('must be an absolute URL such as https://api.example.com')
  .transform((value) => value.replace(/\/+$/, ''));

const secretBytes = (name: string) =>
  z.string().transform((value, context) => {
    const bytes = decodeKey(value);
    if (!bytes || bytes.length < 32) {
      context.addIssue({
        code: 'custom',
        message: `${name} must be 32 random bytes as 64 hex characters or base64 (e.g. \`openssl rand -base64 32\`)`,
      });
      return z.NEVER;
    }
    return bytes;
  });

function decodeKey(value: string): Uint8Array<ArrayBuffer> | null {
  const trimmed = value.trim();
  if (/^[0-9a-fA-F]{64,}$/.test(trimmed)) return Uint8Array.from(Buffer.from(trimmed, 'hex'));
  if (/^[A-Za-z0-9+/_-]+=*$/.test(trimmed)) return Uint8Array.from(Buffer.from(trimmed, 'base64'));
  return null;
}

/**
 * The server's environment variables. Each carries its documentation (`description`, and `x-default` /
 * `x-allowed` where the schema alone cannot say it): docs/configuration.md is generated from these
 * schemas (scripts/generate-config-docs.ts), so the reference cannot drift from what is checked here.
 */
export const EnvSchema = z.object({
  NODE_ENV: z.string().optional().meta({
    description:
      '`production`: nothing is generated or printed, and IDV_MASTER_KEY, IDV_JWT_SECRET and IDV_BASE_URL are required. Anything else is development mode: keys are generated under IDV_DATA_DIR and a demo tenant is created on the first start.',
    'x-default': 'unset: development',
    'x-allowed': '`production`; any other value means development',
  }),
  PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(8080)
    .describe('Listening port of the HTTP server.'),
  IDV_HOST: z.string().min(1).optional().meta({
    description: 'Listening address.',
    'x-default': '`0.0.0.0` in production, `127.0.0.1` in development',
  }),
  IDV_BASE_URL: origin.optional().meta({
    description:
      "Public origin of the API as clients reach it (behind a reverse proxy: the proxy's https origin). Required in production.",
    'x-default': '`http://localhost:$PORT`',
    'x-allowed': 'absolute URL',
  }),
  IDV_VERIFY_BASE_URL: origin.optional().meta({
    description: "Origin of the hosted verification page, used in sessions' `verify_url`.",
    'x-default': 'same as `IDV_BASE_URL`',
    'x-allowed': 'absolute URL',
  }),
  IDV_DATA_DIR: z
    .string()
    .min(1)
    .default('./.idv')
    .describe(
      'Directory for the embedded database, the `file` blob store and the development keys and credentials.',
    ),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL; leave it unset for the embedded database')
    .optional()
    .meta({
      description:
        'A PostgreSQL server. Unset, the embedded database (PGlite) under IDV_DATA_DIR is used, which one process at a time can open. Required by `npm run worker` and for several instances.',
      'x-default': 'unset: embedded database',
      'x-allowed': '`postgres://user:password@host:5432/database`',
    }),
  IDV_MASTER_KEY: secretBytes('IDV_MASTER_KEY').optional().meta({
    description:
      'Key encrypting personal data at rest (AES-256-GCM). Required in production. Keep it with the database backups: data encrypted under a lost key cannot be read.',
    'x-default': 'generated in development (`IDV_DATA_DIR/secrets.json`)',
    'x-allowed': '32 random bytes as 64 hex characters or base64/base64url',
  }),
  IDV_JWT_SECRET: secretBytes('IDV_JWT_SECRET').optional().meta({
    description:
      'Key signing console session tokens. Required in production; the same on every instance. Changing it signs every console user out.',
    'x-default': 'generated in development (`IDV_DATA_DIR/secrets.json`)',
    'x-allowed': 'at least 32 random bytes as hex or base64/base64url',
  }),
  IDV_RATE_LIMIT_READS: z.coerce
    .number()
    .int()
    .min(1)
    .default(600)
    .describe(
      'Reads (GET, HEAD, OPTIONS) per credential (API key or console session) per minute in live mode; the sandbox gets a quarter. Counted in the database, so all instances share one budget (written in batches while far below it: docs/API.md §11).',
    ),
  IDV_RATE_LIMIT_WRITES: z.coerce
    .number()
    .int()
    .min(1)
    .default(300)
    .describe(
      'Writes per credential per minute in live mode; the sandbox gets a quarter. Shared by all instances like the reads.',
    ),
  IDV_ACCESS_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .max(86_400)
    .default(3600)
    .describe('Lifetime of a console access token, in seconds.'),
  IDV_RETENTION_DECIDED_DAYS: z.coerce
    .number()
    .positive('must be a positive number of days')
    .optional()
    .meta({
      description: "Days a session's evidence is kept after an approval or rejection; fractions are allowed.",
      'x-default': '`90`',
    }),
  IDV_RETENTION_ABANDONED_DAYS: z.coerce
    .number()
    .positive('must be a positive number of days')
    .optional()
    .meta({
      description:
        "Days a session's evidence is kept after it expired or was cancelled; fractions are allowed.",
      'x-default': '`30`',
    }),
  IDV_VISION: z
    .enum(['on', 'off'], { message: 'must be on or off' })
    .default('on')
    .describe(
      '`off` runs no model: the checks that need one (document reading, face match, liveness) report `model_unavailable`.',
    ),
  IDV_VISION_THREADS: z.coerce
    .number()
    .int()
    .min(1)
    .max(16, 'must be at most 16 (each thread holds its own ~300 MB of models)')
    .default(1)
    .describe('Vision worker processes, each with its own models (~300 MB of memory each).'),
});

/** What a production-mode server refuses to start without: nothing is generated there. */
export const PRODUCTION_REQUIRED = ['IDV_MASTER_KEY', 'IDV_JWT_SECRET', 'IDV_BASE_URL'] as const;

export interface ServerConfig {
  mode: RunMode;
  port: number;
  host: string;
  baseUrl: string;
  verifyBaseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  masterKey: Uint8Array<ArrayBuffer> | undefined;
  jwtSecret: Uint8Array<ArrayBuffer> | undefined;
  rateLimits: { reads: number; writes: number };
  accessTokenTtlSeconds: number;
  /** Days evidence outlives a session; unset members take the defaults of retention-policy.ts. */
  retention: RetentionConfig;
  /**
   * The vision engine (document reading, face analysis): off leaves `deps.vision` unset, so the checks that
   * need models report `model_unavailable`. Each worker process loads its own models (~300 MB).
   */
  vision: { enabled: boolean; threads: number };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads configuration from the environment once, at start-up. Any bad value stops the process with a
 * message naming the variable and what it expects; secrets are never echoed.
 *
 * @example
 * const config = loadConfig(process.env);
 */
export function loadConfig(env: Record<string, string | undefined>): ServerConfig {
  // An empty variable means "unset" (docker-compose and shells often pass VAR= ).
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const value = parsed.data;
  const mode: RunMode = value.NODE_ENV === 'production' ? 'production' : 'development';
  if (mode === 'production') {
    const missing = PRODUCTION_REQUIRED.filter((name) => !value[name]);
    if (missing.length > 0) {
      throw new ConfigError(
        `Invalid configuration:\n${missing.map((name) => `  ${name}: required in production mode (nothing is generated there)`).join('\n')}`,
      );
    }
  }
  const host = value.IDV_HOST ?? (mode === 'production' ? '0.0.0.0' : '127.0.0.1');
  const baseUrl = value.IDV_BASE_URL ?? `http://localhost:${value.PORT}`;
  return {
    mode,
    port: value.PORT,
    host,
    baseUrl,
    verifyBaseUrl: value.IDV_VERIFY_BASE_URL ?? baseUrl,
    dataDir: value.IDV_DATA_DIR,
    databaseUrl: value.DATABASE_URL,
    masterKey: value.IDV_MASTER_KEY,
    jwtSecret: value.IDV_JWT_SECRET,
    rateLimits: { reads: value.IDV_RATE_LIMIT_READS, writes: value.IDV_RATE_LIMIT_WRITES },
    accessTokenTtlSeconds: value.IDV_ACCESS_TOKEN_TTL,
    retention: {
      ...(value.IDV_RETENTION_DECIDED_DAYS
        ? { evidenceDaysAfterDecision: value.IDV_RETENTION_DECIDED_DAYS }
        : {}),
      ...(value.IDV_RETENTION_ABANDONED_DAYS
        ? { evidenceDaysAfterAbandonment: value.IDV_RETENTION_ABANDONED_DAYS }
        : {}),
    },
    vision: { enabled: value.IDV_VISION === 'on', threads: value.IDV_VISION_THREADS },
  };
}
