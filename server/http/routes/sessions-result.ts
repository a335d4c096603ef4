import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { CHECK_STATUSES, CHECK_TYPES, type Check, DECISIONS } from '../../domain/review/index.ts';
import { SESSION_STATUSES } from '../../domain/session-status.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { retryAllowed } from '../../features/review/retry-allowed.ts';
import { readSession } from '../../features/sessions/transition-session.ts';
import { findLatestDecision } from '../../store/decisions.ts';
import { findSession } from '../../store/sessions.ts';
import { SessionIdParam } from './schemas/session-schemas.ts';

export const SessionResultSchema = z
  .object({
    object: z.literal('session_result'),
    session_id: z.string(),
    status: z.enum(SESSION_STATUSES),
    decision: z.enum(DECISIONS).nullable(),
    decided_at: z.string().nullable(),
    decided_by: z.enum(['automated', 'reviewer']).nullable(),
    identity_id: z.string().nullable(),
    retry_allowed: z.boolean().openapi({
      description:
        'Whether the end-user may try again: in this session while it waits for a recapture, otherwise with a new session.',
    }),
    reasons: z.array(
      z.object({
        code: z.string().openapi({ example: 'document_expired' }),
        message: z.string().openapi({ description: 'For the tenant.' }),
        user_message: z.string().openapi({ description: 'Safe to show the end-user.' }),
      }),
    ),
    checks: z.array(
      z.object({
        type: z.enum(CHECK_TYPES),
        status: z.enum(CHECK_STATUSES),
        reason_codes: z.array(z.string()),
        details: z.record(z.string(), z.unknown()).optional(),
      }),
    ),
  })
  .openapi('SessionResult');

/** A stored check as JSON: detail lists become plain arrays. */
function checkJson(check: Check) {
  const { details, ...rest } = check;
  if (details === undefined) return rest;
  return {
    ...rest,
    details: Object.fromEntries(
      Object.entries(details).map(([key, value]): [string, string | number | boolean | string[]] => [
        key,
        typeof value === 'object' ? [...value] : value,
      ]),
    ),
  };
}

export const getSessionResultRoute = createRoute({
  operationId: 'getSessionResult',
  method: 'get',
  path: '/v1/sessions/{id}/result',
  tags: ['Sessions'],
  summary: 'The decision of a session',
  description:
    'Always 200; `decision` is null until the session is decided. While a session waits for the end-user to capture a document again, `reasons` and `checks` explain why.',
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
      const latest = await findLatestDecision(deps.db, scope, row.id);
      const decision = row.decision as (typeof DECISIONS)[number] | null;
      // A resubmission request is shown only while the session waits for the recapture it asked for.
      const current =
        latest &&
        (latest.outcome === decision || (latest.outcome === 'resubmission_requested' && decision === null))
          ? latest
          : null;
      const awaitingResubmission =
        row.status === 'collecting' && current?.outcome === 'resubmission_requested';
      const reasons = current?.reasons ?? [];
      return c.json(
        {
          object: 'session_result' as const,
          session_id: row.id,
          status: row.status,
          decision,
          decided_at: row.decided_at?.toISOString() ?? null,
          decided_by: decision !== null && current ? current.decided_by : null,
          identity_id: row.identity_id,
          retry_allowed: retryAllowed(
            row.status,
            reasons.map((reason) => reason.code),
            awaitingResubmission,
          ),
          reasons,
          checks: (current?.checks ?? []).map(checkJson),
        },
        200,
      );
    },
  );
}
