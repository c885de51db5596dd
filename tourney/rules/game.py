"""How a game ends and what it is worth.

Terminology: a game is *played out* when one side bears off its last checker, *dropped*
when a side refuses a double, and *resigned* when a side gives up at a level it names.
The *level* is single, gammon or backgammon; the points are the cube value times the
level (a dropped double scores the cube value before the double, never multiplied).
"""

from __future__ import annotations

from enum import Enum, IntEnum

from tourney.rules.board import BAR, OFF, Position


class GameEnd(Enum):
    """How a game ended."""

    PLAYED = "played"
    DROPPED = "dropped"
    RESIGNED = "resigned"
    DRAWN = "drawn"
    """Long nardy's last-roll draw: nobody wins and nobody scores."""


class Level(IntEnum):
    """The result level of a played-out or resigned game, valued as its multiplier."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


def winning_level(position: Position) -> Level | None:
    """The level the mover has won at, if the mover has borne off every checker.

    The loser is gammoned with no checker borne off, and backgammoned when also a checker
    stands on the bar or in the winner's home board (the loser's points 19-24).

    >>> from tourney.rules.board import Position
    >>> winning_level(Position.from_points({}, {6: 15}))
    <Level.GAMMON: 2>
    >>> winning_level(Position.from_points({}, {6: 14, 20: 1}))
    <Level.BACKGAMMON: 3>
    >>> winning_level(Position.initial()) is None
    True
    """
    if any(position.mover[1:]):
        return None
    loser = position.opponent
    if loser[OFF] > 0:
        return Level.SINGLE
    if loser[BAR] or any(loser[19:25]):
        return Level.BACKGAMMON
    return Level.GAMMON


def game_points(end: GameEnd, cube_value: int, level: Level | None = None) -> int:
    """Points a game scores: the cube value times the level, or the cube alone on a drop.

    >>> game_points(GameEnd.PLAYED, 2, Level.GAMMON)
    4
    >>> game_points(GameEnd.DROPPED, 2)
    2
    >>> game_points(GameEnd.DRAWN, 2)
    0

    Raises:
        ValueError: a played-out or resigned game without a level, or a drop with one.
    """
    if end is GameEnd.DRAWN:
        return 0
    if end is GameEnd.DROPPED:
        if level is not None:
            raise ValueError("a dropped double has no result level")
        return cube_value
    if level is None:
        raise ValueError(f"a {end.value} game needs a result level")
    return cube_value * int(level)
