"""Plain value types shared by every tournament format.

Terminology: an *entrant* is a player (later perhaps a team) registered in an event and
known by an :data:`EntrantId`. A *pairing* sets two entrants against each other in a
round; a *bye* gives one entrant a round off. A *match outcome* is the finished result of
a pairing or a bye, with the match score in the order the pairing names the two sides.
A *standing* is one row of a table: the rank, whether it is shared, the metrics that
placed it, and why it is ahead of the row below when the two had equal match wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NewType

EntrantId = NewType("EntrantId", int)
"""An entrant's id; in simulations 1..N with 1 the top seed."""

MatchId = NewType("MatchId", str)
"""A bracket match id, stable across results: ``"<flight>/<round>/<index>"``."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two entrants to play a match in a round."""

    a: EntrantId
    b: EntrantId


@dataclass(frozen=True, slots=True)
class Bye:
    """An entrant with no opponent this round."""

    entrant: EntrantId


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A finished match (or bye) as standings and tiebreaks see it."""

    round: int
    a: EntrantId
    b: EntrantId | None
    """``None`` for a bye."""
    winner: EntrantId
    """For a bye, the entrant who had it."""
    score: tuple[int, int] = (0, 0)
    """Points scored by ``a`` and ``b`` (may overshoot the match length)."""
    length: int = 0
    """The match length N; net game points cap each side's points at N."""
    half_score: tuple[int, int] | None = None
    """The score in half points where ½-½ draws gave halves (``tourney.match``'s
    ``half_score``); ``None``: twice ``score``."""

    @property
    def is_bye(self) -> bool:
        """Whether this outcome is a bye rather than a played match."""
        return self.b is None

    @property
    def loser(self) -> EntrantId | None:
        """The entrant who lost, or ``None`` for a bye."""
        if self.b is None:
            return None
        return self.b if self.winner == self.a else self.a

    def opponent_of(self, entrant: EntrantId) -> EntrantId | None:
        """The other side of the match, or ``None`` for a bye."""
        return self.b if entrant == self.a else self.a

    def points_of(self, entrant: EntrantId) -> tuple[int, int]:
        """Points won and lost by ``entrant`` in this match."""
        return self.score if entrant == self.a else (self.score[1], self.score[0])

    def half_points_of(self, entrant: EntrantId) -> int:
        """Half points ``entrant`` scored in this match (a ½-½ draw gives 1)."""
        halves = self.half_score or (2 * self.score[0], 2 * self.score[1])
        return halves[0] if entrant == self.a else halves[1]


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of a standings table."""

    entrant: EntrantId
    rank: int
    """1 + the number of entrants placed strictly ahead."""
    tied: bool
    """Whether another row shares this rank (shown as "=3")."""
    metrics: tuple[tuple[str, int], ...]
    """Match wins first, then each tiebreak of the chain, by name."""
    reason: str | None = None
    """Why this row is above the next one when their match wins were equal."""

    def metric(self, name: str) -> int:
        """The value of one metric by name.

        Raises:
            KeyError: the standings were not computed with that metric.
        """
        for key, value in self.metrics:
            if key == name:
                return value
        raise KeyError(name)

    @property
    def display_rank(self) -> str:
        """The rank as printed: ``"=3"`` when shared."""
        return f"={self.rank}" if self.tied else str(self.rank)
