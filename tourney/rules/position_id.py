"""gnubg Position IDs and eXtreme Gammon XGIDs.

Also eXtreme Gammon's XGID (see the section below).

A gnubg Position ID packs both sides' checkers into 80 bits: for the side *not* on roll
and then the side on roll, for each of its points 1-24 and then its bar, as many 1-bits
as checkers followed by a 0-bit. The bits fill ten bytes from the least significant bit
up, and the bytes are written in base64 without padding: 14 characters.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from tourney.rules.board import BAR, CHECKERS, Checkers, Position, Side
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
    return encode_counts(position.mover, position.opponent)


def encode_counts(mover: Checkers, opponent: Checkers) -> str:
    """Pack two sides' counts (26 each, own numbering) with gnubg's Position ID layout.

    Shared with variants whose points do not face each other as in backgammon (long
    nardy): the layout only needs each side's counts in its own numbering.
    """
    bits = _side_bits(opponent) + _side_bits(mover)
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
    sides = decode_counts(position_id)
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


def decode_counts(position_id: str) -> tuple[list[int], list[int]]:
    """Unpack a Position ID into (side not on roll, side on roll) counts, 26 each.

    Index 0 (borne off) is left at 0; nothing is checked beyond the bit layout.

    Raises:
        NotationError: the text is not 14 base64 characters of a valid bit layout.
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
    return sides[0], sides[1]


# --- XGID ---------------------------------------------------------------------------
# eXtreme Gammon's ID is ten colon-separated fields after "XGID=": 26 characters of
# checkers (index 0 the top player's bar, 1-24 the points in the bottom player's
# numbering, 25 the bottom player's bar; "A".."P" count the bottom player's checkers,
# "a".."p" the top player's, "-" an empty point), then the cube's exponent, its owner
# (1 bottom, 0 centre, -1 top), the side on turn (1 bottom, -1 top), the dice ("00" not
# yet rolled, "D"/"B"/"R" a double, beaver or raccoon awaiting an answer), the bottom
# and top scores, the Crawford flag (in money play: 1 Jacoby, 2 beavers, 3 both), the
# match length (0 for money) and the exponent of the highest cube allowed.
# Here the bottom player is Side.X and the top player Side.O.


@dataclass(frozen=True, slots=True)
class Xgid:
    """Everything an XGID holds; ``position`` has the side on turn as its mover."""

    position: Position
    turn: Side = Side.X
    cube_value: int = 1
    cube_owner: Side | None = None
    dice: tuple[int, int] | None = None
    cube_action: str = ""
    score: tuple[int, int] = (0, 0)
    rules_flag: int = 0
    match_length: int = 0
    max_cube_exponent: int = 10

    def __str__(self) -> str:
        return encode_xgid(self)


_XGID_FIELDS = 10


def _xgid_char(count: int, upper: bool) -> str:
    if count == 0:
        return "-"
    return chr((ord("A") if upper else ord("a")) + count - 1)


def encode_xgid(state: Xgid) -> str:
    """Write ``state`` as an XGID string, ``XGID=`` prefix included.

    >>> encode_xgid(Xgid(Position.initial()))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
    """
    mover, opponent = state.position.mover, state.position.opponent
    bottom, top = (mover, opponent) if state.turn is Side.X else (opponent, mover)
    chars = [_xgid_char(top[BAR], upper=False)]
    for point in range(1, 25):
        if bottom[point]:
            chars.append(_xgid_char(bottom[point], upper=True))
        else:
            chars.append(_xgid_char(top[25 - point], upper=False))
    chars.append(_xgid_char(bottom[BAR], upper=True))
    owner = {None: 0, Side.X: 1, Side.O: -1}[state.cube_owner]
    if state.cube_action:
        dice = state.cube_action
    elif state.dice:
        dice = f"{state.dice[0]}{state.dice[1]}"
    else:
        dice = "00"
    fields = [
        "".join(chars),
        str(state.cube_value.bit_length() - 1),
        str(owner),
        "1" if state.turn is Side.X else "-1",
        dice,
        str(state.score[0]),
        str(state.score[1]),
        str(state.rules_flag),
        str(state.match_length),
        str(state.max_cube_exponent),
    ]
    return "XGID=" + ":".join(fields)


