/** One page of a cursor list (API.md §1), newest first. */
export interface ListPage<Item> {
  object: 'list';
  data: Item[];
  has_more: boolean;
}

export interface PageQuery {
  /** 1–100 items per page; default 20. */
  limit?: number;
  /** An object id: the page holds items older than it. */
  starting_after?: string;
  /** An object id: the page holds items newer than it. */
  ending_before?: string;
}

/**
 * A list call: iterate it with `for await` to walk every page from the newest item on, or call `.page()`
 * for exactly one page (and its `has_more`).
 *
 * @example
 * for await (const session of idv.sessions.list({ status: 'review_required' })) console.log(session.session_id);
 * const first = await idv.sessions.list({ limit: 10 }).page();
 */
export interface PagedList<Item> extends AsyncIterable<Item> {
  page(): Promise<ListPage<Item>>;
}

export function pagedList<Item, Query extends PageQuery>(
  query: Query,
  fetchPage: (query: Query) => Promise<ListPage<Item>>,
  /** The item's id, which the next page starts after. */
  idOf: (item: Item) => string,
): PagedList<Item> {
  return {
    page: () => fetchPage(query),
    async *[Symbol.asyncIterator]() {
      let cursor: Query = query;
      while (true) {
        const page = await fetchPage(cursor);
        yield* page.data;
        const last = page.data.at(-1);
        if (!page.has_more || last === undefined) return;
        // Walking older: drop `ending_before` (the two cursors exclude each other) and page after the last.
        const { ending_before: _, ...rest } = cursor;
        cursor = { ...rest, starting_after: idOf(last) } as Query;
      }
    },
  };
}
