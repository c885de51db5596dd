"""A bound on the work of the move searches, so that no input keeps a server busy.

The searches of the tables engine count the positions they explore; a caller that checks
untrusted input (an uploaded record) runs them under :func:`work_limit`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from tourney.rules.errors import TooManyPlaysError

_Limit = tuple[list[int], str]
_WORK_LEFT: ContextVar[tuple[_Limit, ...]] = ContextVar("search_work_left", default=())
"""For each work limit in force here, the positions the searches may still explore and
how the limit reads in an error."""


@contextmanager
def work_limit(positions: int, *, scope: str) -> Iterator[None]:
    """Within the block, the engines' searches explore at most ``positions`` positions in
    all; the search that goes past it raises :class:`TooManyPlaysError`. Limits nest: a
    record's and, inside it, one turn's.

    A record check runs under them, so that an uploaded record cannot keep a server busy
    for minutes with turns of millions of possible plays.

    Args:
        positions: how many positions the searches may explore in the block.
        scope: what the limit covers, as the error names it ("one turn").
    """
    limit = ([positions], f"{scope} may explore at most {positions:,} positions")
    token = _WORK_LEFT.set((*_WORK_LEFT.get(), limit))
    try:
        yield
    finally:
        _WORK_LEFT.reset(token)


def spend(positions: int) -> None:
    """Count ``positions`` explored against every work limit in force."""
    for left, rule in _WORK_LEFT.get():
        left[0] -= positions
        if left[0] < 0:
            raise TooManyPlaysError(f"the possible plays are too many to check here ({rule})")
