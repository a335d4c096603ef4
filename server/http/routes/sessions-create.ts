import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { initialStepProgress, requiredSteps } from '../../domain/session-steps.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { AppEnv } from '../app-env.ts';
import { attemptsPerStepForNewSession } from '../attempts-per-step-cache.ts';
import { AUTH_ERRORS, errorResponses, IdempotencyKeyHeader, TENANT_SECURITY } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { sessionEventRow } from '../../features/sessions/session-events.ts';
import { sessionCipherContext, toSessionObject } from '../../features/sessions/session-object.ts';
import { issueVerifyToken } from '../../features/sessions/verify-token.ts';
import { insertSessionWithEvent, type NewSession, newSessionRow } from '../../store/sessions.ts';
import { CreateSessionBody, SessionSchema } from './schemas/session-schemas.ts';

const DEFAULT_EXPIRES_IN_SECONDS = 86_400;

export const createSessionRoute = createRoute({
  operationId: 'createSession',
  method: 'post',
  path: '/v1/sessions',
  tags: ['Sessions'],
  summary: 'Create a verification session',
  description: 'Server-side only. Returns the `verify_url` to send the end-user to.',
  security: TENANT_SECURITY,
  request: {
    headers: IdempotencyKeyHeader,
    body: { required: true, content: { 'application/json': { schema: CreateSessionBody } } },
  },
  responses: {
    201: { description: 'The new session', content: { 'application/json': { schema: SessionSchema } } },
    ...errorResponses(
      ...AUTH_ERRORS,
      'invalid_json',
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'sandbox_parameter_in_production',
      'unsupported_media_type',
      'payload_too_large',
      'idempotency_key_reused',
      'idempotency_request_in_progress',
    ),
  },
});

export function registerCreateSession(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    {
      ...createSessionRoute,
      middleware: kit.tenant({
        capability: 'sessions:create',
        body: 'json',
        claimIdempotencyKeyWithEffect: true,
      }),
    },
    async (c) => {
      const body = c.req.valid('json');
      const principal = c.get('principal');
      const production = principal.environment === 'production';
      if (body.sandbox && production) {
        throw new ApiError(
          'sandbox_parameter_in_production',
          '`sandbox` is accepted with sandbox credentials only.',
          {
            param: 'sandbox',
          },
        );
      }
      if (body.redirect_url && production && new URL(body.redirect_url).protocol !== 'https:') {
        throw new ApiError('invalid_parameter', '`redirect_url` must use https in production.', {
          param: 'redirect_url',
        });
      }
      const id = deps.ids('sess');
      const now = deps.clock.now();
      const steps = requiredSteps(body.flow, body.tier);
      const token = await issueVerifyToken(deps.cipher, id);
      const reference = body.external_user_reference;
      const session: NewSession = {
        id,
        tenant_id: principal.tenantId,
        environment: principal.environment,
        country: body.country,
        flow: body.flow,
        tier: body.tier,
        external_user_ref_enc: reference
          ? await deps.cipher.encrypt(reference, sessionCipherContext.externalUserReference(id))
          : null,
        external_user_ref_index: reference
          ? await deps.cipher.blindIndex(reference, 'external_user_reference')
          : null,
        redirect_url: body.redirect_url ?? null,
        metadata_enc: body.metadata
          ? await deps.cipher.encryptJson(body.metadata, sessionCipherContext.metadata(id))
          : null,
        required_steps: steps,
        steps: initialStepProgress(steps, await attemptsPerStepForNewSession(deps, principal.tenantId)),
        verify_token_hash: token.hash,
        verify_token_nonce: token.nonce,
        sandbox: body.sandbox ?? null,
        expires_at: new Date(now.getTime() + (body.expires_in ?? DEFAULT_EXPIRES_IN_SECONDS) * 1000),
        created_at: now,
      };
      const event = sessionEventRow(deps, 'session.created', newSessionRow(session));
      // The token and the personal fields are in hand: no second derivation, no decrypting what was just
      // encrypted. The answer is known before the insert, so an Idempotency-Key's answer commits with it.
      const known = {
        verifyToken: token.token,
        externalUserReference: reference ?? null,
        metadata: body.metadata ?? null,
      };
      const answer = await toSessionObject(deps, newSessionRow(session), known);
      const idempotent = c.get('idempotentAnswer');
      const sealed = await idempotent?.seal(201, answer);
      // The Idempotency-Key is claimed in this same statement: taken by another attempt, nothing happened.
      if (!(await insertSessionWithEvent(deps.db, session, event, sealed))) idempotent?.keyTaken();
      return c.json(answer, 201);
    },
  );
}
