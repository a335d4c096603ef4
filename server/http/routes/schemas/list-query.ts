import { z } from '@hono/zod-openapi';

/** A query parameter that may repeat (`?status=a&status=b`): Hono hands one value as a string. */
export function repeatable<T extends z.ZodType>(item: T) {
  return z
    .union([item, z.array(item)])
    .transform((value) => (Array.isArray(value) ? value : [value]) as z.output<T>[]);
}

export const PaginationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: '1–100, default 20' }),
  starting_after: z
    .string()
    .max(64)
    .optional()
    .openapi({ description: 'An object id: items older than it.' }),
  ending_before: z.string().max(64).optional().openapi({ description: 'An object id: items newer than it.' }),
});

export const IsoDateTime = z.iso.datetime({ offset: true }).transform((value) => new Date(value));
