"""Tiny builders for game entries, so tests read like score sheets."""

from __future__ import annotations

from tourney.match import GameEntry
from tourney.rules import GameEnd, Level, Side

X = Side.X
O = Side.O  # noqa: E741 - the backgammon name of the second side


def single(winner: Side, cube: int = 1) -> GameEntry:
    """A game played out and won single on ``cube``."""
    return GameEntry(winner, GameEnd.PLAYED, cube, Level.SINGLE)


def gammon(winner: Side, cube: int = 1) -> GameEntry:
    """A game played out and won with a gammon on ``cube``."""
    return GameEntry(winner, GameEnd.PLAYED, cube, Level.GAMMON)


def backgammon(winner: Side, cube: int = 1) -> GameEntry:
    """A game played out and won with a backgammon on ``cube``."""
    return GameEntry(winner, GameEnd.PLAYED, cube, Level.BACKGAMMON)


def resigned(winner: Side, cube: int = 1, level: Level = Level.SINGLE) -> GameEntry:
    """A game the loser resigned at ``level`` on ``cube``."""
    return GameEntry(winner, GameEnd.RESIGNED, cube, level)


def drop(winner: Side, cube: int = 1) -> GameEntry:
    """A game won because the loser refused a double; ``cube`` is the value before it."""
    return GameEntry(winner, GameEnd.DROPPED, cube, None)
