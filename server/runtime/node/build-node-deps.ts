import type { AppDeps } from '../../app-deps.ts';
import type { Logger } from '../../logger.ts';
import { systemClock } from '../../clock.ts';
import { createFieldCipher } from '../../crypto/field-cipher.ts';
import { randomIds } from '../../crypto/ids.ts';
import type { Database } from '../../store/sql-client.ts';
import { argon2PasswordHasher } from './argon2-password-hasher.ts';
import type { ServerConfig } from './config.ts';
import { loadOrCreateDevelopmentSecrets } from './development-secrets.ts';
import { nodeAssets } from './node-assets.ts';
import { nodeWidgetAssets } from './node-widget-assets.ts';
import { nodeConsoleAssets } from './node-console-assets.ts';
import { demoShopBuildable, nodeDemoHost } from './node-demo-assets.ts';
import { nodeWebhookSender } from './node-webhook-sender.ts';
import type { BlobStoreConfig } from './blob-store-config.ts';
import { openBlobStore } from './open-blob-store.ts';
import { openDatabase } from './open-database.ts';
import { sharpImageAnalyzer } from './sharp-image-analyzer.ts';
import { createNodeVisionEngine } from './vision/node-vision-engine.ts';

/** One JSON line per record on stderr: fields are chosen by callers, never request bodies or secrets. */
export const jsonLogger: Logger = {
  info: (message, fields = {}) =>
    process.stderr.write(`${JSON.stringify({ level: 'info', message, ...fields })}\n`),
  error: (message, fields = {}) =>
    process.stderr.write(`${JSON.stringify({ level: 'error', message, ...fields })}\n`),
};

/**
 * Node's dependencies for `createApp`: database, keys, Argon2id, assets, and the vision engine (worker
 * processes that start, and load their models, on the first document or face to look at; `IDV_VISION=off`
 * leaves it out). Whoever stops the app closes `vision` with the database. Evidence goes where
 * `options.blobStore` says (blob-store-config.ts), files under the data directory by default.
 */
export async function buildNodeDeps(
  config: ServerConfig,
  overrides: Partial<AppDeps> = {},
  options: { blobStore?: BlobStoreConfig } = {},
): Promise<AppDeps & { db: Database }> {
  const secrets =
    config.masterKey && config.jwtSecret
      ? { masterKey: config.masterKey, jwtSecret: config.jwtSecret }
      : await loadOrCreateDevelopmentSecrets(config.dataDir);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const blobs = await openBlobStore(options.blobStore ?? { kind: 'file' }, {
    db,
    dataDir: config.dataDir,
  }).catch(async (error: unknown) => {
    await db.close().catch(() => {});
    throw error;
  });
  return {
    config: {
      baseUrl: config.baseUrl,
      verifyBaseUrl: config.verifyBaseUrl,
      mode: config.mode,
      rateLimits: config.rateLimits,
      accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      retention: config.retention,
    },
    db,
    clock: systemClock,
    ids: randomIds,
    passwords: argon2PasswordHasher,
    cipher: await createFieldCipher(config.masterKey ?? secrets.masterKey),
    jwtSecret: config.jwtSecret ?? secrets.jwtSecret,
    assets: nodeAssets(),
    widgetAssets: nodeWidgetAssets(),
    consoleAssets: nodeConsoleAssets(),
    logger: jsonLogger,
    webhookSender: nodeWebhookSender(),
    images: sharpImageAnalyzer(),
    blobs,
    ...(config.vision.enabled ? { vision: createNodeVisionEngine({ threads: config.vision.threads }) } : {}),
    // The demo shop (server/http/pages/demo/) is a development tool of the repository: a production server,
    // and an installed package (which does not ship it), have no /demo routes.
    ...(config.mode === 'development' && demoShopBuildable() ? { demo: nodeDemoHost() } : {}),
    ...overrides,
  } as AppDeps & { db: Database };
}
