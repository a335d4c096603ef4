import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { randomBase62 } from '../../crypto/primitives.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses, IdempotencyKeyHeader } from '../openapi-common.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
import type { RouteKit } from '../route-kit.ts';
import { hashVerifyToken, verifyUrlOf } from '../../features/sessions/verify-token.ts';
import { insertVerifyHandoff } from '../../store/verify-handoffs.ts';
import { verifyCaller } from '../verify-context.ts';
import { verifyError } from '../../features/verify/verify-errors.ts';
import { VERIFY_AUTH_ERRORS, VERIFY_IDEMPOTENCY_ERRORS, VERIFY_SECURITY, verifyKit } from '../verify-kit.ts';
import { withWritableSession } from '../../features/verify/writable-session.ts';

/** Long enough to scan a QR code and take the photos, short enough that a leaked screenshot soon dies. */
export const HANDOFF_LIFETIME_MS = 15 * 60 * 1000;
const HANDOFF_TOKEN_BITS = 160;

const HandoffSchema = z
  .object({
    object: z.literal('handoff'),
    handoff_url: z.string().openapi({ example: 'https://verify.example.com/verify/7sQ2…' }),
    expires_at: z.string(),
  })
  .openapi('VerifyHandoff');

export const verifyHandoffRoute = createRoute({
  operationId: 'createVerifyHandoff',
  method: 'post',
  path: '/v1/verify/handoff',
  tags: ['End-user'],
  summary: 'Create a link to continue on a phone',
  description:
    'A second, short-lived link (15 minutes, never beyond the session’s expiry) to the same session, for a QR code. Only the session’s own link may create one; refreshing the `verify_url` revokes it.',
  security: VERIFY_SECURITY,
  request: { headers: IdempotencyKeyHeader },
  responses: {
    201: { description: 'The handoff link', content: { 'application/json': { schema: HandoffSchema } } },
    ...errorResponses(
      ...VERIFY_AUTH_ERRORS,
      ...VERIFY_IDEMPOTENCY_ERRORS,
      'invalid_state_transition',
      'insufficient_capability',
    ),
  },
});

export function registerVerifyHandoff(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...verifyHandoffRoute, middleware: verifyKit(app, kit).auth }, async (c) => {
    const caller = verifyCaller(c);
    // A handoff that could mint handoffs would outlive its 15 minutes indefinitely.
    if (caller.via === 'handoff') {
      throw verifyError('insufficient_capability', 'Continue on this device; this link cannot be passed on.');
    }
    const token = randomBase62(HANDOFF_TOKEN_BITS);
    const now = deps.clock.now();
    const expiresAt = new Date(
      Math.min(now.getTime() + HANDOFF_LIFETIME_MS, caller.session.expires_at.getTime()),
    );
    const answer = {
      object: 'handoff' as const,
      handoff_url: verifyUrlOf(deps.config.verifyBaseUrl, token),
      expires_at: expiresAt.toISOString(),
    };
    await withWritableSession(deps, caller.session, {}, async (tx, locked) => {
      await insertVerifyHandoff(tx, {
        token_hash: await hashVerifyToken(token),
        tenant_id: locked.tenant_id,
        environment: locked.environment,
        session_id: locked.id,
        parent_token_hash: locked.verify_token_hash as string,
        expires_at: expiresAt,
        created_at: now,
      });
      // Stored with the handoff: a retry after a crash gets this link, not a second one.
      await answerInTransaction(c, tx, 201, answer);
    });
    return c.json(answer, 201);
  });
}
