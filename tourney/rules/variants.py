"""Variants of the game as objects: the starting position and checker count of each.

Standard backgammon, nackgammon and hypergammon share every rule of movement; they
differ in where the checkers start and how many there are.
"""

from __future__ import annotations

from dataclasses import dataclass

from tourney.rules.board import Position
from tourney.rules.errors import NotationError
from tourney.rules.position_id import decode_position_id


@dataclass(frozen=True)
class Variant:
    """A variant's name, its checkers a side and its starting layout (own numbering)."""

    name: str
    checkers: int
    start: tuple[tuple[int, int], ...]

    def initial(self) -> Position:
        """The starting position, either side on roll."""
        layout = dict(self.start)
        return Position.from_points(layout, layout, checkers=self.checkers)

    def decode_position_id(self, position_id: str) -> Position:
        """Decode a gnubg Position ID, counting missing checkers as borne off.

        Raises:
            NotationError: the ID is malformed or holds too many checkers.
        """
        return decode_position_id(position_id, checkers=self.checkers)


STANDARD = Variant("standard", 15, ((24, 2), (13, 5), (8, 3), (6, 5)))
NACKGAMMON = Variant("nackgammon", 15, ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)))
HYPERGAMMON = Variant("hypergammon", 3, ((24, 1), (23, 1), (22, 1)))

VARIANTS = {variant.name: variant for variant in (STANDARD, NACKGAMMON, HYPERGAMMON)}


def variant_named(name: str) -> Variant:
    """The variant called ``name`` (``standard``, ``nackgammon``, ``hypergammon``).

    Raises:
        NotationError: no variant has that name.
    """
    try:
        return VARIANTS[name.lower()]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise NotationError(f"unknown variant {name!r}; choose one of {known}") from None
