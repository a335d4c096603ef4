import type { SqlClient } from './sql-client.ts';

/** Revokes a console token until it would have expired anyway (then the row can go). */
export async function revokeToken(sql: SqlClient, jti: string, expiresAt: Date): Promise<void> {
  await sql.query(
    'insert into revoked_tokens (jti, expires_at) values ($1, $2) on conflict (jti) do nothing',
    [jti, expiresAt],
  );
}

export async function recordLoginFailure(
  sql: SqlClient,
  emailKey: string,
  ip: string,
  at: Date,
): Promise<void> {
  await sql.query('insert into login_failures (email_key, ip, failed_at) values ($1, $2, $3)', [
    emailKey,
    ip,
    at,
  ]);
}

export interface RecentFailures {
  byEmail: number;
  byIp: number;
  /** The oldest failure in the window, to tell the client when it may try again. */
  oldestByEmail: Date | null;
  oldestByIp: Date | null;
}

export async function countRecentLoginFailures(
  sql: SqlClient,
  emailKey: string,
  ip: string,
  since: Date,
): Promise<RecentFailures> {
  const rows = await sql.query<{
    by_email: number;
    by_ip: number;
    oldest_email: Date | null;
    oldest_ip: Date | null;
  }>(
    `select
       count(*) filter (where email_key = $1)::int as by_email,
       count(*) filter (where ip = $2)::int as by_ip,
       min(failed_at) filter (where email_key = $1) as oldest_email,
       min(failed_at) filter (where ip = $2) as oldest_ip
     from login_failures where (email_key = $1 or ip = $2) and failed_at > $3`,
    [emailKey, ip, since],
  );
  const row = rows[0];
  return {
    byEmail: row?.by_email ?? 0,
    byIp: row?.by_ip ?? 0,
    oldestByEmail: row?.oldest_email ?? null,
    oldestByIp: row?.oldest_ip ?? null,
  };
}

export async function clearLoginFailures(sql: SqlClient, emailKey: string): Promise<void> {
  await sql.query('delete from login_failures where email_key = $1', [emailKey]);
}

/**
 * Deletes what the console's sign-in no longer needs: failures older than `failuresBefore` (the throttle
 * counts the last 15 minutes; a password spray would otherwise leave rows for ever) and revocations of
 * tokens that have expired anyway. Both tables hold no personal value (the e-mail is a keyed digest).
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
