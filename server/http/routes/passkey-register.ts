import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { RegistrationResponseJSON, VerifiedRegistrationResponse } from '@simplewebauthn/server';
import { actorOf, auditOriginOf, recordAuditEvent } from '../../features/audit/record-audit-event.ts';
import {
  assertMayChangeSecondFactors,
  loginAfterEnrolment,
  recoveryCodesForNewFactor,
} from '../../features/second-factors/enrolment.ts';
import { relyingPartyOf } from '../../features/second-factors/relying-party.ts';
import { secondFactorCipherContext } from '../../features/second-factors/second-factor-cipher-context.ts';
import { webauthnLibrary } from '../../features/second-factors/webauthn.ts';
import { toBase64Url } from '../../crypto/encoding.ts';
import { ApiError } from '../../errors/api-error.ts';
import { consumeChallenge, findOpenChallenge, insertPasskey } from '../../store/second-factors.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import {
  EnrolmentResult,
  PasskeySchema,
  toPasskeyObject,
  WebAuthnJson,
} from './schemas/second-factor-schemas.ts';

const RegisterPasskeyBody = z
  .strictObject({
    registration_id: z.string().max(64),
    name: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .openapi({ description: 'How the passkey is listed, e.g. “Laptop”.' }),
    response: WebAuthnJson.openapi({
      description: 'The credential (`PublicKeyCredential.toJSON()`) of `navigator.credentials.create()`.',
    }),
  })
  .openapi('RegisterPasskeyRequest');

const PasskeyRegistered = z
  .object({ object: z.literal('passkey_registered'), passkey: PasskeySchema, ...EnrolmentResult })
  .openapi('PasskeyRegistered');

export const registerPasskeyRoute = createRoute({
  operationId: 'registerPasskey',
  method: 'post',
  path: '/v1/me/second-factors/passkeys',
  tags: ['Console'],
  summary: 'Register a passkey',
  description:
    'Verifies the new credential against the challenge of `POST /v1/me/second-factors/passkeys/options` (origin, relying party, user presence; attestation `none`) and stores its public key. Returns ten recovery codes, shown once, when the user has none left. Reachable with a token restricted to enrolment. A token that proved no second factor (password only, or restricted to enrolment) is revoked and one carrying the new factor returned in `login`. Once you have a second factor, changing them needs a session that proved one (403 `second_factor_required` for a password-only token).',
  security: [{ ConsoleBearer: [] }],
  request: { body: { required: true, content: { 'application/json': { schema: RegisterPasskeyBody } } } },
  responses: {
    201: { description: 'Registered', content: { 'application/json': { schema: PasskeyRegistered } } },
    ...errorResponses(
      'authentication_required',
      'invalid_token',
      'token_expired',
      'user_disabled',
      'tenant_suspended',
      'second_factor_required',
      'invalid_second_factor',
      'login_challenge_expired',
      'invalid_json',
      'invalid_parameter',
    ),
  },
});

export function registerRegisterPasskey(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    {
      ...registerPasskeyRoute,
      middleware: kit.tenant({ consoleOnly: true, secondFactorEnrolment: true, body: 'json' }),
    },
    async (c) => {
      const principal = c.get('principal');
      const userId = (principal.user as NonNullable<typeof principal.user>).id;
      const body = c.req.valid('json');
      const now = deps.clock.now();
      const registration = await findOpenChallenge(
        deps.db,
        userId,
        body.registration_id,
        'passkey_registration',
        now,
      );
      if (!registration?.webauthn_challenge || !(await consumeChallenge(deps.db, registration.id, now))) {
        throw new ApiError('login_challenge_expired', 'This passkey registration has expired; start again.');
      }
      const relyingParty = relyingPartyOf(deps.config.baseUrl);
      const { verifyRegistrationResponse } = await webauthnLibrary();
      let verification: VerifiedRegistrationResponse;
      try {
        verification = await verifyRegistrationResponse({
          response: body.response as unknown as RegistrationResponseJSON,
          expectedChallenge: registration.webauthn_challenge,
          expectedOrigin: relyingParty.origin,
          expectedRPID: relyingParty.id,
          requireUserVerification: false,
        });
      } catch {
        verification = { verified: false };
      }
      if (!verification.verified) {
        throw new ApiError('invalid_second_factor', 'The passkey could not be verified; try again.');
      }
      const info = verification.registrationInfo;
      const id = deps.ids('pky');
      const row = {
        id,
        user_id: userId,
        credential_id: info.credential.id,
        public_key_enc: await deps.cipher.encrypt(
          toBase64Url(info.credential.publicKey),
          secondFactorCipherContext.passkeyPublicKey(id),
        ),
        sign_count: info.credential.counter,
        transports: info.credential.transports ?? [],
        name: body.name,
        backed_up: info.credentialBackedUp,
        created_at: now,
      };
      const recoveryCodes = await deps.db.transaction(async (tx) => {
        await assertMayChangeSecondFactors(tx, principal);
        await insertPasskey(tx, row);
        const codes = await recoveryCodesForNewFactor(tx, deps, userId, now);
        const origin = auditOriginOf(c, deps);
        const entry = {
          tenantId: principal.tenantId,
          actor: actorOf(principal),
          target: { type: 'user' as const, id: userId },
        };
        await recordAuditEvent(tx, deps, origin, {
          ...entry,
          action: 'user.passkey_registered',
          details: { passkey_id: id },
        });
        if (codes)
          await recordAuditEvent(tx, deps, origin, { ...entry, action: 'user.recovery_codes_issued' });
        return codes;
      });
      const login = await loginAfterEnrolment(deps, kit.auth.tokenSettings, principal, 'hwk', now);
      return c.json(
        {
          object: 'passkey_registered' as const,
          passkey: toPasskeyObject({ ...row, last_used_at: null }),
          recovery_codes: recoveryCodes,
          login,
        },
        201,
      );
    },
  );
}