def _xgid_int(text: str, name: str, xgid: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise NotationError(f"{xgid!r}: the {name} field must be a number, not {text!r}") from None


def decode_xgid(xgid: str, *, checkers: int = CHECKERS) -> Xgid:
    """Read an XGID (with or without the ``XGID=`` prefix).

    >>> decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10").dice
    (5, 2)

    Raises:
        NotationError: the text is not a well-formed XGID of a legal position.
    """
    text = xgid.strip()
    if text.upper().startswith("XGID="):
        text = text[5:]
    fields = text.split(":")
    if len(fields) < 9 or len(fields) > _XGID_FIELDS:
        raise NotationError(f"an XGID has ten fields separated by ':'; got {len(fields)}")
    board = fields[0]
    if len(board) != 26 or any(c != "-" and not ("a" <= c.lower() <= "p") for c in board):
        raise NotationError(
            f"{xgid!r}: the checkers field is 26 characters of A-P, a-p and '-'"
        )
    bottom, top = [0] * 26, [0] * 26
    for index, char in enumerate(board):
        if char == "-":
            continue
        count = ord(char.lower()) - ord("a") + 1
        if char.isupper():
            if index == 0:
                raise NotationError(f"{xgid!r}: the top player's bar holds a bottom checker")
            bottom[index] += count  # index 25 is the bottom player's bar
        else:
            if index == 25:
                raise NotationError(f"{xgid!r}: the bottom player's bar holds a top checker")
            top[BAR if index == 0 else 25 - index] += count
    for side in (bottom, top):
        on_board = sum(side)
        if on_board > checkers:
            raise NotationError(f"{xgid!r} puts {on_board} checkers of one side on the board")
        side[0] = checkers - on_board
    cube_exponent = _xgid_int(fields[1], "cube", xgid)
    owner_code = _xgid_int(fields[2], "cube owner", xgid)
    turn_code = _xgid_int(fields[3], "turn", xgid)
    if owner_code not in (-1, 0, 1) or turn_code not in (-1, 1) or not 0 <= cube_exponent <= 15:
        raise NotationError(f"{xgid!r}: cube, cube owner or turn out of range")
    turn = Side.X if turn_code == 1 else Side.O
    dice_text = fields[4]
    dice: tuple[int, int] | None = None
    cube_action = ""
    if dice_text in ("D", "B", "R"):
        cube_action = dice_text
    elif len(dice_text) == 2 and dice_text != "00":
        if not all(c in "123456" for c in dice_text):
            raise NotationError(f"{xgid!r}: dice {dice_text!r} are not two numbers 1-6")
        dice = (int(dice_text[0]), int(dice_text[1]))
    elif dice_text != "00":
        raise NotationError(f"{xgid!r}: dice {dice_text!r} are not 00, two dice, D, B or R")
    mover, opponent = (bottom, top) if turn is Side.X else (top, bottom)
    try:
        position = Position(tuple(mover), tuple(opponent))
    except NotationError as error:
        raise NotationError(f"{xgid!r} is not a legal position: {error}") from None
    return Xgid(
        position=position,
        turn=turn,
        cube_value=1 << cube_exponent,
        cube_owner={0: None, 1: Side.X, -1: Side.O}[owner_code],
        dice=dice,
        cube_action=cube_action,
        score=(_xgid_int(fields[5], "score", xgid), _xgid_int(fields[6], "score", xgid)),
        rules_flag=_xgid_int(fields[7], "Crawford", xgid),
        match_length=_xgid_int(fields[8], "match length", xgid),
        max_cube_exponent=_xgid_int(fields[9], "cube limit", xgid) if len(fields) == 10 else 10,
    )
