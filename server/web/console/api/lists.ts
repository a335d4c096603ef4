/**
 * The values the console offers in its pickers and filters, in the order it shows them. The values are
 * the server's (typed by the generated OpenAPI types; the reason codes come from the server's catalogue),
 * the order is the console's.
 */
import { REASON_CODES as ALL_REASON_CODES } from '../../../domain/review/reasons.ts';
import type { Environment, Schemas } from './console-api.ts';

/** Production first: the environment most people open the console for. */
export const ENVIRONMENTS: readonly Environment[] = ['production', 'sandbox'];

/** In the order a session moves through them, the ones needing a person (review) before the decisions. */
export const SESSION_STATUSES = [
  'created',
  'collecting',
  'processing',
  'review_required',
  'approved',
  'rejected',
  'expired',
  'cancelled',
] as const satisfies readonly Schemas['Session']['status'][];

/**
 * Reason codes a reviewer may give with a rejection (API.md §5): the server's catalogue less the codes
 * only the system sets (`manual_rejection` is added to every rejection by a person).
 */
export const REASON_CODES = ALL_REASON_CODES.filter(
  (code) => !['attempts_exhausted', 'manual_rejection', 'sandbox_forced'].includes(code),
);
