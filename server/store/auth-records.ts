import type { SqlClient } from './sql-client.ts';

/** Revokes a console token until it would have expired anyway (then the row can go). */
export async function revokeToken(sql: SqlClient, jti: string, expiresAt: Date): Promise<void> {
  await sql.query(
    'insert into revoked_tokens (jti, expires_at) values ($1, $2) on conflict (jti) do nothing',
    [jti, expiresAt],
  );
}

/**
 * A failed console login, by who was tried and from where, with no personal value: `accountKey` is a
 * keyed digest of the typed e-mail (features/auth/login-throttle.ts), `network` the caller's /24 or /48.
 */
export interface LoginFailureScope {
  accountKey: string;
  network: string;
}

export async function recordLoginFailure(sql: SqlClient, scope: LoginFailureScope, at: Date): Promise<void> {
  await sql.query('insert into login_failures (account_key, network, failed_at) values ($1, $2, $3)', [
    scope.accountKey,
    scope.network,
    at,
  ]);
}

/** How many failures a scope had in the window, and when its last one was. */
export interface FailureTally {
  count: number;
  last: Date | null;
}

export interface RecentLoginFailures {
  /** This account from this network. */
  pair: FailureTally;
  /** This account from any network. */
  account: FailureTally;
  /** Any account from this network. */
  network: FailureTally;
}

export async function countRecentLoginFailures(
  sql: SqlClient,
  scope: LoginFailureScope,
  since: Date,
): Promise<RecentLoginFailures> {
  const rows = await sql.query<{
    pair_count: number;
    pair_last: Date | null;
    account_count: number;
    account_last: Date | null;
    network_count: number;
    network_last: Date | null;
  }>(
    `select
       count(*) filter (where account_key = $1 and network = $2)::int as pair_count,
       max(failed_at) filter (where account_key = $1 and network = $2) as pair_last,
       count(*) filter (where account_key = $1)::int as account_count,
       max(failed_at) filter (where account_key = $1) as account_last,
       count(*) filter (where network = $2)::int as network_count,
       max(failed_at) filter (where network = $2) as network_last
     from login_failures where (account_key = $1 or network = $2) and failed_at > $3`,
    [scope.accountKey, scope.network, since],
  );
  const row = rows[0];
  return {
    pair: { count: row?.pair_count ?? 0, last: row?.pair_last ?? null },
    account: { count: row?.account_count ?? 0, last: row?.account_last ?? null },
    network: { count: row?.network_count ?? 0, last: row?.network_last ?? null },
  };
}

/**
 * After a successful login, forgets that account's failures from the caller's network: the owner's own
 * typos stop slowing them. Failures from other networks stay, so a guesser elsewhere is not reset.
 */
export async function clearLoginFailures(sql: SqlClient, scope: LoginFailureScope): Promise<void> {
  await sql.query('delete from login_failures where account_key = $1 and network = $2', [
    scope.accountKey,
    scope.network,
  ]);
}

/**
 * Deletes what the console's sign-in no longer needs: failures older than `failuresBefore` (the throttle
 * counts the last hour; a password spray would otherwise leave rows for ever) and revocations of
 * tokens that have expired anyway. Both tables hold no personal value (the e-mail is a keyed digest, the
 * address its network).
 * Returns how many rows went.
 */
export async function purgeStaleAuthRecords(
  sql: SqlClient,
  now: Date,
  failuresBefore: Date,
): Promise<{ loginFailures: number; revokedTokens: number }> {
  const failures = await sql.query<{ count: number }>(
    'with gone as (delete from login_failures where failed_at < $1 returning 1) select count(*)::int as count from gone',
    [failuresBefore],
  );
  const revoked = await sql.query<{ count: number }>(
    'with gone as (delete from revoked_tokens where expires_at < $1 returning 1) select count(*)::int as count from gone',
    [now],
  );
  return { loginFailures: failures[0]?.count ?? 0, revokedTokens: revoked[0]?.count ?? 0 };
}
