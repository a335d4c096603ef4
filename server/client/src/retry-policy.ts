/** How the client retries (API.md §10: 429 always carries `retry-after`; 5xx and lost answers may pass). */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. Default 3. */
  maxRetries: number;
  /** The first back-off before jitter; it doubles per retry. Default 500 ms. */
  baseDelayMs: number;
  /**
   * No wait is longer. A `retry-after` beyond it is not shortened (retrying before the server's time
   * would only be refused again): the call fails at once, and the error's `retrySkipped` says so. Default 30 s.
   */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000 };

/** Statuses worth another attempt: rate limited, or the server (or a proxy) failed or was unavailable. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * A request may be sent again only when a repeat cannot act twice: the method is idempotent by HTTP's
 * rules, or the server deduplicates it by its `Idempotency-Key` (API.md §1).
 */
export function mayRepeat(method: string, hasIdempotencyKey: boolean): boolean {
  return ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'].includes(method) || hasIdempotencyKey;
}

/** `retry-after` in seconds, from either form HTTP allows (delta seconds or an HTTP date). */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The wait before retry number `retry` (1-based): the server's `retry-after` when it sent one, else
 * exponential back-off with jitter (half fixed, half random, so clients that failed together spread out).
 * `undefined` when the wait would exceed the cap: better to fail now than to hang.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterSeconds !== undefined) {
    const wait = retryAfterSeconds * 1000;
    return wait > policy.maxDelayMs ? undefined : wait;
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
