import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../http/openapi-common.ts';
import type { RouteKit } from '../http/route-kit.ts';
import { readSession } from '../sessions/transition-session.ts';
import { findSession } from '../store/sessions.ts';
import { SessionIdParam } from './schemas/session-schemas.ts';
import { SESSION_STATUSES, isTerminal } from '../domain/session-status.ts';

export const SessionResultSchema = z
  .object({
    object: z.literal('session_result'),
    session_id: z.string(),
    status: z.enum(SESSION_STATUSES),
    decision: z.enum(['approved', 'rejected', 'review_required']).nullable(),
    decided_at: z.string().nullable(),
    decided_by: z.enum(['automated', 'reviewer']).nullable(),
    identity_id: z.string().nullable(),
    retry_allowed: z.boolean(),
    reasons: z.array(z.object({ code: z.string(), message: z.string(), user_message: z.string() })),
    checks: z.array(
      z.object({
        type: z.string(),
        status: z.enum(['passed', 'failed', 'inconclusive', 'not_performed']),
        reason_codes: z.array(z.string()),
        details: z.record(z.string(), z.unknown()).optional(),
      }),
    ),
  })
  .openapi('SessionResult');

export const getSessionResultRoute = createRoute({
  operationId: 'getSessionResult',
  method: 'get',
  path: '/v1/sessions/{id}/result',
  tags: ['Sessions'],
  summary: 'The decision of a session',
  description: 'Always 200; `decision` is null until the session is decided.',
  security: TENANT_SECURITY,
  request: { params: SessionIdParam },
  responses: {
    200: { description: 'The result', content: { 'application/json': { schema: SessionResultSchema } } },
    ...errorResponses(...AUTH_ERRORS, 'resource_missing'),
  },
});

export function registerGetSessionResult(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    { ...getSessionResultRoute, middleware: kit.tenant({ capability: 'sessions:read' }) },
    async (c) => {
      const { id } = c.req.valid('param');
      const scope = c.get('principal');
      const row = await readSession(deps.db, deps, scope, id, await findSession(deps.db, scope, id));
      const decision = row.decision as 'approved' | 'rejected' | 'review_required' | null;
      return c.json(
        {
          object: 'session_result' as const,
          session_id: row.id,
          status: row.status,
          decision,
          decided_at: row.decided_at?.toISOString() ?? null,
          decided_by: null,
          identity_id: row.identity_id,
          // A tenant may start a new session for this user unless one is still running.
          retry_allowed: isTerminal(row.status) && row.status !== 'approved',
          reasons: [],
          checks: [],
        },
        200,
      );
    },
  );
}
