import type { Environment } from '../domain/api-key-format.ts';
import type { SqlClient } from './sql-client.ts';
import type { Scope } from './sessions.ts';

export interface VerifyConsentRow {
  session_id: string;
  tenant_id: string;
  environment: Environment;
  accepted: boolean;
  consent_version: string;
  locale: string | null;
  ip_enc: string | null;
  user_agent_enc: string | null;
  recorded_at: Date;
}

/** Records (or re-records) the consent answer; the latest answer is the one that counts. */
export async function upsertVerifyConsent(sql: SqlClient, row: VerifyConsentRow): Promise<void> {
  await sql.query(
    `insert into verify_consents (session_id, tenant_id, environment, accepted, consent_version, locale,
       ip_enc, user_agent_enc, recorded_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     on conflict (session_id) do update set accepted = excluded.accepted,
       consent_version = excluded.consent_version, locale = excluded.locale, ip_enc = excluded.ip_enc,
       user_agent_enc = excluded.user_agent_enc, recorded_at = excluded.recorded_at`,
    [
      row.session_id,
      row.tenant_id,
      row.environment,
      row.accepted,
      row.consent_version,
      row.locale,
      row.ip_enc,
      row.user_agent_enc,
      row.recorded_at,
    ],
  );
}

export async function findVerifyConsent(
  sql: SqlClient,
  scope: Scope,
  sessionId: string,
): Promise<VerifyConsentRow | null> {
  const rows = await sql.query<VerifyConsentRow>(
    'select * from verify_consents where session_id = $1 and tenant_id = $2 and environment = $3',
    [sessionId, scope.tenantId, scope.environment],
  );
  return rows[0] ?? null;
}

export async function deleteVerifyConsent(sql: SqlClient, sessionId: string): Promise<void> {
  await sql.query('delete from verify_consents where session_id = $1', [sessionId]);
}
