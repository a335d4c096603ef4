/**
 * The field cipher's contexts for second-factor material: each ciphertext is bound to its row, so a
 * secret copied onto another user fails to decrypt instead of working there.
 */
export const secondFactorCipherContext = {
  totpSecret: (userId: string) => `user_totp.secret:${userId}`,
  pendingTotpSecret: (challengeId: string) => `second_factor_challenge.secret:${challengeId}`,
  passkeyPublicKey: (passkeyId: string) => `user_passkey.public_key:${passkeyId}`,
};
