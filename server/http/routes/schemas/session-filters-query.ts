import { z } from '@hono/zod-openapi';
import type { AppDeps } from '../../../app-deps.ts';
import { REASON_CODES } from '../../../domain/review/index.ts';
import { SESSION_STATUSES } from '../../../domain/session-status.ts';
import { FLOWS, TIERS } from '../../../domain/session-steps.ts';
import { sessionSearchOf } from '../../../features/review-queue/session-search.ts';
import type { SessionFilters } from '../../../store/sessions.ts';
import { IsoDateTime, repeatable } from './list-query.ts';
import { CountryCode } from './session-schemas.ts';

/** The filters of the sessions list, shared by its CSV export so both select the same sessions. */
export const SessionFiltersQuery = z.object({
  status: repeatable(z.enum(SESSION_STATUSES)).optional().openapi({ description: 'Repeatable.' }),
  flow: z.enum(FLOWS).optional(),
  tier: z.enum(TIERS).optional(),
  country: CountryCode.optional(),
  external_user_reference: z.string().max(255).optional(),
  identity_id: z.string().max(64).optional(),
  created_gte: IsoDateTime.optional(),
  created_lte: IsoDateTime.optional(),
  q: z.string().trim().min(1).max(200).optional().openapi({
    description:
      'A session id, an external user reference (exact), or a name: every word must be a word of a first or last name a review read (case and accents ignored; compared by keyed digests, never decrypted).',
  }),
  reason_code: repeatable(z.enum(REASON_CODES))
    .optional()
    .openapi({ description: 'Repeatable: sessions whose latest decision gives any of these reasons.' }),
  order: z.enum(['desc', 'asc']).default('desc').openapi({
    description:
      'By creation time: `desc` newest first (default), `asc` oldest first (a review queue). The cursors follow the order: `starting_after` continues the list, `ending_before` goes back.',
  }),
});

export type SessionFiltersInput = z.output<typeof SessionFiltersQuery>;

/** The store's filters for a query: personal values become their blind indexes here. */
export async function sessionFiltersOf(
  cipher: AppDeps['cipher'],
  query: SessionFiltersInput,
): Promise<SessionFilters> {
  return {
    statuses: query.status,
    flow: query.flow,
    tier: query.tier,
    country: query.country,
    externalUserRefIndex: query.external_user_reference
      ? await cipher.blindIndex(query.external_user_reference, 'external_user_reference')
      : undefined,
    identityId: query.identity_id,
    createdGte: query.created_gte,
    createdLte: query.created_lte,
    search: query.q === undefined ? undefined : await sessionSearchOf(cipher, query.q),
    reasonCodes: query.reason_code,
  };
}
