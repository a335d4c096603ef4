import type { AppDeps } from '../app-deps.ts';
import { createPollingLoop } from './polling-loop.ts';
import { isOverdue } from '../domain/session-status.ts';
import { findOverdueSessionIds, findSessionForUpdate, type SessionRow } from '../store/sessions.ts';
import { transitionSession } from '../features/sessions/transition-session.ts';

export interface ExpirySweeperOptions {
  /** Pause between sweeps (default 30 s); every read also applies expiry, so this only bounds event lag. */
  intervalMs?: number;
  /** Sessions expired per transaction batch (default 100). */
  batchSize?: number;
}

export interface ExpirySweeper {
  /** Expires every overdue `created`/`collecting` session now; returns how many it expired. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Moves sessions past `expires_at` to `expired` in the background (API.md §4), each in its own
 * transaction with its `session.expired` event and, for a re-verification session, the request's
 * settlement. A session a reader or another instance expired first is skipped: the row lock and the
 * re-check make the sweep safe to run on every instance.
 *
 * @example
 * const sweeper = createExpirySweeper(deps);
 * sweeper.start();
 */
export function createExpirySweeper(deps: AppDeps, options: ExpirySweeperOptions = {}): ExpirySweeper {
  const intervalMs = options.intervalMs ?? 30_000;
  const batchSize = options.batchSize ?? 100;

  async function expireOne(
    candidate: Pick<SessionRow, 'id' | 'tenant_id' | 'environment'>,
  ): Promise<boolean> {
    return deps.db.transaction(async (tx) => {
      const scope = { tenantId: candidate.tenant_id, environment: candidate.environment };
      const locked = await findSessionForUpdate(tx, scope, candidate.id);
      if (!locked || !isOverdue(locked.status, locked.expires_at, deps.clock.now())) return false;
      await transitionSession(tx, deps, locked, 'expired', 'expired');
      return true;
    });
  }

  async function runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const due = await findOverdueSessionIds(deps.db, deps.clock.now(), batchSize);
      let expired = 0;
      for (const candidate of due) if (await expireOne(candidate)) expired += 1;
      total += expired;
      // Stop when the batch was short, or when nothing in it could be expired (no endless loop).
      if (due.length < batchSize || expired === 0) return total;
    }
  }

  const loop = createPollingLoop({
    name: 'expiry sweep',
    round: async () => {
      const count = await runOnce();
      if (count > 0) deps.logger?.info('expired sessions', { count });
    },
    pauseAfter: () => intervalMs,
    pauseAfterError: intervalMs,
    logger: deps.logger,
  });

  return { runOnce, start: loop.start, stop: loop.stop };
}
