import type { SessionRow } from './sessions.ts';
import type { SqlClient } from './sql-client.ts';

/**
 * Replaces the blind-indexed name words of a session (see features/review-queue/name-tokens.ts): the
 * latest review's names are the ones searched.
 */
export async function replaceSessionNameTokens(
  sql: SqlClient,
  sessionId: string,
  tokenIndexes: readonly string[],
): Promise<void> {
  await sql.query('delete from session_name_tokens where session_id = $1', [sessionId]);
  if (tokenIndexes.length === 0) return;
  await sql.query(
    `insert into session_name_tokens (session_id, token_index)
     select $1, unnest($2::text[]) on conflict do nothing`,
    [sessionId, [...new Set(tokenIndexes)]],
  );
}

/** Forgets a session's name index with the rest of its personal data (retention). */
export async function deleteSessionNameTokens(sql: SqlClient, sessionId: string): Promise<void> {
  await sql.query('delete from session_name_tokens where session_id = $1', [sessionId]);
}

/**
 * Up to `limit` reviewed sessions (any tenant) that have no name index yet, in id order after `afterId`:
 * the backfill's next batch (sessions reviewed before migration 017 wrote the index).
 */
export async function sessionsWithoutNameIndex(
  sql: SqlClient,
  afterId: string,
  limit: number,
): Promise<SessionRow[]> {
  return sql.query<SessionRow>(
    `select * from sessions s
      where s.id > $1 and s.status in ('review_required', 'approved', 'rejected')
        and not exists (select 1 from session_name_tokens t where t.session_id = s.id)
      order by s.id limit $2`,
    [afterId, limit],
  );
}
