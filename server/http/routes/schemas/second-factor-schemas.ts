import { z } from '@hono/zod-openapi';
import { SECOND_FACTOR_METHODS } from '../../../features/second-factors/login-challenge.ts';
import { CapabilityList, UserSchema } from './console-schemas.ts';

/**
 * WebAuthn's JSON forms (W3C WebAuthn Level 3, `PublicKeyCredential.toJSON()` and the `*OptionsJSON`
 * dictionaries) pass through as they are: the browser library builds and reads them, and the server's
 * WebAuthn library checks every field. Documented as open objects, not re-specified here.
 */
export const WebAuthnJson = z.record(z.string(), z.unknown());

export const PasskeyRequestOptions = WebAuthnJson.openapi('PasskeyRequestOptions', {
  description:
    'Options for `navigator.credentials.get()` (WebAuthn `PublicKeyCredentialRequestOptionsJSON`): the challenge and the allowed credentials.',
});

export const PasskeyCreationOptions = WebAuthnJson.openapi('PasskeyCreationOptions', {
  description:
    'Options for `navigator.credentials.create()` (WebAuthn `PublicKeyCredentialCreationOptionsJSON`), attestation `none`.',
});

export const ConsoleLoginTokens = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    user: UserSchema,
    capabilities: CapabilityList,
    default_path: z.string(),
    second_factor_enrolment_required: z.literal(true).optional().openapi({
      description:
        'Present when the tenant requires a second factor and the user has none: this token reaches only the enrolment operations (`/v1/me/second-factors…`) and logout; enrolling one returns a full token.',
    }),
  })
  .openapi('ConsoleLoginResponse');

export const SecondFactorChallenge = z
  .object({
    second_factor_required: z.literal(true),
    challenge_token: z.string().openapi({
      description:
        'Send it to `POST /v1/console/login/second-factor` with the code or the passkey assertion.',
    }),
    expires_in: z.number().int(),
    methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
    passkey_options: PasskeyRequestOptions.nullable(),
  })
  .openapi('SecondFactorChallenge');

export const PasskeySchema = z
  .object({
    object: z.literal('passkey'),
    passkey_id: z.string(),
    name: z.string(),
    backed_up: z
      .boolean()
      .openapi({ description: 'The passkey is synced (for example by a password manager).' }),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
  })
  .openapi('Passkey');

export function toPasskeyObject(row: {
  id: string;
  name: string;
  backed_up: boolean;
  created_at: Date;
  last_used_at: Date | null;
}) {
  return {
    object: 'passkey' as const,
    passkey_id: row.id,
    name: row.name,
    backed_up: row.backed_up,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
  };
}

export const SecondFactorsSchema = z
  .object({
    object: z.literal('second_factors'),
    totp: z.boolean().openapi({ description: 'An authenticator app is enrolled.' }),
    passkeys: z.array(PasskeySchema),
    recovery_codes_remaining: z.number().int(),
    required_by_tenant: z.boolean(),
  })
  .openapi('SecondFactors');

/** What completing an enrolment returns: new recovery codes (shown once) and, for a restricted token, a full login. */
export const EnrolmentResult = {
  recovery_codes: z.array(z.string()).nullable().openapi({
    description:
      'Ten single-use recovery codes, shown this once, when the user had none left; null when their earlier codes still stand.',
  }),
  // A union, not `.nullable()`: on a registered schema that gives `allOf: [$ref, {type: [object, null]}]`,
  // which no null satisfies (the $ref is an object), and typed clients read it as never null.
  login: z.union([ConsoleLoginTokens, z.null()]).openapi({
    description:
      'A new access token carrying the second factor just proved, when the request was made with one that proved none (password only, or restricted to enrolment; that one is revoked); null otherwise.',
  }),
};

export const PasskeyIdParam = z.object({
  id: z
    .string()
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'pky_4fQ0cZ2mUe9tYh1rVb7kLw' }),
});
