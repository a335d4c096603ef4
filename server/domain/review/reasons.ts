/**
 * Every reason code a decision can carry (API.md §5), in the contract's order. Clients branch on these,
 * so a code is never renamed or removed; new ones are only added.
 */
export const REASON_CODES = [
  'document_expired',
  'document_unreadable',
  'document_type_not_supported',
  'document_tampered',
  'data_mismatch',
  'underage',
  'liveness_failed',
  'face_mismatch',
  'face_match_uncertain',
  'duplicate_identity',
  'watchlist_hit',
  'attempts_exhausted',
  'manual_rejection',
  'sandbox_forced',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** One entry of a result's `reasons`: `message` is for the tenant, `user_message` for the end-user. */
export interface Reason {
  code: ReasonCode;
  message: string;
  user_message: string;
}

/**
 * A user_message for reasons the end-user must not learn (screening, fraud signals, a reviewer's call):
 * telling someone they matched a watchlist or look like a duplicate is tipping-off and helps fraudsters.
 */
const NEUTRAL_USER_MESSAGE =
  'We could not complete your verification automatically. The organisation that asked you to verify will contact you about the next steps.';

/**
 * The tenant and end-user wording of every reason code. Reused by the result endpoint, the console and
 * the hosted page (which only ever shows `user_message`).
 */
export const REASON_CATALOGUE: Readonly<Record<ReasonCode, Omit<Reason, 'code'>>> = {
  document_expired: {
    message: 'The identity document has expired.',
    user_message: 'Your document has expired. Please verify again with a valid document.',
  },
  document_unreadable: {
    message: 'A document image could not be read reliably (blur, glare, darkness, size or a missing side).',
    user_message: 'We could not read your document. Please take new, sharp photos without glare.',
  },
  document_type_not_supported: {
    message: 'The document type is not accepted for this verification.',
    user_message: 'This type of document is not accepted. Please use a different document.',
  },
  document_tampered: {
    message: 'The document shows signs of tampering or forgery.',
    user_message: NEUTRAL_USER_MESSAGE,
  },
  data_mismatch: {
    message: 'The details entered do not match the machine-readable zone of the document.',
    user_message: 'The details you entered do not match your document.',
  },
  underage: {
    message: "The person is younger than the tenant's minimum age.",
    user_message: 'You do not meet the minimum age for this service.',
  },
  liveness_failed: {
    message: 'The liveness check did not pass.',
    user_message: 'We could not confirm that you were present during the selfie check.',
  },
  face_mismatch: {
    message: 'The face in the selfie does not match the reference photo.',
    user_message: NEUTRAL_USER_MESSAGE,
  },
  face_match_uncertain: {
    message:
      'The face in the selfie is close to the reference photo but not close enough to confirm automatically; a person should compare them.',
    user_message: NEUTRAL_USER_MESSAGE,
  },
  duplicate_identity: {
    message:
      'The document number is already verified under another user reference, or an image was reused from another session.',
    user_message: NEUTRAL_USER_MESSAGE,
  },
  watchlist_hit: {
    message: 'The person matched an entry on a sanctions, PEP or other watchlist.',
    user_message: NEUTRAL_USER_MESSAGE,
  },
  attempts_exhausted: {
    message: 'A step ran out of attempts.',
    user_message: 'You have used all attempts for this step.',
  },
  manual_rejection: {
    message: 'A reviewer rejected the verification.',
    user_message: NEUTRAL_USER_MESSAGE,
  },
  sandbox_forced: {
    message: 'The outcome was forced by the sandbox settings of the session.',
    user_message: 'This is a test verification.',
  },
};

/**
 * Narrows an untrusted string (request body, stored JSON) to a known reason code.
 *
 * @example
 * isReasonCode('underage') // true
 * isReasonCode('too_young') // false
 */
export function isReasonCode(value: unknown): value is ReasonCode {
  return typeof value === 'string' && (REASON_CODES as readonly string[]).includes(value);
}

/**
 * The full reason object for a code, as it appears in a result's `reasons`.
 *
 * @example
 * reasonFor('document_expired')
 * // { code: 'document_expired', message: 'The identity document has expired.', user_message: 'Your document…' }
 */
export function reasonFor(code: ReasonCode): Reason {
  return { code, ...REASON_CATALOGUE[code] };
}
