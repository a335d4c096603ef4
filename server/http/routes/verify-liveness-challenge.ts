import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { randomBase62 } from '../../crypto/primitives.ts';
import {
  drawLivenessActions,
  LIVENESS_ACTIONS,
  LIVENESS_CHALLENGE_LIFETIME_MS,
} from '../../domain/liveness-challenge.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses, IdempotencyKeyHeader } from '../openapi-common.ts';
import { answerInTransaction } from '../idempotent-replay.ts';
import type { RouteKit } from '../route-kit.ts';
import { insertLivenessChallenge } from '../../store/liveness-challenges.ts';
import { stepOf } from '../../features/verify/step-progress.ts';
import { verifyCaller } from '../verify-context.ts';
import { verifyError } from '../../features/verify/verify-errors.ts';
import { VERIFY_AUTH_ERRORS, VERIFY_IDEMPOTENCY_ERRORS, VERIFY_SECURITY, verifyKit } from '../verify-kit.ts';
import { withWritableSession } from '../../features/verify/writable-session.ts';

const ChallengeSchema = z
  .object({
    object: z.literal('liveness_challenge'),
    challenge_id: z.string().openapi({ description: 'The nonce the frames must answer, once.' }),
    actions: z.array(z.enum(LIVENESS_ACTIONS)).openapi({ example: ['turn_left', 'smile', 'look_up'] }),
    expires_at: z.string(),
  })
  .openapi('LivenessChallenge');

export const livenessChallengeRoute = createRoute({
  operationId: 'createLivenessChallenge',
  method: 'post',
  path: '/v1/verify/liveness/challenge',
  tags: ['End-user'],
  summary: 'Start a liveness attempt',
  description:
    'A random sequence of 3 distinct actions bound to a nonce (`challenge_id`) that expires after 2 minutes. Send one frame per action, in order, to `POST /v1/verify/liveness`.',
  security: VERIFY_SECURITY,
  request: { headers: IdempotencyKeyHeader },
  responses: {
    201: { description: 'The challenge', content: { 'application/json': { schema: ChallengeSchema } } },
    ...errorResponses(
      ...VERIFY_AUTH_ERRORS,
      ...VERIFY_IDEMPOTENCY_ERRORS,
      'invalid_parameter',
      'steps_incomplete',
      'invalid_state_transition',
    ),
  },
});

export function registerLivenessChallenge(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...livenessChallengeRoute, middleware: verifyKit(app, kit).auth }, async (c) => {
    const caller = verifyCaller(c);
    const challenge = await withWritableSession(
      deps,
      caller.session,
      { needs: ['consent'] },
      async (tx, locked) => {
        const liveness = stepOf(locked.steps, 'liveness');
        if (!liveness)
          throw verifyError('invalid_parameter', 'This verification does not include a selfie check.');
        if (liveness.status === 'completed') {
          throw verifyError('invalid_state_transition', 'The selfie check is already done.');
        }
        const now = deps.clock.now();
        const row = {
          id: `lvc_${randomBase62(128)}`,
          tenant_id: locked.tenant_id,
          environment: locked.environment,
          session_id: locked.id,
          actions: drawLivenessActions(),
          expires_at: new Date(now.getTime() + LIVENESS_CHALLENGE_LIFETIME_MS),
          created_at: now,
        };
        await insertLivenessChallenge(tx, row);
        const answer = {
          object: 'liveness_challenge' as const,
          challenge_id: row.id,
          actions: row.actions,
          expires_at: row.expires_at.toISOString(),
        };
        // Stored with the challenge: a retry after a crash gets this challenge, not a second one.
        await answerInTransaction(c, tx, 201, answer);
        return answer;
      },
    );
    return c.json(challenge, 201);
  });
}
