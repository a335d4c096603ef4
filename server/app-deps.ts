import type { BlobStore } from './store/blobs/blob-store.ts';
import type { FieldCipher } from './crypto/field-cipher.ts';
import type { IdGenerator } from './crypto/ids.ts';
import type { ImageAnalyzer } from './features/evidence/image-analyzer.ts';
import type { RateLimitCounter } from './http/rate-limit-counter.ts';
import type { RetentionConfig } from './features/retention/retention-policy.ts';
import type { EvidenceCollector } from './features/review/evidence-collector.ts';
import type { SqlClient } from './store/sql-client.ts';
import type { VisionEngine } from './features/vision/vision-engine.ts';
import type { WebhookSender } from './features/webhooks/webhook-sender.ts';

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

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Password hashing lives behind this seam: Argon2id natively in Node, Web Crypto in the browser mock. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/**
 * Static files the app serves but cannot read itself (it has no file system): the docs bundle
 * `api-reference.js`, and its `.br`/`.gz` twins when the host has them (server/http/static-asset.ts).
 */
export interface StaticAssets {
  get(name: string): Promise<Response | null>;
}

/**
 * The built widget files (`npm run build` → `dist/`): `hosted/index.html`, `hosted/assets/*`,
 * `sdk/id-verify.js`, `sdk/chunks/*`, each with optional `.br`/`.gz` twins (server/http/static-asset.ts).
 * Null for a path that does not exist.
 */
export interface WidgetAssets {
  get(path: string): Promise<Response | null>;
}

/** Where the app reports what operators need; never given personal data or secrets. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { info: () => {}, error: () => {} };

/** Everything the app needs from its host, passed in so the same app runs in Node and in the MSW mock. */
export interface AppDeps {
  config: AppConfig;
  db: SqlClient;
  clock: Clock;
  ids: IdGenerator;
  passwords: PasswordHasher;
  cipher: FieldCipher;
  /** HMAC key for console access tokens (≥ 32 bytes). */
  jwtSecret: Uint8Array<ArrayBuffer>;
  assets?: StaticAssets;
  /** The hosted page and the script-tag bundle; without it those routes answer 503. */
  widgetAssets?: WidgetAssets;
  /** The built console (`index.html`, `assets/*`) served at /console; without it those routes answer 503. */
  consoleAssets?: WidgetAssets;
  /** The caller's network address for login throttling; the host knows it, the Request does not. */
  clientAddress?: (request: Request, env: unknown) => string;
  logger?: Logger;
  /** Sends webhook deliveries; web `fetch` when absent. Node passes the adapter with the SSRF guard. */
  webhookSender?: WebhookSender;
  /** Reads a session's evidence for the automated review and for approvals; see EvidenceCollector. */
  collectReviewEvidence?: EvidenceCollector;
  /** Decodes and measures uploaded images (sharp on Node); evidence endpoints answer 503 without it. */
  images?: ImageAnalyzer;
  /** Raw storage for evidence bytes; the app encrypts before it stores (see server/store/blobs/). */
  blobs?: BlobStore;
  /**
   * The models that read documents and look at faces (real ones on Node, a deterministic stand-in in the
   * mock). Without it, the checks that need them are `inconclusive` for `model_unavailable`.
   */
  vision?: VisionEngine;
  /**
   * The host's part of `GET /readyz`: why it cannot take traffic now (`'starting'`, `'shutting_down'`…)
   * or null. Hosts without one (the mock, tests) are ready whenever their database is.
   */
  hostReadiness?: () => string | null;
  /**
   * Where rate-limit counts live. Absent: in the database, shared by every instance on it. The browser
   * mock passes `memoryRateLimitCounter()`: it is the only instance, so a query per request buys nothing.
   */
  rateLimitCounter?: RateLimitCounter;
  /**
   * The demo shop at `/demo/` (server/http/pages/demo/): a development server's only; absent, there are no `/demo`
   * routes. Its page comes from the build, its backend holds the development tenant's sandbox key.
   */
  demo?: import('./http/pages/demo/demo-host.ts').DemoHost;
}
