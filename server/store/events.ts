import type { Environment } from '../domain/api-key-format.ts';
import type { SqlClient } from './sql-client.ts';

export interface EventRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  type: string;
  session_id: string | null;
  identity_id: string | null;
  payload: Record<string, unknown>;
  created_at: Date;
}

/** Writes an event to the outbox; call inside the transaction that made the change it reports. */
export async function insertEvent(sql: SqlClient, event: EventRow): Promise<void> {
  await sql.query(
    `insert into events (id, tenant_id, environment, type, session_id, identity_id, payload, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      event.id,
      event.tenant_id,
      event.environment,
      event.type,
      event.session_id,
      event.identity_id,
      JSON.stringify(event.payload),
      event.created_at,
    ],
  );
}

export async function listEventsOfSession(sql: SqlClient, sessionId: string): Promise<EventRow[]> {
  return sql.query<EventRow>('select * from events where session_id = $1 order by created_at, id', [
    sessionId,
  ]);
}
