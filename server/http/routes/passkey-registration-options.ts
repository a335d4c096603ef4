import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { WEBAUTHN_TIMEOUT_MS } from '../../features/second-factors/login-challenge.ts';
import { assertMayChangeSecondFactors } from '../../features/second-factors/enrolment.ts';
import { relyingPartyOf } from '../../features/second-factors/relying-party.ts';
import { webauthnLibrary } from '../../features/second-factors/webauthn.ts';
import { utf8 } from '../../crypto/encoding.ts';
import { insertChallenge, listPasskeys } from '../../store/second-factors.ts';
import type { AppEnv } from '../app-env.ts';
import { errorResponses } from '../openapi-common.ts';
import type { RouteKit } from '../route-kit.ts';
import { PasskeyCreationOptions } from './schemas/second-factor-schemas.ts';

const PasskeyRegistration = z
  .object({
    object: z.literal('passkey_registration'),
    registration_id: z.string(),
    options: PasskeyCreationOptions,
  })
  .openapi('PasskeyRegistration');

export const startPasskeyRegistrationRoute = createRoute({
  operationId: 'startPasskeyRegistration',
  method: 'post',
  path: '/v1/me/second-factors/passkeys/options',
  tags: ['Console'],
  summary: 'Start registering a passkey',
  description:
    'Options for `navigator.credentials.create()`: relying party = the host of the configured base URL, attestation `none`, your existing passkeys excluded. The challenge is kept on the server for two minutes. Reachable with a token restricted to enrolment. Once you have a second factor, changing them needs a session that proved one (403 `second_factor_required` for a password-only token).',
  security: [{ ConsoleBearer: [] }],
  responses: {
    201: {
      description: 'The creation options',
      content: { 'application/json': { schema: PasskeyRegistration } },
    },
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

export function registerStartPasskeyRegistration(app: OpenAPIHono<AppEnv>, kit: RouteKit): void {
  const { deps } = kit;
  app.openapi(
    {
      ...startPasskeyRegistrationRoute,
      middleware: kit.tenant({ consoleOnly: true, secondFactorEnrolment: true, body: 'optional' }),
    },
    async (c) => {
      const principal = c.get('principal');
      const user = principal.user as NonNullable<typeof principal.user>;
      await assertMayChangeSecondFactors(deps.db, principal);
      const now = deps.clock.now();
      const relyingParty = relyingPartyOf(deps.config.baseUrl);
      const existing = await listPasskeys(deps.db, user.id);
      const { generateRegistrationOptions } = await webauthnLibrary();
      const options = await generateRegistrationOptions({
        rpName: relyingParty.name,
        rpID: relyingParty.id,
        userName: user.email,
        // The WebAuthn user handle: the user id, never the e-mail (the handle is not meant to be personal).
        userID: utf8.encode(user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((passkey) => ({
          id: passkey.credential_id,
          transports: passkey.transports,
        })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        timeout: WEBAUTHN_TIMEOUT_MS,
      });
      const id = deps.ids('sfc');
      await insertChallenge(deps.db, {
        id,
        user_id: user.id,
        purpose: 'passkey_registration',
        token_digest: null,
        webauthn_challenge: options.challenge,
        secret_enc: null,
        created_at: now,
        expires_at: new Date(now.getTime() + WEBAUTHN_TIMEOUT_MS),
      });
      return c.json(
        {
          object: 'passkey_registration' as const,
          registration_id: id,
          options: options as unknown as Record<string, unknown>,
        },
        201,
      );
    },
  );
}
