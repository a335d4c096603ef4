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
