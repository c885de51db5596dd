"""A season's table: points per event, by place or per match won, added up over a club's
events (DESIGN §8).

Terminology:
    place     a player's finishing place in an event: 1 + the number of players ranked
              strictly ahead. Players who share a place (two losing semifinalists, "=3")
              share the points of the places they fill: two players at =3 take the
              points of places 3 and 4 between them, half each.
    best N    only a player's N best events count (none: all of them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tourney.formats.errors import FormatUserError
from tourney.rules.messages import Message


def place_points(places: Mapping[int, int], table: Sequence[int]) -> dict[int, float]:
    """Each player's points for their place in one event; places past the table score 0.

    >>> place_points({1: 1, 2: 2, 3: 3, 4: 3}, [10, 6, 4, 2])
    {1: 10.0, 2: 6.0, 3: 3.0, 4: 3.0}
    """
    sharing: dict[int, int] = {}
    for place in places.values():
        if place < 1:
            raise FormatUserError(Message("Places are counted from 1, not %(place)s.", place=place))
        sharing[place] = sharing.get(place, 0) + 1

    def worth(place: int) -> int:
        return table[place - 1] if place <= len(table) else 0

    split = {
        place: sum(worth(p) for p in range(place, place + count)) / count
        for place, count in sharing.items()
    }
    return {player: split[place] for player, place in places.items()}


@dataclass(frozen=True)
class SeasonRow:
    """A player's line in the season's table."""

    rank: int
    tied: bool
    player: int
    total: float
    """The points of the events that count (the best N)."""
    points: tuple[float | None, ...]
    """The points of each event of the season, in its order; none where not played."""
    counted: tuple[bool, ...]
    """Whether each event's points count towards the total (best N)."""

    @property
    def display_rank(self) -> str:
        """``=3`` for a shared rank."""
        return f"={self.rank}" if self.tied else str(self.rank)

    @property
    def events_played(self) -> int:
        """How many of the season's events the player scored in."""
        return sum(p is not None for p in self.points)


def season_table(
    events: Sequence[Mapping[int, float]], *, best: int | None = None
) -> tuple[SeasonRow, ...]:
    """The season's table from each event's points by player, highest total first;
    players with equal totals share a rank (and are listed by id).

    Raises:
        FormatUserError: ``best`` below 1.
    """
    if best is not None and best < 1:
        raise FormatUserError(
            Message("Count at least one event per player, not %(best)s.", best=best)
        )
    players = sorted({p for event in events for p in event})
    rows: list[tuple[float, int, tuple[float | None, ...], tuple[bool, ...]]] = []
    for player in players:
        points = tuple(event.get(player) for event in events)
        played = sorted(
            (i for i, p in enumerate(points) if p is not None),
            key=lambda i: (-(points[i] or 0.0), i),
        )
        kept = set(played if best is None else played[:best])
        counted = tuple(i in kept for i in range(len(points)))
        total = sum(points[i] or 0.0 for i in kept)
        rows.append((total, player, points, counted))
    rows.sort(key=lambda r: (-r[0], r[1]))
    first_at: dict[float, int] = {}
    sharing: dict[float, int] = {}
    for index, row in enumerate(rows):
        first_at.setdefault(row[0], index)
        sharing[row[0]] = sharing.get(row[0], 0) + 1
    return tuple(
        SeasonRow(first_at[total] + 1, sharing[total] > 1, player, total, points, counted)
        for total, player, points, counted in rows
    )
