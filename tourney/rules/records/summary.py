"""A match known only game by game (a score sheet): what the record writers need of it.

Games entered by hand name the winner, how the game ended, the cube and the points, but
no rolls; ``format_mat_results`` and ``format_sgf_results`` write such a match as a record
without moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from tourney.rules.board import Side
from tourney.rules.game import GameEnd


@dataclass(frozen=True, slots=True)
class MatchHeader:
    """What every game tree of a written match repeats, and the details of its first."""

    players: tuple[str, str]
    match_length: int
    crawford: bool = True
    jacoby: bool = False
    variation: str | None = None
    """A ``.mat`` ``[Variation]`` value (``NackGammon``, ``HyperGammon (3)``) or ``None``."""
    details: tuple[tuple[str, str], ...] = ()
    """SGF root properties of the first game only (``EV``, ``RO``, ``PC``, ``DT``...)."""


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One game known only by its result: who won, how, the cube, the points."""

    winner: Side
    end: GameEnd
    cube: int
    """The cube in play at the end (for a dropped double, the value before it)."""
    points: int
    doubled_by: tuple[Side, ...] = ()
    """Who turned the cube, in order, where known; otherwise the winner's opponent
    doubles first and the players alternate."""


def cube_actions(summary: GameSummary) -> list[tuple[str, Side]]:
    """The cube actions a game's result implies, as (``double``/``take``/``drop``, side).

    The cube ends on the winner's side: the opponent doubled last (so the winner of a
    dropped redouble can redouble).

    >>> [(word, side.name) for word, side in
    ...  cube_actions(GameSummary(Side.X, GameEnd.DROPPED, 2, 2))]
    [('double', 'O'), ('take', 'X'), ('double', 'X'), ('drop', 'O')]
    """
    turns = summary.cube.bit_length() - 1
    doubler = summary.winner.opposite if turns % 2 else summary.winner
    order = list(summary.doubled_by) or [doubler if i % 2 == 0 else doubler.opposite
                                         for i in range(turns)]
    actions: list[tuple[str, Side]] = []
    for side in order[:turns]:
        actions += [("double", side), ("take", side.opposite)]
    if summary.end is GameEnd.DROPPED:
        actions += [("double", summary.winner), ("drop", summary.winner.opposite)]
    return actions


