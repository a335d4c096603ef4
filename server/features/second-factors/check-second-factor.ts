import type { AuthenticationResponseJSON, VerifiedAuthenticationResponse } from '@simplewebauthn/server';
import type { AppDeps } from '../../app-deps.ts';
import { fromBase64Url } from '../../crypto/encoding.ts';
import {
  claimTotpStep,
  findConfirmedTotp,
  findUserPasskeyByCredentialId,
  recordPasskeyUse,
  useRecoveryCode,
} from '../../store/second-factors.ts';
import { recoveryCodeDigest } from './recovery-codes.ts';
import { relyingPartyOf } from './relying-party.ts';
import { secondFactorCipherContext } from './second-factor-cipher-context.ts';
import { matchTotpStep } from './totp.ts';
import { webauthnLibrary } from './webauthn.ts';

type Deps = Pick<AppDeps, 'db' | 'cipher' | 'config'>;

/** Why a second factor was refused: `replayed` is a right code that was already used. */
export type SecondFactorCheck = 'accepted' | 'wrong' | 'replayed';

/**
 * A TOTP code at login: right for a step within ±1 of now, and of a later step than any code accepted
 * before (a code works once, even inside its own 30 s).
 */
export async function checkTotpCode(
  deps: Deps,
  userId: string,
  code: string,
  now: Date,
): Promise<SecondFactorCheck> {
  const totp = await findConfirmedTotp(deps.db, userId);
  if (!totp) return 'wrong';
  const secret = await deps.cipher.decrypt(totp.secret_enc, secondFactorCipherContext.totpSecret(userId));
  const step = await matchTotpStep(secret, code.trim(), now);
  if (step === null) return 'wrong';
  return (await claimTotpStep(deps.db, userId, step)) ? 'accepted' : 'replayed';
}

/** A recovery code: spent by this use. */
export async function checkRecoveryCode(
  deps: Deps,
  userId: string,
  code: string,
  now: Date,
): Promise<SecondFactorCheck> {
  const digest = await recoveryCodeDigest(deps.cipher, userId, code);
  return (await useRecoveryCode(deps.db, userId, digest, now)) ? 'accepted' : 'wrong';
}

/**
 * A passkey assertion against the challenge the password step issued: signed by a passkey of this user
 * over that challenge, from this origin and relying party, with the user-present flag, and a signature
 * counter above the stored one when the authenticator keeps one (a lower or equal counter suggests a
 * cloned key: refused). The counter is then stored only if no concurrent assertion moved it first.
 */
export async function checkPasskeyAssertion(
  deps: Deps,
  userId: string,
  expectedChallenge: string,
  response: AuthenticationResponseJSON,
  now: Date,
): Promise<SecondFactorCheck> {
  const passkey = await findUserPasskeyByCredentialId(deps.db, userId, response.id);
  if (!passkey) return 'wrong';
  const publicKey = fromBase64Url(
    await deps.cipher.decrypt(passkey.public_key_enc, secondFactorCipherContext.passkeyPublicKey(passkey.id)),
  );
  const relyingParty = relyingPartyOf(deps.config.baseUrl);
  const storedCount = Number(passkey.sign_count);
  const { verifyAuthenticationResponse } = await webauthnLibrary();
  let verification: VerifiedAuthenticationResponse;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(publicKey),
        counter: storedCount,
        transports: passkey.transports,
      },
      requireUserVerification: false,
    });
  } catch {
    // A malformed response, a wrong signature, origin or challenge, a counter that went backwards.
    return 'wrong';
  }
  if (!verification.verified) return 'wrong';
  const moved = await recordPasskeyUse(
    deps.db,
    passkey.id,
    storedCount,
    verification.authenticationInfo.newCounter,
    now,
  );
  return moved ? 'accepted' : 'replayed';
}
