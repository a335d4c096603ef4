import type { AppDeps } from '../../app-deps.ts';
import type { SessionSearch } from '../../store/sessions.ts';
import { nameTokenIndexesOf } from './name-tokens.ts';

/**
 * Turns the `q` of a list into what the database can compare without decrypting anything: the text as
 * a session id (when it looks like one), the external reference's blind index (exact, as stored), and the
 * blind indexes of its name words (a session matches when its names contain every word).
 *
 * @example await sessionSearchOf(deps.cipher, 'anna eriksson')
 */
export async function sessionSearchOf(cipher: AppDeps['cipher'], q: string): Promise<SessionSearch> {
  const text = q.trim();
  return {
    sessionId: /^sess_[A-Za-z0-9]+$/.test(text) ? text : null,
    externalUserRefIndex: await cipher.blindIndex(text, 'external_user_reference'),
    nameTokenIndexes: await nameTokenIndexesOf(cipher, text),
  };
}
