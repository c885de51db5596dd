"""Who a draw takes: every player entered, or only those who have checked in.

Terminology:
    present    checked in at the venue for the event.
    left out   entered and active, but not taken into this draw because not present.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def split_draw_field(
    entrants: Sequence[tuple[T, bool]], *, present_only: bool | None = None
) -> tuple[list[T], list[T]]:
    """The entrants a draw takes and those it leaves out, each in the order given.

    ``entrants`` pairs each entrant with whether they are present. ``present_only``
    chooses; ``None`` takes only the present ones once anyone has checked in (a club
    night checks players in as they arrive), and everyone while nobody has.
    """
    if present_only is None:
        present_only = any(present for _, present in entrants)
    if not present_only:
        return [e for e, _ in entrants], []
    return [e for e, present in entrants if present], [e for e, present in entrants if not present]
