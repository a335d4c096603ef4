import type { BlobStore } from './store/blobs/blob-store.ts';
import type { FieldCipher } from './crypto/field-cipher.ts';
import type { IdGenerator } from './crypto/ids.ts';
import type { DemoHost } from './http/pages/demo/demo-host.ts';
import type { ImageAnalyzer } from './features/evidence/image-analyzer.ts';
import type { RateLimitCounter } from './http/rate-limit-counter.ts';
import type { AppConfig } from './app-config.ts';
import type { Clock } from './clock.ts';
import type { Logger } from './logger.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { StaticAssets, WidgetAssets } from './static-assets.ts';
import type { EvidenceCollector } from './features/review/evidence-collector.ts';
import type { SqlClient } from './store/sql-client.ts';
import type { VisionEngine } from './features/vision/vision-engine.ts';
import type { WebhookSender } from './features/webhooks/webhook-sender.ts';

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
  demo?: DemoHost;
}
