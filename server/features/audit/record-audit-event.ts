import type { Context } from 'hono';
import type { AppDeps } from '../../app-deps.ts';
import type { Environment } from '../../domain/api-key-format.ts';
import type { AppEnv, Principal } from '../../http/app-env.ts';
import {
  type AuditActorType,
  type AuditEventRow,
  insertAuditEvent,
  insertAuditEvents,
} from '../../store/audit-events.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import type { AuditAction, AuditDetails, AuditTargetType } from './audit-actions.ts';
import { networkPrefixOf } from './network-prefix.ts';

export interface AuditActor {
  type: AuditActorType;
  /** A `usr_`/`key_` id, or for an unknown login address the keyed digest `unknown_account` carries. */
  id: string | null;
}

/** One thing that happened, as the code that saw it describes it. */
export interface AuditEntry {
  action: AuditAction;
  /** Null only for a failed login with an address that has no account. */
  tenantId: string | null;
  /** Omitted (null) for tenant-wide actions: users, logins. */
  environment?: Environment | null;
  actor: AuditActor;
  /** The id is null for a target that is one per tenant and environment (the watchlist). */
  target?: { type: AuditTargetType; id: string | null } | null;
  details?: AuditDetails;
}

/** Where the request came from: its id (to find it in the logs) and the caller's network, never the host. */
export interface AuditOrigin {
  requestId: string | null;
  ipPrefix: string | null;
}

/** The origin of the request being handled. */
export function auditOriginOf(c: Context<AppEnv>, deps: Pick<AppDeps, 'clientAddress'>): AuditOrigin {
  const address = deps.clientAddress?.(c.req.raw, c.env);
  return {
    requestId: c.get('requestId') ?? null,
    ipPrefix: address ? networkPrefixOf(address) : null,
  };
}

/** The actor behind an authenticated request: the user for a console token, else the API key. */
export function actorOf(principal: Principal): AuditActor {
  return principal.user
    ? { type: 'user', id: principal.user.id }
    : { type: 'api_key', id: principal.credentialId };
}

/**
 * Appends one event to the audit log, in the caller's transaction when `sql` is one (so the event commits
 * with the change it records, or neither does).
 *
 * @example
 * await recordAuditEvent(tx, deps, auditOriginOf(c, deps), {
 *   action: 'user.disabled', tenantId, actor: actorOf(principal), target: { type: 'user', id: userId },
 * });
 */
export async function recordAuditEvent(
  sql: SqlClient,
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  origin: AuditOrigin,
  entry: AuditEntry,
): Promise<void> {
  await insertAuditEvent(sql, auditEventRow(deps, origin, entry));
}

/** Appends several events in one statement (one round trip whatever their number). */
export async function recordAuditEvents(
  sql: SqlClient,
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  origin: AuditOrigin,
  entries: readonly AuditEntry[],
): Promise<void> {
  await insertAuditEvents(
    sql,
    entries.map((entry) => auditEventRow(deps, origin, entry)),
  );
}

function auditEventRow(
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  origin: AuditOrigin,
  entry: AuditEntry,
): AuditEventRow {
  return {
    id: deps.ids('aud'),
    tenant_id: entry.tenantId,
    environment: entry.environment ?? null,
    action: entry.action,
    actor_type: entry.actor.type,
    actor_id: entry.actor.id,
    target_type: entry.target?.type ?? null,
    target_id: entry.target?.id ?? null,
    request_id: origin.requestId,
    ip_prefix: origin.ipPrefix,
    details: entry.details ?? {},
    created_at: deps.clock.now(),
  };
}
