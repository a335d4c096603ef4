import type { RetentionConfig } from './features/retention/retention-policy.ts';

export type RunMode = 'development' | 'production';

export interface RateLimitConfig {
  /** Requests per 60 s per credential in production; sandbox gets a quarter (API.md §10). */
  reads: number;
  writes: number;
}

export interface AppConfig {
  /** Public origin of the API, e.g. `https://api.example.com`; used in problem types and JWT `iss`. */
  baseUrl: string;
  /** Origin that serves the hosted page: `verify_url` is `{verifyBaseUrl}/verify/<token>`. */
  verifyBaseUrl: string;
  mode: RunMode;
  rateLimits: RateLimitConfig;
  /** Console access token lifetime in seconds. */
  accessTokenTtlSeconds: number;
  /** How long session evidence is kept once the session is over; defaults in retention-policy.ts. */
  retention?: RetentionConfig;
  /**
   * How long a running `Idempotency-Key` attempt holds its key without renewing (default 10 s, renewed
   * every third of it): after a crash a retry takes the key over within this time (API.md §11).
   */
  idempotencyLeaseMs?: number;
}
