import type { AppDeps } from '../../app-deps.ts';
import type { ReviewEvidence } from '../../domain/review/index.ts';
import { replaceSessionNameTokens } from '../../store/session-name-tokens.ts';
import type { SqlClient } from '../../store/sql-client.ts';

/** The blind index's purpose: digests of name words can be compared with no other index's. */
const NAME_TOKEN_PURPOSE = 'session.name_token';

/**
 * The words of a name as search compares them: accents and case dropped, split at anything that is not a
 * letter or digit, so "Anna-María" and "ANNA MARIA" (an MRZ) give the same words `anna`, `maria`.
 *
 * @example nameWords(' Anna-María  ') // ['anna', 'maria']
 */
export function nameWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** Keyed digests of the words (HMAC-SHA-256 under the field cipher's index key), never the words. */
export async function nameTokenIndexesOf(cipher: AppDeps['cipher'], text: string): Promise<string[]> {
  const words = [...new Set(nameWords(text))];
  return Promise.all(words.map((word) => cipher.blindIndex(word, NAME_TOKEN_PURPOSE)));
}

/** Every first and last name the review saw: typed, the device's MRZ, the server's MRZ and barcode reads. */
function namesOf(evidence: ReviewEvidence): string[] {
  const document = evidence.id_document;
  if (!document) return [];
  const names: (string | undefined)[] = [
    document.details?.first_name,
    document.details?.last_name,
    document.mrz?.first_name,
    document.mrz?.last_name,
    document.reading?.mrz?.first_name,
    document.reading?.mrz?.last_name,
    document.reading?.barcode?.first_name,
    document.reading?.barcode?.last_name,
  ];
  return names.filter((name): name is string => typeof name === 'string' && name.trim() !== '');
}

/**
 * Writes the session's name index from the evidence its review read, in the review's transaction, so the
 * queue and the sessions list can be searched by name without decrypting a row. Evidence without a name
 * (a reviewer's rejection reads none) keeps the index the automated review wrote. Answers whether it
 * wrote one.
 */
export async function indexSessionNames(
  tx: SqlClient,
  deps: Pick<AppDeps, 'cipher'>,
  sessionId: string,
  evidence: ReviewEvidence,
): Promise<boolean> {
  const names = namesOf(evidence);
  if (names.length === 0) return false;
  await replaceSessionNameTokens(tx, sessionId, await nameTokenIndexesOf(deps.cipher, names.join(' ')));
  return true;
}

/**
 * Writes the session's name index from the names the end-user typed, in the details' transaction, so a
 * session waiting for its review is found by name too; the review replaces it with every name it read.
 */
export async function indexTypedNames(
  tx: SqlClient,
  deps: Pick<AppDeps, 'cipher'>,
  sessionId: string,
  names: { first_name: string; last_name: string },
): Promise<void> {
  const text = `${names.first_name} ${names.last_name}`;
  await replaceSessionNameTokens(tx, sessionId, await nameTokenIndexesOf(deps.cipher, text));
}
