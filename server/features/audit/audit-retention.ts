import type { AppDeps } from '../../app-deps.ts';
import { purgeAuditEventsBefore } from '../../store/audit-events.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The audit log keeps every event at least this long; the database refuses to delete a younger one. */
export const MINIMUM_AUDIT_RETENTION_DAYS = 365;

export interface AuditRetentionOptions {
  /** Days to keep events; at least (and by default) {@link MINIMUM_AUDIT_RETENTION_DAYS}. */
  keepDays?: number;
  /** Rows deleted per statement (default 1000), so a long-overdue purge never holds one huge delete. */
  batchSize?: number;
}

/**
 * Deletes audit events older than the retention period, oldest first, in batches; returns how many went.
 * A period under a year is refused before anything is deleted (a typo must not erase the trail); the
 * database enforces the same floor on its own clock (migration 008).
 *
 * @example
 * await purgeExpiredAuditEvents(deps, { keepDays: 730 }); // keep two years
 */
export async function purgeExpiredAuditEvents(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  options: AuditRetentionOptions = {},
): Promise<number> {
  const keepDays = options.keepDays ?? MINIMUM_AUDIT_RETENTION_DAYS;
  if (!Number.isFinite(keepDays) || keepDays < MINIMUM_AUDIT_RETENTION_DAYS) {
    throw new RangeError(
      `Audit events are kept at least ${MINIMUM_AUDIT_RETENTION_DAYS} days; got keepDays=${String(keepDays)}.`,
    );
  }
  const batchSize = options.batchSize ?? 1000;
  const cutoff = new Date(deps.clock.now().getTime() - keepDays * DAY_MS);
  let purged = 0;
  for (;;) {
    const deleted = await purgeAuditEventsBefore(deps.db, cutoff, batchSize);
    purged += deleted;
    if (deleted < batchSize) return purged;
  }
}
