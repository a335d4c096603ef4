import { coreMigration } from './001-core.ts';
import { evidenceMigration } from './002-evidence.ts';
import { webhooksMigration } from './003-webhooks.ts';
import { reviewMigration } from './004-review.ts';
import { retentionMigration } from './005-retention.ts';
import { documentReadingsMigration } from './006-document-readings.ts';
import { livenessReadingsMigration } from './007-liveness-readings.ts';
import { consoleMigration } from './008-console.ts';
import { evidenceBlobsMigration } from './009-evidence-blobs.ts';
import { sharedLimitsMigration } from './010-shared-limits.ts';
import { unreferencedBlobsMigration } from './011-unreferenced-blobs.ts';
import { scaleIndexesMigration } from './012-scale-indexes.ts';
import { sessionStatsRollupMigration } from './013-session-stats-rollup.ts';
import { attemptsPerStepMigration } from './014-attempts-per-step.ts';
import { staffAccountPrivacyMigration } from './015-staff-account-privacy.ts';
import { secondFactorsMigration } from './016-second-factors.ts';
import { reviewTeamWorkflowMigration } from './017-review-team-workflow.ts';
import type { Migration } from './migration.ts';

export type { Migration } from './migration.ts';

/** Every migration in version order; one file per version so parallel work never edits the same one. */
export const MIGRATIONS: readonly Migration[] = [
  coreMigration,
  evidenceMigration,
  webhooksMigration,
  reviewMigration,
  retentionMigration,
  documentReadingsMigration,
  livenessReadingsMigration,
  consoleMigration,
  evidenceBlobsMigration,
  sharedLimitsMigration,
  unreferencedBlobsMigration,
  scaleIndexesMigration,
  sessionStatsRollupMigration,
  attemptsPerStepMigration,
  staffAccountPrivacyMigration,
  secondFactorsMigration,
  reviewTeamWorkflowMigration,
];
