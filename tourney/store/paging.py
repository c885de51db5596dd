"""Long lists a page at a time: the rows of one page and what its page links need.

Pages are numbered from 1; a number past the end shows the last page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

PER_PAGE = 100

Row = TypeVar("Row")


@dataclass(frozen=True)
class Page(Generic[Row]):
    """One page of a long list, with what the page links need."""

    rows: tuple[Row, ...]
    number: int
    """This page, from 1."""
    pages: int
    """How many pages the list has (at least 1)."""
    total: int
    """Rows in the whole list (after the search)."""
    search: str
    per_page: int = PER_PAGE

    @property
    def first_row(self) -> int:
        """The row number (from 1) of this page's first row; 0 for an empty list."""
        return (self.number - 1) * self.per_page + 1 if self.rows else 0

    @property
    def last_row(self) -> int:
        """The row number of this page's last row."""
        return self.first_row + len(self.rows) - 1 if self.rows else 0


def page_of(
    rows: Sequence[Row], number: int, search: str = "", *, per_page: int = PER_PAGE
) -> Page[Row]:
    """The ``number``-th page of ``rows``; a number past the end shows the last page."""
    pages = max(1, math.ceil(len(rows) / per_page))
    number = min(max(1, number), pages)
    start = (number - 1) * per_page
    return Page(tuple(rows[start : start + per_page]), number, pages, len(rows), search, per_page)
