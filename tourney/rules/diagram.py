"""Text diagrams of a position, laid out like gnubg's ``show board``.

The side on roll plays as X from the bottom, its points numbered 1-12 along the bottom
edge right to left and 13-24 along the top; the opponent (O) moves the other way. Stacks
taller than five show the count in the fifth row as a hexadecimal digit, as gnubg does.
Checkers on the bar stand in the middle column, borne-off ones in the column at the right.
"""

from __future__ import annotations

from tourney.rules.board import BAR, OFF, Position
from tourney.rules.nardy import NardyPosition, opposite_point

_ROWS = 5


def _cell(count: int, row: int, mark: str) -> str:
    """The character for one row of a stack of ``count`` checkers, row 0 at the edge."""
    if count <= row:
        return " "
    if row == _ROWS - 1 and count > _ROWS:
        return format(count, "X")
    return mark


def _point_cells(position: Position, point: int, row: int) -> str:
    mine, theirs = position.mover[point], position.opponent[BAR - point]
    return _cell(mine, row, "X") if mine else _cell(theirs, row, "O")


def format_board(position: Position) -> str:
    """Draw ``position`` as text, the side on roll as X at the bottom.

    >>> print(format_board(Position.initial()).splitlines()[2])
     | X           O    |   | O              X |
    """
    mine_pips, their_pips = position.pips()
    lines = [
        f" Position ID: {position.to_id()}",
        " +13-14-15-16-17-18------19-20-21-22-23-24-+     O",
    ]
    for row in range(_ROWS):
        left = "".join(f" {_point_cells(position, p, row)} " for p in range(13, 19))
        right = "".join(f" {_point_cells(position, p, row)} " for p in range(19, 25))
        bar = _cell(position.opponent[BAR], row, "O")
        off = _cell(position.opponent[OFF], row, "O")
        lines.append(f" |{left}| {bar} |{right}| {off}".rstrip())
    lines.append(" |                  |BAR|                  |")
    for row in reversed(range(_ROWS)):
        left = "".join(f" {_point_cells(position, p, row)} " for p in range(12, 6, -1))
        right = "".join(f" {_point_cells(position, p, row)} " for p in range(6, 0, -1))
        bar = _cell(position.mover[BAR], row, "X")
        off = _cell(position.mover[OFF], row, "X")
        lines.append(f" |{left}| {bar} |{right}| {off}".rstrip())
    lines.append(" +12-11-10--9--8--7-------6--5--4--3--2--1-+     X (on roll)")
    lines.append(f" Pips: X {mine_pips}, O {their_pips}")
    return "\n".join(lines)


def format_nardy_board(position: NardyPosition) -> str:
    """Draw a long-nardy position, the side on roll as X moving from its head (24, top
    right) round to its home (1-6, bottom right); O's head is X's 12 point.

    >>> print(format_nardy_board(NardyPosition.initial()).splitlines()[2])
     |                  |   |                X |
    """
    def cell(point: int, row: int) -> str:
        mine, theirs = position.mover[point], position.opponent[opposite_point(point)]
        return _cell(mine, row, "X") if mine else _cell(theirs, row, "O")

    mine_pips, their_pips = position.pips()
    lines = [
        f" Long nardy position ID: {position.to_id()}",
        " +13-14-15-16-17-18------19-20-21-22-23-24-+     O",
    ]
    for row in range(_ROWS):
        left = "".join(f" {cell(p, row)} " for p in range(13, 19))
        right = "".join(f" {cell(p, row)} " for p in range(19, 25))
        lines.append(f" |{left}|   |{right}| {_cell(position.opponent[OFF], row, 'O')}".rstrip())
    lines.append(" |                  |   |                  |")
    for row in reversed(range(_ROWS)):
        left = "".join(f" {cell(p, row)} " for p in range(12, 6, -1))
        right = "".join(f" {cell(p, row)} " for p in range(6, 0, -1))
        lines.append(f" |{left}|   |{right}| {_cell(position.mover[OFF], row, 'X')}".rstrip())
    lines.append(" +12-11-10--9--8--7-------6--5--4--3--2--1-+     X (on roll)")
    lines.append(f" Pips: X {mine_pips}, O {their_pips}")
    return "\n".join(lines)
