import { z } from '@hono/zod-openapi';

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`: lists often know only part of a birth date. */
const PartialDate = z
  .string()
  .regex(/^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/, 'must be YYYY, YYYY-MM or YYYY-MM-DD')
  .openapi({ example: '1971-04-01' });

const PersonName = z.string().trim().min(2).max(200);

export const WatchlistEntrySchema = z
  .strictObject({
    name: PersonName.openapi({
      example: 'FICTITIOUS, Ivan',
      description: 'Any order; case and diacritics are ignored.',
    }),
    aliases: z.array(PersonName).max(20).optional(),
    date_of_birth: PartialDate.optional(),
    list: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ example: 'internal-blocklist', description: 'Reported as the hit’s source.' }),
  })
  .openapi('WatchlistEntry');

export const PutWatchlistBody = z
  .strictObject({ entries: z.array(WatchlistEntrySchema).max(5000) })
  .openapi('PutWatchlistRequest');

export const WatchlistSchema = z
  .object({
    object: z.literal('watchlist'),
    environment: z.enum(['sandbox', 'production']),
    source: z.enum(['tenant', 'sample', 'none']).openapi({
      description:
        '`tenant`: your uploaded list. `sample`: none uploaded, and the sandbox screens against the shipped fictional sample list. `none`: none uploaded in production, so tier3 screening cannot run and its check is `inconclusive`.',
    }),
    entries: z.array(WatchlistEntrySchema),
    entry_count: z.number().int(),
    updated_at: z.string().nullable(),
  })
  .openapi('Watchlist');
