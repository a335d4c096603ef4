import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader, TENANT_SECURITY } from '../openapi-common.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
import type { RouteKit } from '../route-kit.ts';
import {
  DEFAULT_REVERIFICATION_EXPIRES_IN_SECONDS,
  openReverification,
} from '../../features/reverification/open-reverification.ts';
import { toReverificationObject } from '../../features/reverification/reverification-object.ts';
import {
  CreateReverificationBody,
  IdentityIdPathParam,
  ReverificationSchema,
} from './reverification-schemas.ts';

export const createReverificationRoute = createRoute({
  operationId: 'createReverificationRequest',
  method: 'post',
  path: '/v1/identities/{identity_id}/reverification-requests',
  tags: ['Identities'],
  summary: 'Ask for an identity to be verified again',
  description:
    'Creates a session linked to the identity; send the end-user to its `verify_url`. One open request per identity. Approval refreshes the identity; rejection marks it `reverification_failed`; `reverification.completed` reports the end.',
  security: TENANT_SECURITY,
  request: {
    params: IdentityIdPathParam,
    headers: IdempotencyKeyHeader,
    body: { required: true, content: { 'application/json': { schema: CreateReverificationBody } } },
  },
  responses: {
    201: {
      description: 'The new request',
      content: { 'application/json': { schema: ReverificationSchema } },
    },
    ...errorResponses(
      ...AUTH_ERRORS,
      'invalid_json',
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'resource_missing',
      'reverification_already_pending',
      'invalid_state_transition',
      'biometric_reference_missing',
      'idempotency_key_reused',
      'idempotency_request_in_progress',
    ),
  },
});

export function registerCreateReverification(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    {
      ...createReverificationRoute,
      middleware: kit.tenant({ capability: 'reverifications:create', body: 'json' }),
    },
    async (c) => {
      const { identity_id: identityId } = c.req.valid('param');
      const body = c.req.valid('json');
      const principal = c.get('principal');
      if (
        body.redirect_url &&
        principal.environment === 'production' &&
        new URL(body.redirect_url).protocol !== 'https:'
      ) {
        throw new ApiError('invalid_parameter', '`redirect_url` must use https in production.', {
          param: 'redirect_url',
        });
      }
      // The answer is stored with the new session: a retry after a crash replays it, never opens another.
      let answer: Awaited<ReturnType<typeof toReverificationObject>> | undefined;
      const { request, session } = await openReverification(
        deps,
        principal,
        identityId,
        {
          reason: body.reason,
          reasonCode: body.reason_code ?? 'other',
          mode: body.mode ?? 'full',
          redirectUrl: body.redirect_url ?? null,
          expiresInSeconds: body.expires_in ?? DEFAULT_REVERIFICATION_EXPIRES_IN_SECONDS,
        },
        async (tx, opened) => {
          answer = await toReverificationObject(deps, opened.request, opened.session);
          await answerInTransaction(c, tx, 201, answer);
        },
      );
      return c.json(answer ?? (await toReverificationObject(deps, request, session)), 201);
    },
  );
}
