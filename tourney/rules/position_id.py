"""gnubg Position IDs and eXtreme Gammon XGIDs.

A gnubg Position ID packs both sides' checkers into 80 bits: for the side *not* on roll
and then the side on roll, for each of its points 1-24 and then its bar, as many 1-bits
as checkers followed by a 0-bit. The bits fill ten bytes from the least significant bit
up, and the bytes are written in base64 without padding: 14 characters.
"""

from __future__ import annotations

import base64
import binascii
import re

from tourney.rules.board import BAR, CHECKERS, Checkers, Position
from tourney.rules.errors import NotationError

_BASE64_ID = re.compile(r"[A-Za-z0-9+/]{14}")


def _side_bits(side: Checkers) -> list[int]:
    bits: list[int] = []
    for point in range(1, BAR + 1):
        bits.extend([1] * side[point])
        bits.append(0)
    return bits


def encode_position_id(position: Position) -> str:
    """The gnubg Position ID of ``position`` with its mover on roll.

    >>> encode_position_id(Position.initial())
    '4HPwATDgc/ABMA'

    Raises:
        NotationError: a side has more than 15 checkers on the board.
    """
    if max(position.on_board()) > CHECKERS:
        raise NotationError("a Position ID holds at most 15 checkers a side")
    bits = _side_bits(position.opponent) + _side_bits(position.mover)
    key = bytearray(10)
    for index, bit in enumerate(bits):
        if bit:
            key[index >> 3] |= 1 << (index & 7)
    return base64.b64encode(bytes(key)).decode("ascii")[:14]


def decode_position_id(position_id: str, *, checkers: int = CHECKERS) -> Position:
    """The position a gnubg Position ID describes, its second side on roll.

    ``checkers`` is how many checkers each side has in the variant (15 in standard
    backgammon); those not on the board are borne off.

    >>> decode_position_id("4HPwATDgc/ABMA") == Position.initial()
    True

    Raises:
        NotationError: the text is not 14 base64 characters encoding a legal position.
    """
    text = position_id.strip()
    if text.lower().startswith("positionid:"):
        text = text.split(":", 1)[1].strip()
    if not _BASE64_ID.fullmatch(text):
        raise NotationError(
            f"a Position ID is 14 characters of A-Z, a-z, 0-9, + and /; got {position_id!r}"
        )
    try:
        key = base64.b64decode(text + "==", validate=True)
    except binascii.Error as error:
        raise NotationError(f"{position_id!r} is not valid base64: {error}") from None
    sides: list[list[int]] = [[0] * 26, [0] * 26]
    side, point, zeros = 0, 1, 0
    for index in range(80):
        bit = (key[index >> 3] >> (index & 7)) & 1
        if zeros == 2 * BAR:
            if bit:
                raise NotationError(f"{position_id!r} has bits set past the last point")
            continue
        if bit:
            sides[side][point] += 1
        else:
            zeros += 1
            point += 1
            if point > BAR:
                side, point = side + 1, 1
    if zeros < 2 * BAR:
        raise NotationError(f"{position_id!r} holds more than 15 checkers a side")
    for counts in sides:
        on_board = sum(counts)
        if on_board > checkers:
            raise NotationError(
                f"{position_id!r} puts {on_board} checkers of one side on the board; "
                f"the most is {checkers}"
            )
        counts[0] = checkers - on_board
    opponent, mover = (tuple(counts) for counts in sides)
    try:
        return Position(mover, opponent)
    except NotationError as error:
        raise NotationError(f"{position_id!r} is not a legal position: {error}") from None
