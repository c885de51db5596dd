"""Divisions of an event's players and the handicap start between them.

Terminology:

- An event's *divisions* are its classes of players in order, strongest first: "Open",
  "Intermediate", "Novice", or the club's own names. A player is in at most one.
- A *divisional* flight takes the players of one division; a *mixed* flight takes
  players of several and may give a *handicap start*: the player of the lower division
  starts the match so many points up per division of difference ("a Novice starts 2 up
  against an Open player, 1 up against an Intermediate").
- A *start* is the score before the first game (``tourney.match``); it is always below
  the match length for both players, so a handicap never decides a match by itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from tourney.formats.errors import FormatUserError
from tourney.rules.messages import Message

DEFAULT_DIVISIONS = ("Open", "Intermediate", "Novice")
"""The names a club starts from; it may rename, drop or add divisions."""

MAX_DIVISION_NAME = 40
"""The longest division name stored."""


def parse_divisions(text: str) -> tuple[str, ...]:
    """The divisions a director lists, one per line or separated by commas, strongest
    first.

    >>> parse_divisions("Open, Intermediate\\nNovice")
    ('Open', 'Intermediate', 'Novice')

    Raises:
        FormatUserError: a name listed twice or too long.
    """
    names = tuple(name.strip() for line in text.splitlines() for name in line.split(",")
                  if name.strip())
    seen: set[str] = set()
    for name in names:
        if len(name) > MAX_DIVISION_NAME:
            raise FormatUserError(Message(
                "The division name %(start)s... is longer than %(most)s characters.",
                start=repr(name[:20]), most=MAX_DIVISION_NAME,
            ))
        if name.casefold() in seen:
            raise FormatUserError(
                Message("The division %(name)s is listed twice.", name=repr(name))
            )
        seen.add(name.casefold())
    return names


def division_rank(divisions: Sequence[str], division: str) -> int | None:
    """The place of ``division`` in the order (0 = strongest); ``None`` for no division
    or one the event does not list."""
    try:
        return list(divisions).index(division)
    except ValueError:
        return None


def handicap_start(divisions: Sequence[str], division_a: str, division_b: str, *,
                   points_per_division: int, length: int) -> tuple[int, int]:
    """The start of a match between players of ``division_a`` and ``division_b``: the
    lower division's player is ``points_per_division`` up per division of difference,
    never at or past ``length - 1`` more than the rules allow (at most N-1).

    A player with no division (or a division not listed) starts level.

    >>> handicap_start(DEFAULT_DIVISIONS, "Open", "Novice", points_per_division=1, length=7)
    (0, 2)
    >>> handicap_start(DEFAULT_DIVISIONS, "Novice", "Intermediate", points_per_division=1,
    ...                length=7)
    (1, 0)
    >>> handicap_start(DEFAULT_DIVISIONS, "Open", "Novice", points_per_division=5, length=7)
    (0, 6)
    """
    rank_a = division_rank(divisions, division_a)
    rank_b = division_rank(divisions, division_b)
    if rank_a is None or rank_b is None or points_per_division <= 0 or length <= 1:
        return (0, 0)
    up = min(abs(rank_a - rank_b) * points_per_division, length - 1)
    return (up, 0) if rank_a > rank_b else (0, up) if rank_b > rank_a else (0, 0)
