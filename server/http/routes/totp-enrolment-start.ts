import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { assertMayChangeSecondFactors } from '../../features/second-factors/enrolment.ts';
import { secondFactorCipherContext } from '../../features/second-factors/second-factor-cipher-context.ts';
import { generateTotpSecret, otpauthUri } from '../../features/second-factors/totp.ts';
import { insertChallenge } from '../../store/second-factors.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';

/** Time to scan the code and type a first one. */
const ENROLMENT_TTL_SECONDS = 600;
/** How authenticator apps list the account: this product, then the user's e-mail. */
const TOTP_ISSUER = 'id-verify';

const TotpEnrolment = z
  .object({
    object: z.literal('totp_enrolment'),
    enrolment_id: z.string(),
    secret: z.string().openapi({ description: 'Base32, for typing into an app that cannot scan.' }),
    otpauth_uri: z.string().openapi({ description: 'The `otpauth://totp/…` URI to show as a QR code.' }),
    expires_in: z.number().int(),
  })
  .openapi('TotpEnrolment');

export const startTotpEnrolmentRoute = createRoute({
  operationId: 'startTotpEnrolment',
  method: 'post',
  path: '/v1/me/second-factors/totp',
  tags: ['Console'],
  summary: 'Start enrolling an authenticator app',
  description: `Generates a TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s) on the server. It is not in force until confirmed with a first code at \`POST /v1/me/second-factors/totp/confirm\` within ${ENROLMENT_TTL_SECONDS / 60} minutes; confirming replaces an earlier authenticator. Reachable with a token restricted to enrolment. Once you have a second factor, changing them needs a session that proved one (403 \`second_factor_required\` for a password-only token).`,
  security: [{ ConsoleBearer: [] }],
  responses: {
    201: { description: 'The secret to enrol', content: { 'application/json': { schema: TotpEnrolment } } },
    ...errorResponses(
      'authentication_required',
      'invalid_token',
      'token_expired',
      'user_disabled',
      'tenant_suspended',
      'second_factor_required',
    ),
  },
});

export function registerStartTotpEnrolment(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    {
      ...startTotpEnrolmentRoute,
      middleware: kit.tenant({ consoleOnly: true, secondFactorEnrolment: true, body: 'optional' }),
    },
    async (c) => {
      const principal = c.get('principal');
      const user = principal.user as NonNullable<typeof principal.user>;
      await assertMayChangeSecondFactors(deps.db, principal);
      const now = deps.clock.now();
      const id = deps.ids('sfc');
      const secret = generateTotpSecret();
      // The pending secret waits encrypted with its challenge until a first code confirms it.
      await insertChallenge(deps.db, {
        id,
        user_id: user.id,
        purpose: 'totp_enrolment',
        token_digest: null,
        webauthn_challenge: null,
        secret_enc: await deps.cipher.encrypt(secret, secondFactorCipherContext.pendingTotpSecret(id)),
        created_at: now,
        expires_at: new Date(now.getTime() + ENROLMENT_TTL_SECONDS * 1000),
      });
      return c.json(
        {
          object: 'totp_enrolment' as const,
          enrolment_id: id,
          secret,
          otpauth_uri: otpauthUri(secret, TOTP_ISSUER, user.email),
          expires_in: ENROLMENT_TTL_SECONDS,
        },
        201,
      );
    },
  );
}
