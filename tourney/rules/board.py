"""Positions: where every checker of both sides stands.

Terminology: the *mover* is the side on roll; the *opponent* the other side. Each side
counts points from its own ace point: point 1 is its ace point, 24 its farthest point
(the opponent's ace point), 25 its bar and 0 the tray of checkers it has borne off. The
same physical point is ``p`` for one side and ``25 - p`` for the other. The *home board*
is a side's points 1 to 6.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TypeAlias

from tourney.rules.errors import NotationError

BAR = 25
OFF = 0
CHECKERS = 15

Point: TypeAlias = int
"""A point in the mover's numbering: 1-24, ``BAR`` (25) or ``OFF`` (0)."""

Checkers: TypeAlias = tuple[int, ...]
"""One side's checkers: 26 counts indexed by point, index 0 the borne-off checkers and
index 25 the bar."""


class Side(IntEnum):
    """The two players of a game or match, in the order a record names them."""

    X = 0
    O = 1  # noqa: E741 - the backgammon name of the second side

    @property
    def opposite(self) -> Side:
        """The other side."""
        return Side(1 - self)


def _side_layout(points: dict[int, int], total: int) -> Checkers:
    counts = [0] * 26
    for point, count in points.items():
        counts[point] = count
    counts[OFF] = total - sum(counts)
    return tuple(counts)


@dataclass(frozen=True, slots=True)
class Position:
    """Both sides' checkers, seen from the side on roll.

    ``mover`` and ``opponent`` each hold 26 counts in that side's own numbering (index 0
    borne off, 1-24 the points, 25 the bar).

    >>> Position.initial().pips()
    (167, 167)
    """

    mover: Checkers
    opponent: Checkers

    def __post_init__(self) -> None:
        for name, side in (("mover", self.mover), ("opponent", self.opponent)):
            if len(side) != 26 or any(count < 0 for count in side):
                raise NotationError(f"{name}'s checkers must be 26 non-negative counts")
        for point in range(1, 25):
            if self.mover[point] and self.opponent[25 - point]:
                raise NotationError(
                    f"both sides have checkers on the mover's {point} point"
                )

    @classmethod
    def _trusted(cls, mover: Checkers, opponent: Checkers) -> Position:
        """Build without validation: for the move generator, whose results are legal."""
        position = object.__new__(cls)
        object.__setattr__(position, "mover", mover)
        object.__setattr__(position, "opponent", opponent)
        return position

    @classmethod
    def initial(cls) -> Position:
        """The standard starting position, either side on roll."""
        start = _side_layout({24: 2, 13: 5, 8: 3, 6: 5}, CHECKERS)
        return cls(start, start)

    @classmethod
    def from_points(
        cls, mover: dict[int, int], opponent: dict[int, int], *, checkers: int = CHECKERS
    ) -> Position:
        """Build a position from ``{point: count}`` maps in each side's own numbering.

        Checkers not placed are counted as borne off.

        >>> Position.from_points({6: 15}, {6: 15}).mover[6]
        15
        """
        return cls(_side_layout(mover, checkers), _side_layout(opponent, checkers))

    def turned(self) -> Position:
        """The same position with the other side on roll."""
        # Already validated as a whole; only the point of view changes.
        return Position._trusted(self.opponent, self.mover)

    def pips(self) -> tuple[int, int]:
        """Pip counts of (mover, opponent): the dice total each needs to bear off."""
        return (
            sum(point * count for point, count in enumerate(self.mover)),
            sum(point * count for point, count in enumerate(self.opponent)),
        )

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off by (mover, opponent)."""
        return (self.mover[OFF], self.opponent[OFF])

    def on_board(self) -> tuple[int, int]:
        """Checkers not yet borne off (on a point or the bar) of (mover, opponent)."""
        return (sum(self.mover[1:]), sum(self.opponent[1:]))

    def opponent_at(self, point: int) -> int:
        """How many opponent checkers stand on the mover's ``point`` (1-24)."""
        return self.opponent[25 - point]

    def __repr__(self) -> str:
        from tourney.rules.position_id import encode_position_id

        try:
            return f"Position.from_id({encode_position_id(self)!r})"
        except ValueError:
            return f"Position(mover={self.mover!r}, opponent={self.opponent!r})"

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Decode a gnubg Position ID (14 characters).

        Raises:
            NotationError: the text is not a valid Position ID.
        """
        from tourney.rules.position_id import decode_position_id

        return decode_position_id(position_id)

    def to_id(self) -> str:
        """Encode as a gnubg Position ID, with this position's mover on roll."""
        from tourney.rules.position_id import encode_position_id

        return encode_position_id(self)
