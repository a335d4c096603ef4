import type { Logger } from '../logger.ts';
import { randomBase62 } from '../crypto/primitives.ts';

/**
 * Names this process in the idempotency claims it holds, random per start: a claim of this owner that no
 * running attempt here holds (see `liveIdempotencyClaims`) is known to be dead, whatever its lease says.
 */
export const PROCESS_OWNER_ID = randomBase62(96);

/** The claims this process's requests are running now. */
const liveClaims = new Set<string>();

export function liveIdempotencyClaims(): readonly string[] {
  return [...liveClaims];
}

/** Default lease of a running attempt: another process takes the key over once it runs out. */
export const DEFAULT_IDEMPOTENCY_LEASE_MS = 10_000;

export interface RunningClaim {
  readonly claimId: string;
  /** Starts renewing the lease every third of its length, so two missed renewals still keep it. */
  startRenewing(renew: () => Promise<void>, leaseMs: number, logger?: Logger): void;
  /** Stops renewing (waiting for a renewal under way) and forgets the claim. */
  end(): Promise<void>;
}

/**
 * One attempt's hold on a key: registered as live before it is claimed (so this process never takes over
 * its own running attempt) and renewed by a timer while the request runs. Timers die with the process,
 * which is the point: a dead process stops renewing and its claims lapse within one lease.
 */
export function beginClaim(): RunningClaim {
  const claimId = randomBase62(96);
  liveClaims.add(claimId);
  let timer: ReturnType<typeof setInterval> | undefined;
  let renewing: Promise<void> = Promise.resolve();
  return {
    claimId,
    startRenewing(renew, leaseMs, logger) {
      timer = setInterval(
        () => {
          renewing = renewing.then(renew).catch((error: unknown) => {
            // The lease may lapse and a retry take over; the answer is then not stored by this attempt.
            logger?.error('idempotency lease renewal failed', {
              error: error instanceof Error ? error.name : 'unknown',
            });
          });
        },
        Math.max(1, Math.floor(leaseMs / 3)),
      );
    },
    async end() {
      if (timer !== undefined) clearInterval(timer);
      await renewing;
      liveClaims.delete(claimId);
    },
  };
}
