import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../features/audit/audit-actions.ts';
import { toAuditEventObject } from '../../features/audit/audit-event-object.ts';
import { ENVIRONMENTS } from '../../domain/api-key-format.ts';
import type { AppEnv } from '../app-env.ts';
import { listPageOf } from '../list-page.ts';
import { AUTH_ERRORS, errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { findAuditEvent, listAuditEvents } from '../../store/audit-events.ts';
import { IsoDateTime, PaginationQuery, repeatable } from './schemas/list-query.ts';
import { listOf } from './schemas/session-schemas.ts';

const AuditEventSchema = z
  .object({
    object: z.literal('audit_event'),
    audit_event_id: z.string(),
    action: z.enum(AUDIT_ACTIONS),
    actor: z.object({
      type: z.enum(['user', 'api_key', 'unknown_account']),
      id: z.string().nullable().openapi({ description: 'A user id (`usr_…`) or an API key id (`key_…`).' }),
    }),
    target: z
      .object({
        type: z.enum(AUDIT_TARGET_TYPES),
        id: z.string().nullable().openapi({ description: 'Null for the watchlist (one per environment).' }),
      })
      .nullable(),
    environment: z
      .enum(ENVIRONMENTS)
      .nullable()
      .openapi({ description: 'Null for tenant-wide actions: logins, users, tenant settings.' }),
    request_id: z
      .string()
      .nullable()
      .openapi({ description: 'The `x-request-id` of the request that did it.' }),
    ip_prefix: z.string().nullable().openapi({
      description:
        'The caller’s network, never the address: IPv4 truncated to /24, IPv6 to /48 (e.g. `203.0.113.0/24`).',
    }),
    details: z.record(z.string(), z.unknown()).openapi({
      description:
        'Codes, counts, flags and changed field names, e.g. `{"previous_role":"viewer","role":"reviewer"}`; never a personal value or a secret.',
    }),
    created_at: z.string(),
  })
  .openapi('AuditEvent');

const ListAuditEventsQuery = PaginationQuery.extend({
  action: repeatable(z.enum(AUDIT_ACTIONS)).optional().openapi({ description: 'Repeatable.' }),
  actor_id: z.string().max(64).optional().openapi({ description: 'A user id or API key id.' }),
  target_type: z.enum(AUDIT_TARGET_TYPES).optional(),
  target_id: z.string().max(64).optional(),
  session_id: z.string().max(64).optional().openapi({
    description:
      'Events about one session (reviews, claims, evidence and personal data opened): `target_type=session&target_id=…` in short.',
  }),
  environment: z.enum(ENVIRONMENTS).optional(),
  created_gte: IsoDateTime.optional(),
  created_lte: IsoDateTime.optional(),
}).strict();

export const listAuditEventsRoute = createRoute({
  operationId: 'listAuditEvents',
  method: 'get',
  path: '/v1/audit-events',
  tags: ['Audit'],
  summary: 'The audit log, newest first',
  description:
    'Who did what in the tenant: logins (failed ones too), logouts, manual reviews, claims, assignments and exports of the review queue, who opened whose evidence, API keys, webhooks, users, tenant settings and the watchlist. Both environments unless `environment` is given. Append-only; events are kept at least a year. Needs `audit:read`.',
  security: [{ ConsoleBearer: [] }],
  request: { query: ListAuditEventsQuery },
  responses: {
    200: {
      description: 'A page of audit events',
      content: { 'application/json': { schema: listOf(AuditEventSchema, 'AuditEventList') } },
    },
    ...errorResponses(...AUTH_ERRORS, 'invalid_parameter', 'unknown_parameter', 'invalid_cursor'),
  },
});

export function registerListAuditEvents(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...listAuditEventsRoute, middleware: kit.tenant({ capability: 'audit:read' }) },
    async (c) => {
      const query = c.req.valid('query');
      const { tenantId } = c.get('principal');
      if (query.session_id && (query.target_type ?? 'session') !== 'session') {
        throw new ApiError('invalid_parameter', '`session_id` names a session target; drop `target_type`.', {
          param: 'session_id',
        });
      }
      if (query.session_id && query.target_id && query.target_id !== query.session_id) {
        throw new ApiError('invalid_parameter', 'Send `session_id` or `target_id`, not two different ids.', {
          param: 'session_id',
        });
      }
      const page = await listPageOf(query, 'audit event', (id) => findAuditEvent(deps.db, tenantId, id));
      const { rows, hasMore } = await listAuditEvents(
        deps.db,
        tenantId,
        {
          actions: query.action,
          actorId: query.actor_id,
          targetType: query.session_id ? 'session' : query.target_type,
          targetId: query.session_id ?? query.target_id,
          environment: query.environment,
          createdGte: query.created_gte,
          createdLte: query.created_lte,
        },
        page,
      );
      return c.json({ object: 'list' as const, data: rows.map(toAuditEventObject), has_more: hasMore }, 200);
    },
  );
}
