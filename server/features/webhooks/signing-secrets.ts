import type { FieldCipher } from '../../crypto/field-cipher.ts';

/** Encryption contexts bind each ciphertext to its row and role: a copied value fails to decrypt. */
export const webhookCipherContext = {
  secret: (webhookId: string) => `webhook.secret:${webhookId}`,
  previousSecret: (webhookId: string) => `webhook.previous_secret:${webhookId}`,
};

export interface StoredSecrets {
  id: string;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
}

/** The secrets that sign a delivery now: the current one first, then the previous one during its overlap. */
export async function activeSigningSecrets(
  cipher: FieldCipher,
  webhook: StoredSecrets,
  now: Date,
): Promise<string[]> {
  const secrets = [await cipher.decrypt(webhook.secret_enc, webhookCipherContext.secret(webhook.id))];
  if (
    webhook.previous_secret_enc &&
    webhook.previous_secret_expires_at &&
    webhook.previous_secret_expires_at.getTime() > now.getTime()
  ) {
    secrets.push(
      await cipher.decrypt(webhook.previous_secret_enc, webhookCipherContext.previousSecret(webhook.id)),
    );
  }
  return secrets;
}
