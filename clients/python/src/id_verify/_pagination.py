"""Cursor lists (API.md §1): iterate every item across pages, or take exactly one page."""

from typing import Any, Callable, Dict, Generic, Iterator, List, Mapping, TypeVar, cast

__all__ = ["Page", "PagedList"]

Item = TypeVar("Item")


class Page(Generic[Item]):
    """One page: its items and whether more follow."""

    def __init__(self, data: List[Item], has_more: bool) -> None:
        self.data = data
        self.has_more = has_more

    def __repr__(self) -> str:
        return f"Page(data=<{len(self.data)} items>, has_more={self.has_more})"


class PagedList(Generic[Item]):
    """A list call. ``for item in idv.sessions.list(...)`` walks every page, fetching lazily;
    ``.page()`` answers exactly one page; ``.pages()`` yields pages.
    """

    def __init__(
        self,
        query: Mapping[str, Any],
        fetch_page: Callable[[Dict[str, Any]], Dict[str, Any]],
        id_of: Callable[[Item], str],
    ) -> None:
        self._query = dict(query)
        self._fetch_page = fetch_page
        self._id_of = id_of

    def page(self) -> Page[Item]:
        answer = self._fetch_page(dict(self._query))
        return Page(cast(List[Item], answer["data"]), bool(answer["has_more"]))

    def pages(self) -> Iterator[Page[Item]]:
        query = dict(self._query)
        while True:
            answer = self._fetch_page(query)
            page: Page[Item] = Page(cast(List[Item], answer["data"]), bool(answer["has_more"]))
            yield page
            if not page.has_more or not page.data:
                return
            # Walking on: drop ``ending_before`` (the two cursors exclude each other) and page
            # after the last item.
            query.pop("ending_before", None)
            query["starting_after"] = self._id_of(page.data[-1])

    def __iter__(self) -> Iterator[Item]:
        for page in self.pages():
            yield from page.data
