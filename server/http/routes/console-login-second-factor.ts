import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { AuthenticationMethod } from '../../features/auth/access-tokens.ts';
import { consoleLoginAnswer } from '../../features/auth/console-login-answer.ts';
import { auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import {
  checkPasskeyAssertion,
  checkRecoveryCode,
  checkTotpCode,
  type SecondFactorCheck,
} from '../../features/second-factors/check-second-factor.ts';
import {
  MAX_FAILURES_PER_CHALLENGE,
  refuseIfSecondFactorThrottled,
} from '../../features/second-factors/second-factor-throttle.ts';
import { sha256Hex } from '../../crypto/primitives.ts';
import { ApiError } from '../../errors/api-error.ts';
import {
  consumeChallenge,
  countChallengeFailure,
  findChallengeUser,
  findOpenLoginChallenge,
} from '../../store/second-factors.ts';
import type { AppEnv } from '../app-env.ts';
import { jsonBody } from '../json-body.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { ConsoleLoginTokens, WebAuthnJson } from './schemas/second-factor-schemas.ts';

const SecondFactorLoginBody = z
  .strictObject({
    challenge_token: z.string().min(1).max(128),
    totp_code: z
      .string()
      .max(16)
      .optional()
      .openapi({ description: 'The 6-digit code of the authenticator app.' }),
    recovery_code: z
      .string()
      .max(32)
      .optional()
      .openapi({ description: 'One of the recovery codes; works once.' }),
    passkey: WebAuthnJson.optional().openapi({
      description: 'The assertion (`PublicKeyCredential.toJSON()`) of `navigator.credentials.get()`.',
    }),
  })
  .refine(
    (body) =>
      [body.totp_code, body.recovery_code, body.passkey].filter((value) => value !== undefined).length === 1,
    { message: 'send exactly one of totp_code, recovery_code and passkey' },
  )
  .openapi('SecondFactorLoginRequest');

export const consoleLoginSecondFactorRoute = createRoute({
  operationId: 'consoleLoginSecondFactor',
  method: 'post',
  path: '/v1/console/login/second-factor',
  tags: ['Console'],
  summary: 'Complete a login with a second factor',
  security: [],
  description: `The second step of a login whose password step answered \`second_factor_required\`. Send the challenge token with exactly one of a TOTP code (accepted for the current 30 s step or one either side, and each code once: a replayed code is refused), a recovery code (single use) or a passkey assertion over the challenge's \`passkey_options\`. ${MAX_FAILURES_PER_CHALLENGE} wrong answers close the challenge (410 \`login_challenge_expired\`: give the password again); 10 per user in 15 minutes give 429 \`too_many_attempts\` with \`retry-after\`.`,
  request: { body: { required: true, content: { 'application/json': { schema: SecondFactorLoginBody } } } },
  responses: {
    200: { description: 'Logged in', content: { 'application/json': { schema: ConsoleLoginTokens } } },
    ...errorResponses(
      'invalid_second_factor',
      'login_challenge_expired',
      'too_many_attempts',
      'user_disabled',
      'tenant_suspended',
      'invalid_json',
      'invalid_parameter',
    ),
  },
});

/** The `amr` value of each method (RFC 8176): a code is `otp`, a passkey is a hardware-bound key, `hwk`. */
const METHOD_AMR: Record<'totp' | 'recovery_code' | 'passkey', AuthenticationMethod> = {
  totp: 'otp',
  recovery_code: 'otp',
  passkey: 'hwk',
};

export function registerConsoleLoginSecondFactor(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi({ ...consoleLoginSecondFactorRoute, middleware: [jsonBody()] }, async (c) => {
    const body = c.req.valid('json');
    const now = deps.clock.now();
    const challenge = await findOpenLoginChallenge(deps.db, await sha256Hex(body.challenge_token), now);
    if (!challenge) {
      throw new ApiError(
        'login_challenge_expired',
        'This login step has expired or was already used; enter your password again.',
      );
    }
    const userId = challenge.user_id;
    await refuseIfSecondFactorThrottled(deps.db, userId, now);
    const method =
      body.totp_code !== undefined ? 'totp' : body.recovery_code !== undefined ? 'recovery_code' : 'passkey';
    let check: SecondFactorCheck;
    if (method === 'totp') check = await checkTotpCode(deps, userId, body.totp_code as string, now);
    else if (method === 'recovery_code')
      check = await checkRecoveryCode(deps, userId, body.recovery_code as string, now);
    else if (!challenge.webauthn_challenge) check = 'wrong';
    else
      check = await checkPasskeyAssertion(
        deps,
        userId,
        challenge.webauthn_challenge,
        body.passkey as unknown as AuthenticationResponseJSON,
        now,
      );
    const user = await findChallengeUser(deps.db, userId);
    if (check !== 'accepted' || !user) {
      await countChallengeFailure(deps.db, challenge.id);
      if (challenge.failed_attempts + 1 >= MAX_FAILURES_PER_CHALLENGE)
        await consumeChallenge(deps.db, challenge.id, now);
      if (user) {
        await recordAuditEvent(deps.db, deps, auditOriginOf(c, deps), {
          action: 'console.second_factor_failed',
          tenantId: user.tenant_id,
          actor: { type: 'user', id: user.id },
          target: { type: 'user', id: user.id },
          details: { method, reason: check },
        });
      }
      throw new ApiError(
        'invalid_second_factor',
        check === 'replayed'
          ? 'This code was already used; wait for the next one.'
          : method === 'passkey'
            ? 'The passkey could not be verified.'
            : 'The code is incorrect.',
      );
    }
    if (!(await consumeChallenge(deps.db, challenge.id, now))) {
      throw new ApiError(
        'login_challenge_expired',
        'This login step was already used; enter your password again.',
      );
    }
    if (user.status !== 'active') throw new ApiError('user_disabled', 'This user is disabled.');
    if (user.tenant_status !== 'active') throw new ApiError('tenant_suspended', 'The tenant is suspended.');
    const answer = await consoleLoginAnswer(deps, kit.auth.tokenSettings, user, now, {
      amr: ['pwd', METHOD_AMR[method]],
      enrolmentOnly: false,
    });
    await recordAuditEvent(deps.db, deps, auditOriginOf(c, deps), {
      action: 'console.login',
      tenantId: user.tenant_id,
      actor: { type: 'user', id: user.id },
      target: { type: 'user', id: user.id },
      details: { second_factor: method },
    });
    return c.json(answer, 200);
  });
}
