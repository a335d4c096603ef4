import type { AppDeps } from '../app-deps.ts';
import { createPollingLoop } from './polling-loop.ts';
import { deleteSessionEvidence } from '../features/evidence/delete-session-evidence.ts';
import { purgeExpiredAuditEvents } from '../features/audit/audit-retention.ts';
import { purgeStaleAuthRecords } from '../store/auth-records.ts';
import { FAILURE_WINDOW_MS as SECOND_FACTOR_WINDOW_MS } from '../features/second-factors/second-factor-throttle.ts';
import { deleteExpiredChallenges } from '../store/second-factors.ts';
import { deleteExpiredIdempotencyKeys } from '../store/idempotency.ts';
import { findUnreferencedBlobsBefore, forgetUnreferencedBlobs } from '../store/unreferenced-blobs.ts';
import {
  findSessionsPastEvidenceRetention,
  markSessionEvidenceDeleted,
  purgeEventsBefore,
} from '../store/retention.ts';
import { RETENTION_MS as EVENT_RETENTION_MS } from '../features/webhooks/retention.ts';
import { resolveRetention } from '../features/retention/retention-policy.ts';

/**
 * How old a journaled blob write must be before its bytes count as abandoned: far beyond any request
 * (uploads are read by the models for seconds, not minutes), so no live upload loses its bytes.
 */
export const UNREFERENCED_BLOB_GRACE_MS = 60 * 60 * 1000;

/** Idempotency keys are kept 24 h (API.md §1, §10). */
const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface RetentionSweeperOptions {
  /** Pause between sweeps (default 1 h): retention is measured in days, a sweep an hour late is harmless. */
  intervalMs?: number;
  /** Sessions and events handled per batch (default 100). */
  batchSize?: number;
}

/** What one sweep removed. */
export interface RetentionSweep {
  /** Sessions whose evidence was deleted. */
  sessions: number;
  /** Stored images among that evidence. */
  images: number;
  events: number;
  /** Blobs a crash left without their row (see migration 011), deleted. */
  unreferencedBlobs: number;
}

export interface RetentionSweeper {
  /** Runs one full sweep now; for tests and for operators (e.g. a CLI) as well as the timer. */
  runOnce(): Promise<RetentionSweep>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Deletes personal data whose time is up, in the background on every instance:
 * - the evidence of terminal sessions past their retention (see `retention-policy.ts`, configurable as
 *   `config.retention`), through `deleteSessionEvidence`; the session, its decision and its events stay
 *   so the result keeps answering, and `evidence_deleted_at` marks it done;
 * - events older than 30 days (API.md §10; the event API already hides them, the webhook worker purges
 *   their deliveries);
 * - evidence bytes no row names, which a crash left between storing the bytes and writing their upload row
 *   (or between deleting the rows and the bytes), once journaled longer than UNREFERENCED_BLOB_GRACE_MS;
 * - idempotency keys older than 24 h, whose stored answers could otherwise pile up for ever;
 * - console sign-in failures older than 24 h (the throttle reads 15 minutes) and revocations of tokens
 *   that have expired anyway.
 *
 * Safe with several instances: a session swept twice at once loses nothing (deleting is idempotent, the
 * evidence is read-only once the session is terminal) and the batches stop when nothing is left.
 *
 * @example
 * const sweeper = createRetentionSweeper(deps);
 * sweeper.start();
 */
/** Sign-in failures are kept a day: far beyond the throttle's 15-minute window, short enough to stay small. */
const LOGIN_FAILURE_KEEP_MS = 24 * 60 * 60 * 1000;

export function createRetentionSweeper(
  deps: AppDeps,
  options: RetentionSweeperOptions = {},
): RetentionSweeper {
  // Resolved now, so a bad period fails the start-up rather than the first sweep.
  const policy = resolveRetention(deps.config.retention);
  const intervalMs = options.intervalMs ?? 60 * 60 * 1000;
  const batchSize = options.batchSize ?? 100;

  async function sweepEvidence(now: Date): Promise<Pick<RetentionSweep, 'sessions' | 'images'>> {
    const cutoffs = {
      decidedBefore: new Date(now.getTime() - policy.evidenceAfterDecisionMs),
      abandonedBefore: new Date(now.getTime() - policy.evidenceAfterAbandonmentMs),
    };
    const done = { sessions: 0, images: 0 };
    for (;;) {
      const due = await findSessionsPastEvidenceRetention(deps.db, cutoffs, batchSize);
      for (const session of due) {
        // Rows then bytes (see deleteSessionEvidence); the marker last, so a crash in between only means
        // the next sweep deletes nothing again and sets it.
        done.images += await deleteSessionEvidence(deps.db, deps, session.id);
        await markSessionEvidenceDeleted(deps.db, session.id, now);
        done.sessions += 1;
      }
      if (due.length < batchSize) return done;
    }
  }

  async function sweepEvents(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - EVENT_RETENTION_MS);
    let total = 0;
    for (;;) {
      const deleted = await purgeEventsBefore(deps.db, cutoff, batchSize);
      total += deleted;
      if (deleted < batchSize) return total;
    }
  }

  async function sweepUnreferencedBlobs(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - UNREFERENCED_BLOB_GRACE_MS);
    let total = 0;
    for (;;) {
      const keys = await findUnreferencedBlobsBefore(deps.db, cutoff, batchSize);
      // Bytes first, then the journal entries: a crash in between only repeats an idempotent delete.
      const blobs = deps.blobs;
      if (blobs) await Promise.all(keys.map((key) => blobs.delete(key)));
      await forgetUnreferencedBlobs(deps.db, keys);
      total += keys.length;
      if (keys.length < batchSize) return total;
    }
  }

  async function runOnce(): Promise<RetentionSweep> {
    const now = deps.clock.now();
    const evidence = await sweepEvidence(now);
    const events = await sweepEvents(now);
    const unreferencedBlobs = await sweepUnreferencedBlobs(now);
    await deleteExpiredIdempotencyKeys(deps.db, new Date(now.getTime() - IDEMPOTENCY_KEY_LIFETIME_MS));
    await purgeStaleAuthRecords(deps.db, now, new Date(now.getTime() - LOGIN_FAILURE_KEEP_MS));
    // Second-factor challenges past their expiry, once the throttle no longer counts their wrong answers.
    await deleteExpiredChallenges(deps.db, new Date(now.getTime() - SECOND_FACTOR_WINDOW_MS));
    // The audit log is kept at least a year (its own module refuses less); older entries go here.
    await purgeExpiredAuditEvents(deps);
    return { ...evidence, events, unreferencedBlobs };
  }

  const loop = createPollingLoop({
    name: 'retention sweep',
    round: async () => {
      const done = await runOnce();
      // Counts only: never an id or a value of the data that was deleted.
      if (done.sessions > 0 || done.events > 0 || done.unreferencedBlobs > 0) {
        deps.logger?.info('retention sweep', {
          sessions: done.sessions,
          images: done.images,
          events: done.events,
          unreferenced_blobs: done.unreferencedBlobs,
        });
      }
    },
    pauseAfter: () => intervalMs,
    pauseAfterError: intervalMs,
    logger: deps.logger,
  });

  return { runOnce, start: loop.start, stop: loop.stop };
}
