import { ApiError } from '../errors/api-error.ts';

/** A list position: the cursor object's sort key (lists are newest first by `created_at`, then `id`). */
export interface ListPosition {
  created_at: Date;
  id: string;
}

export interface ListPage {
  limit: number;
  after?: ListPosition | undefined;
  before?: ListPosition | undefined;
}

/**
 * Turns a list query's `limit` and `starting_after` / `ending_before` (API.md §1) into a store page. Both
 * cursors at once, or a cursor object the caller cannot see, is 400 `invalid_cursor`. `find` must apply
 * the caller's scope, so a cursor from another tenant is as unknown as a made-up one.
 *
 * @example
 * const page = await listPageOf(query, 'session', (id) => findSession(deps.db, scope, id));
 */
export async function listPageOf(
  query: { limit: number; starting_after?: string | undefined; ending_before?: string | undefined },
  noun: string,
  find: (id: string) => Promise<ListPosition | null>,
): Promise<ListPage> {
  if (query.starting_after && query.ending_before) {
    throw new ApiError('invalid_cursor', 'Send `starting_after` or `ending_before`, not both.', {
      param: 'ending_before',
    });
  }
  const cursorId = query.starting_after ?? query.ending_before;
  if (!cursorId) return { limit: query.limit };
  const cursor = await find(cursorId);
  if (!cursor) {
    throw new ApiError('invalid_cursor', `No ${noun} \`${cursorId}\` to page from.`, {
      param: query.starting_after ? 'starting_after' : 'ending_before',
    });
  }
  const position = { created_at: cursor.created_at, id: cursor.id };
  return query.starting_after
    ? { limit: query.limit, after: position }
    : { limit: query.limit, before: position };
}
