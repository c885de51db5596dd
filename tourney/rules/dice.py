"""Rolls of two dice.

Terminology: a *roll* is the two dice thrown together; a *doublet* is a roll of two equal
dice, played as four moves of that number.
"""

from __future__ import annotations

from dataclasses import dataclass

from tourney.rules.errors import NotationError

ALL_ROLLS: tuple[tuple[int, int], ...] = tuple(
    (high, low) for high in range(1, 7) for low in range(1, high + 1)
)
"""The 21 distinct rolls, higher die first."""


@dataclass(frozen=True, slots=True)
class Roll:
    """Two dice, kept in the order given (the order carries no meaning in play).

    >>> Roll.parse("31").dice
    (3, 1)
    >>> Roll(4, 4).moves
    (4, 4, 4, 4)
    """

    first: int
    second: int

    def __post_init__(self) -> None:
        for die in (self.first, self.second):
            if not isinstance(die, int) or not 1 <= die <= 6:
                raise NotationError(f"a die shows 1 to 6, not {die!r}")

    @classmethod
    def parse(cls, text: str) -> Roll:
        """Read dice written as ``31``, ``3 1``, ``3-1`` or ``3,1``.

        Raises:
            NotationError: the text is not two dice from 1 to 6.
        """
        digits = [c for c in text.strip() if c not in " -,/x"]
        if len(digits) != 2 or not all(c in "123456" for c in digits):
            raise NotationError(f"dice must be two digits from 1 to 6, like 31; got {text!r}")
        return cls(int(digits[0]), int(digits[1]))

    @property
    def dice(self) -> tuple[int, int]:
        """The two dice as given."""
        return (self.first, self.second)

    @property
    def is_doublet(self) -> bool:
        """Whether both dice show the same number."""
        return self.first == self.second

    @property
    def high(self) -> int:
        """The larger die."""
        return max(self.first, self.second)

    @property
    def low(self) -> int:
        """The smaller die."""
        return min(self.first, self.second)

    @property
    def moves(self) -> tuple[int, ...]:
        """The numbers to move: four for a doublet, else the two dice."""
        if self.is_doublet:
            return (self.first,) * 4
        return (self.first, self.second)

    def __str__(self) -> str:
        return f"{self.first}{self.second}"

    def __repr__(self) -> str:
        return f"Roll({self.first}, {self.second})"
