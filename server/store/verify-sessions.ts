import type { SessionRow } from './sessions.ts';
import type { SqlClient } from './sql-client.ts';

/**
 * The session a verify token addresses, by the token's SHA-256 alone: the token is the credential, so
 * the scope comes from the row it finds. An unknown hash is simply no session.
 */
export async function findSessionByVerifyTokenHash(
  sql: SqlClient,
  tokenHash: string,
): Promise<SessionRow | null> {
  const rows = await sql.query<SessionRow>('select * from sessions where verify_token_hash = $1', [
    tokenHash,
  ]);
  return rows[0] ?? null;
}

/** The session by id alone, for a handoff token whose row already names its tenant and environment. */
export async function findSessionById(sql: SqlClient, id: string): Promise<SessionRow | null> {
  const rows = await sql.query<SessionRow>('select * from sessions where id = $1', [id]);
  return rows[0] ?? null;
}
