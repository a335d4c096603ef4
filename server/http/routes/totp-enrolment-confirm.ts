import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { actorOf, auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import {
  assertMayChangeSecondFactors,
  loginAfterEnrolment,
  recoveryCodesForNewFactor,
} from '../../features/second-factors/enrolment.ts';
import { secondFactorCipherContext } from '../../features/second-factors/second-factor-cipher-context.ts';
import {
  MAX_FAILURES_PER_CHALLENGE,
  refuseIfSecondFactorThrottled,
} from '../../features/second-factors/second-factor-throttle.ts';
import { matchTotpStep } from '../../features/second-factors/totp.ts';
import { ApiError } from '../../errors/api-error.ts';
import {
  consumeChallenge,
  countChallengeFailure,
  findOpenChallenge,
  saveConfirmedTotp,
} from '../../store/second-factors.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { EnrolmentResult } from './schemas/second-factor-schemas.ts';

const ConfirmTotpBody = z
  .strictObject({
    enrolment_id: z.string().max(64),
    code: z.string().max(16).openapi({ description: 'The 6-digit code the app shows now.' }),
  })
  .openapi('ConfirmTotpRequest');

const TotpEnrolled = z
  .object({ object: z.literal('totp_enrolled'), ...EnrolmentResult })
  .openapi('TotpEnrolled');

export const confirmTotpEnrolmentRoute = createRoute({
  operationId: 'confirmTotpEnrolment',
  method: 'post',
  path: '/v1/me/second-factors/totp/confirm',
  tags: ['Console'],
  summary: 'Confirm an authenticator app with its first code',
  description:
    'Puts the enrolment in force (replacing an earlier authenticator). The code used here cannot be used again to log in. Returns ten recovery codes, shown once, when the user has none left. Reachable with a token restricted to enrolment. A token that proved no second factor (password only, or restricted to enrolment) is revoked and one carrying the new factor returned in `login`. Once you have a second factor, changing them needs a session that proved one (403 `second_factor_required` for a password-only token).',
  security: [{ ConsoleBearer: [] }],
  request: { body: { required: true, content: { 'application/json': { schema: ConfirmTotpBody } } } },
  responses: {
    200: { description: 'Enrolled', content: { 'application/json': { schema: TotpEnrolled } } },
    ...errorResponses(
      'authentication_required',
      'invalid_token',
      'token_expired',
      'user_disabled',
      'tenant_suspended',
      'second_factor_required',
      'invalid_second_factor',
      'login_challenge_expired',
      'too_many_attempts',
      'invalid_json',
      'invalid_parameter',
    ),
  },
});

export function registerConfirmTotpEnrolment(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    {
      ...confirmTotpEnrolmentRoute,
      middleware: kit.tenant({ consoleOnly: true, secondFactorEnrolment: true, body: 'json' }),
    },
    async (c) => {
      const principal = c.get('principal');
      const userId = (principal.user as NonNullable<typeof principal.user>).id;
      const body = c.req.valid('json');
      const now = deps.clock.now();
      const enrolment = await findOpenChallenge(deps.db, userId, body.enrolment_id, 'totp_enrolment', now);
      if (!enrolment?.secret_enc) {
        throw new ApiError('login_challenge_expired', 'This enrolment has expired; start again.');
      }
      await refuseIfSecondFactorThrottled(deps.db, userId, now);
      const secret = await deps.cipher.decrypt(
        enrolment.secret_enc,
        secondFactorCipherContext.pendingTotpSecret(enrolment.id),
      );
      const step = await matchTotpStep(secret, body.code.trim(), now);
      if (step === null) {
        await countChallengeFailure(deps.db, enrolment.id);
        if (enrolment.failed_attempts + 1 >= MAX_FAILURES_PER_CHALLENGE) {
          await consumeChallenge(deps.db, enrolment.id, now);
        }
        throw new ApiError('invalid_second_factor', 'The code is incorrect; check the time on your phone.');
      }
      const recoveryCodes = await deps.db.transaction(async (tx) => {
        await assertMayChangeSecondFactors(tx, principal);
        if (!(await consumeChallenge(tx, enrolment.id, now))) {
          throw new ApiError('login_challenge_expired', 'This enrolment was already confirmed.');
        }
        const secretEnc = await deps.cipher.encrypt(secret, secondFactorCipherContext.totpSecret(userId));
        await saveConfirmedTotp(tx, userId, secretEnc, step, now);
        const codes = await recoveryCodesForNewFactor(tx, deps, userId, now);
        const origin = auditOriginOf(c, deps);
        const entry = {
          tenantId: principal.tenantId,
          actor: actorOf(principal),
          target: { type: 'user' as const, id: userId },
        };
        await recordAuditEvent(tx, deps, origin, { ...entry, action: 'user.totp_enrolled' });
        if (codes)
          await recordAuditEvent(tx, deps, origin, { ...entry, action: 'user.recovery_codes_issued' });
        return codes;
      });
      const login = await loginAfterEnrolment(deps, kit.auth.tokenSettings, principal, 'otp', now);
      return c.json({ object: 'totp_enrolled' as const, recovery_codes: recoveryCodes, login }, 200);
    },
  );
}
