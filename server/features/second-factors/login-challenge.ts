import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { AppDeps } from '../../app-deps.ts';
import { randomBase62, sha256Hex } from '../../crypto/primitives.ts';
import { insertChallenge, listPasskeys, type SecondFactorSummary } from '../../store/second-factors.ts';
import { relyingPartyOf } from './relying-party.ts';
import { webauthnLibrary } from './webauthn.ts';

/** How long the second step may follow the password: time to open an app or touch a key, not more. */
export const LOGIN_CHALLENGE_TTL_SECONDS = 300;
/** How long a browser gives the user to complete a passkey ceremony. */
export const WEBAUTHN_TIMEOUT_MS = 120_000;

export const SECOND_FACTOR_METHODS = ['totp', 'recovery_code', 'passkey'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

export interface LoginChallengeAnswer {
  second_factor_required: true;
  challenge_token: string;
  expires_in: number;
  methods: SecondFactorMethod[];
  /** For `navigator.credentials.get()`, when the user has passkeys: the challenge and the allowed credentials. */
  passkey_options: PublicKeyCredentialRequestOptionsJSON | null;
}

/**
 * The password was right and the user has a second factor: opens the second step. The challenge token
 * is returned once and stored only as its SHA-256; a passkey user also gets a WebAuthn challenge, kept
 * with it, for the assertion to sign.
 */
export async function openLoginChallenge(
  deps: Pick<AppDeps, 'db' | 'ids' | 'config'>,
  userId: string,
  summary: SecondFactorSummary,
  now: Date,
): Promise<LoginChallengeAnswer> {
  const token = randomBase62(192);
  const passkeys = summary.passkeys > 0 ? await listPasskeys(deps.db, userId) : [];
  const passkeyOptions =
    passkeys.length > 0
      ? await (await webauthnLibrary()).generateAuthenticationOptions({
          rpID: relyingPartyOf(deps.config.baseUrl).id,
          allowCredentials: passkeys.map((passkey) => ({
            id: passkey.credential_id,
            transports: passkey.transports,
          })),
          userVerification: 'preferred',
          timeout: WEBAUTHN_TIMEOUT_MS,
        })
      : null;
  await insertChallenge(deps.db, {
    id: deps.ids('sfc'),
    user_id: userId,
    purpose: 'login',
    token_digest: await sha256Hex(token),
    webauthn_challenge: passkeyOptions?.challenge ?? null,
    secret_enc: null,
    created_at: now,
    expires_at: new Date(now.getTime() + LOGIN_CHALLENGE_TTL_SECONDS * 1000),
  });
  const methods: SecondFactorMethod[] = [];
  if (summary.totp) methods.push('totp');
  if (summary.passkeys > 0) methods.push('passkey');
  if (summary.unusedRecoveryCodes > 0) methods.push('recovery_code');
  return {
    second_factor_required: true,
    challenge_token: token,
    expires_in: LOGIN_CHALLENGE_TTL_SECONDS,
    methods,
    passkey_options: passkeyOptions,
  };
}
