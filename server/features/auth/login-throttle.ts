import type { AppDeps } from '../../app-deps.ts';
import { type BackoffPolicy, nextAttemptAt } from '../../domain/login-backoff.ts';
import { ApiError } from '../../errors/api-error.ts';
import {
  clearLoginFailures,
  countRecentLoginFailures,
  type LoginFailureScope,
  recordLoginFailure,
} from '../../store/auth-records.ts';
import { networkPrefixOf } from '../audit/network-prefix.ts';

/**
 * Throttling of console password logins (issue 24), in place of the old lock-out (five failures from
 * anywhere locked the account for 15 minutes, its owner included). Three scopes each slow their own
 * attempts with growing delays (domain/login-backoff.ts), checked before the password is:
 *
 * - one account from one network: a guesser at one place. 3 free failures, then 1 s doubling to 15 min;
 * - one account from any network: a guesser spread over many places. 10 free, then 1 s doubling to a
 *   60 s cap, kept short on purpose: anyone can push this scope, so it must never become a lock-out.
 *   At the cap it still holds a distributed guesser to one password a minute per account;
 * - one network against any account: a password spray. 20 free, then 1 s doubling to 15 min.
 *
 * So five wrong passwords from five networks cost the owner nothing at a sixth, while a guesser at one
 * place is slowed to about one try per 15 minutes. A throttled attempt is refused (429 with
 * `retry-after`) without checking the password, so waiting out the delay is the only way to try one.
 *
 * Nothing personal is stored: the account is a keyed digest of the typed e-mail (an unknown e-mail is
 * throttled exactly as a known one, so the answers do not tell them apart) and the address is cut to its
 * network, /24 or /48, as the audit log keeps it.
 */
export const PAIR_BACKOFF: BackoffPolicy = { free: 3, baseMs: 1000, capMs: 15 * 60 * 1000 };
export const ACCOUNT_BACKOFF: BackoffPolicy = { free: 10, baseMs: 1000, capMs: 60 * 1000 };
export const NETWORK_BACKOFF: BackoffPolicy = { free: 20, baseMs: 1000, capMs: 15 * 60 * 1000 };

/** Failures older than this no longer count: an hour of quiet starts a scope afresh. */
export const LOGIN_FAILURE_WINDOW_MS = 60 * 60 * 1000;

/** The blind index purpose of login failures' account digests: it matches no other index. */
const ACCOUNT_PURPOSE = 'login_failure_account';

/** The scope of one login attempt: the digest of the typed e-mail and the caller's network. */
export async function loginFailureScope(
  deps: Pick<AppDeps, 'cipher'>,
  typedEmail: string,
  address: string,
): Promise<LoginFailureScope> {
  return {
    accountKey: await deps.cipher.blindIndex(typedEmail.trim().toLowerCase(), ACCOUNT_PURPOSE),
    // Not an IP address (no proxy header, a test): one shared bucket, never the raw text.
    network: networkPrefixOf(address) ?? 'unknown',
  };
}

/** Refuses the attempt with 429 and `retry-after` while any of its scopes must still wait. */
export async function assertLoginAllowed(
  deps: Pick<AppDeps, 'db'>,
  scope: LoginFailureScope,
  now: Date,
): Promise<void> {
  const failures = await countRecentLoginFailures(
    deps.db,
    scope,
    new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS),
  );
  const waits = [
    nextAttemptAt(failures.pair.count, failures.pair.last, PAIR_BACKOFF),
    nextAttemptAt(failures.account.count, failures.account.last, ACCOUNT_BACKOFF),
    nextAttemptAt(failures.network.count, failures.network.last, NETWORK_BACKOFF),
  ]
    .filter((at): at is Date => at !== null && at > now)
    .map((at) => at.getTime());
  if (waits.length === 0) return;
  const retryAfter = Math.max(1, Math.ceil((Math.max(...waits) - now.getTime()) / 1000));
  throw new ApiError(
    'too_many_attempts',
    `Too many failed logins from here or for this account; try again in ${retryAfter} s.`,
    { headers: { 'retry-after': String(retryAfter) } },
  );
}

export async function recordFailedLogin(
  deps: Pick<AppDeps, 'db'>,
  scope: LoginFailureScope,
  now: Date,
): Promise<void> {
  await recordLoginFailure(deps.db, scope, now);
}

/** A successful login forgets the account's failures from this network only (see clearLoginFailures). */
export async function forgetFailedLogins(deps: Pick<AppDeps, 'db'>, scope: LoginFailureScope): Promise<void> {
  await clearLoginFailures(deps.db, scope);
}
