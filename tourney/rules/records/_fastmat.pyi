"""Typing for the compiled replay of clean .mat records (``_fastmat.c``)."""

from typing import TypeAlias

GameRow: TypeAlias = tuple[int, int, int, int, int, int, bool]
"""(number, winner 0/1, end 0 played/1 dropped/2 resigned, level 0-3, cube, points,
crawford)."""

Accepted: TypeAlias = tuple[int, str, str, tuple[GameRow, ...], tuple[int, int]]
"""(match length, first player, second player, games, final score)."""

def accept(text: str, crawford: int, holland: int, /) -> Accepted | None:
    """The results of a completely clean record, else ``None``."""
