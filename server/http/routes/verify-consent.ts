import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { evidenceCipherContext } from '../../features/evidence/evidence-keys.ts';
import { SESSION_STATUSES } from '../../domain/session-status.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses, IdempotencyKeyHeader } from '../openapi-common.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
import type { SqlClient } from '../../store/sql-client.ts';
import type { SessionRow } from '../../store/sessions.ts';
import type { RouteKit } from '../route-kit.ts';
import { transitionSession } from '../../features/sessions/transition-session.ts';
import { upsertVerifyConsent } from '../../store/verify-consents.ts';
import { verifyCaller } from '../verify-context.ts';
import { VERIFY_AUTH_ERRORS, VERIFY_IDEMPOTENCY_ERRORS, VERIFY_SECURITY, verifyKit } from '../verify-kit.ts';
import { recordStepOutcome, withWritableSession } from '../../features/verify/writable-session.ts';

/** A user agent is kept as evidence of the consent, bounded so a crafted header cannot bloat the row. */
const MAX_USER_AGENT_LENGTH = 512;

const ConsentBody = z
  .strictObject({
    accepted: z.boolean(),
    consent_version: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[\w.:-]+$/, 'letters, digits, `.`, `:`, `_` and `-` only')
      .openapi({ example: '2025-01' }),
    locale: z
      .string()
      .max(35)
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'a BCP 47 language tag such as `de-CH`')
      .optional(),
  })
  .openapi('VerifyConsentRequest');

const ConsentSchema = z
  .object({
    object: z.literal('consent'),
    accepted: z.boolean(),
    consent_version: z.string(),
    recorded_at: z.string(),
    session_status: z.enum(SESSION_STATUSES),
  })
  .openapi('VerifyConsent');

export const verifyConsentRoute = createRoute({
  operationId: 'recordVerifyConsent',
  method: 'post',
  path: '/v1/verify/consent',
  tags: ['End-user'],
  summary: 'Record the end-user’s consent',
  description:
    'Records the answer with its time, IP address and user agent (both encrypted at rest). `accepted: false` cancels the session.',
  security: VERIFY_SECURITY,
  request: {
    headers: IdempotencyKeyHeader,
    body: { required: true, content: { 'application/json': { schema: ConsentBody } } },
  },
  responses: {
    200: { description: 'The recorded consent', content: { 'application/json': { schema: ConsentSchema } } },
    ...errorResponses(
      ...VERIFY_AUTH_ERRORS,
      ...VERIFY_IDEMPOTENCY_ERRORS,
      'invalid_json',
      'invalid_parameter',
      'missing_parameter',
      'unknown_parameter',
      'unsupported_media_type',
      'invalid_state_transition',
    ),
  },
});

export function registerVerifyConsent(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...verifyConsentRoute, middleware: verifyKit(app, kit).json }, async (c) => {
    const body = c.req.valid('json');
    const caller = verifyCaller(c);
    const now = deps.clock.now();
    const ip = deps.clientAddress?.(c.req.raw, c.env) ?? null;
    const userAgent = c.req.header('user-agent')?.slice(0, MAX_USER_AGENT_LENGTH) ?? null;
    const answerOf = (session: SessionRow) => ({
      object: 'consent' as const,
      accepted: body.accepted,
      consent_version: body.consent_version,
      recorded_at: now.toISOString(),
      session_status: session.status,
    });
    // The answer is stored with the consent: a retry after a crash (a refusal cancelled the session)
    // replays it rather than finding the session closed.
    const sealed = async (tx: SqlClient, session: SessionRow) => {
      await answerInTransaction(c, tx, 200, answerOf(session));
      return session;
    };
    const session = await withWritableSession(deps, caller.session, {}, async (tx, locked) => {
      await upsertVerifyConsent(tx, {
        session_id: locked.id,
        tenant_id: locked.tenant_id,
        environment: locked.environment,
        accepted: body.accepted,
        consent_version: body.consent_version,
        locale: body.locale ?? null,
        ip_enc:
          ip === null ? null : await deps.cipher.encrypt(ip, evidenceCipherContext.consentIp(locked.id)),
        user_agent_enc:
          userAgent === null
            ? null
            : await deps.cipher.encrypt(userAgent, evidenceCipherContext.consentUserAgent(locked.id)),
        recorded_at: now,
      });
      if (!body.accepted) {
        return sealed(
          tx,
          await transitionSession(tx, deps, locked, 'cancelled', 'cancelled', {
            last_error: { code: 'consent_refused', reason: 'The end-user refused consent.' },
          }),
        );
      }
      return sealed(tx, await recordStepOutcome(tx, deps, locked, 'consent', 'completed'));
    });
    return c.json(answerOf(session), 200);
  });
}
