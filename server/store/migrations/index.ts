import { coreMigration } from './001-core.ts';
import { evidenceMigration } from './002-evidence.ts';
import { webhooksMigration } from './003-webhooks.ts';
import { reviewMigration } from './004-review.ts';
import { retentionMigration } from './005-retention.ts';
import type { Migration } from './migration.ts';

export type { Migration } from './migration.ts';

/** Every migration in version order; one file per version so parallel work never edits the same one. */
export const MIGRATIONS: readonly Migration[] = [
  coreMigration,
  evidenceMigration,
  webhooksMigration,
  reviewMigration,
  retentionMigration,
];
