import type { AuditEventRow } from '../../store/audit-events.ts';

/**
 * The API shape of an audit event.
 *
 * @example
 * toAuditEventObject(row) // { object: 'audit_event', action: 'user.disabled', actor: { type: 'user', id: 'usr_…' }, … }
 */
export function toAuditEventObject(row: AuditEventRow) {
  return {
    object: 'audit_event' as const,
    audit_event_id: row.id,
    action: row.action,
    actor: { type: row.actor_type, id: row.actor_id },
    target: row.target_type ? { type: row.target_type, id: row.target_id } : null,
    environment: row.environment,
    request_id: row.request_id,
    ip_prefix: row.ip_prefix,
    details: row.details,
    created_at: row.created_at.toISOString(),
  };
}
