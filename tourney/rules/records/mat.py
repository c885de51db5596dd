"""Reading ``.mat`` match files (Jellyfish, gnubg, XG and friends) into a ``MatchRecord``.

Terminology: a *move line* is a numbered line ``12) ...`` holding at most one action of
each player: the *left* half belongs to the player the score line names first, the
*right* half to the second. The reader finds actions by their tokens (``64:``,
``Doubles``, ``Takes``, ``Wins`` ...) and uses the column only to tell which player a
lone action belongs to (MAT_FORMAT §4.2): widths vary between producers and a long left
half pushes the right half along, so fixed columns would misread real files.

The reader never raises on bad input; what it cannot read becomes a problem in the
record, located by line.
"""

from __future__ import annotations

import re

from tourney.rules.board import Side
from tourney.rules.errors import NotationError
from tourney.rules.messages import Message
from tourney.rules.moves import parse_play
from tourney.rules.records.model import (
    Action,
    ActionKind,
    ErrorKind,
    GameRecord,
    MatchRecord,
    PlayForm,
    RecordError,
)

DEFAULT_MAX_BYTES = 5 * 1024 * 1024
"""Files larger than this are refused with an error (configurable per call)."""
MAX_DIGITS = 9
"""Numbers in a record (match length, scores, cube values, game numbers) have at most
this many digits, as in the compiled reader; a longer one is no number a match needs."""

_BOM = b"\xef\xbb\xbf"
_MATCH_LINE = re.compile(r"\s*(-?\d+)\s*[- ]\s*point\s+match\b.*", re.IGNORECASE)
_GAME_LINE = re.compile(r"\s*Game\s*(\d{0,9})\s*")
_TAG = re.compile(r"\[\s*([^\]\"]*?)\s*\"(.*)\"\s*\]")
_SCORE_LINE = re.compile(r"\s*(.*?)\s*:\s*(-?\d{1,9})\s+(.*?)\s*:\s*(-?\d{1,9})\s*")
_RATING_SUFFIX = re.compile(r",\s*\d+(?:\.\d+)?$")
_NUMBERED = re.compile(r"\s*(\d+)\)")
_ACTION_START = re.compile(
    r"(?<![\w/*])(?:(?P<dice>\d\d):|(?P<word>doubles?|beavers?|raccoons?|takes?|accepts?"
    r"|drops?|passes|rejects?|wins?|resigns?|losses|loses)\b)",
    re.IGNORECASE,
)
_DOUBLE = re.compile(r"\w+\s*(?:=>|=|to)?\s*(\d{1,9})?\s*", re.IGNORECASE)
_RESULT = re.compile(
    r"\w+\s+(\d{1,9})\s+points?\s*(and\s+the\s+match)?\s*\.?\s*", re.IGNORECASE
)
_RIGHT_COLUMN = 16
"""A lone action starting at this character or later is the right-hand player's: left
halves start right after the move number (character 5 in every producer we know), right
halves at character 33 or later."""

_WORD_KIND = {
    "double": ActionKind.DOUBLE,
    "beaver": ActionKind.BEAVER,
    "raccoo": ActionKind.RACCOON,
    "take": ActionKind.TAKE,
    "accept": ActionKind.TAKE,
    "drop": ActionKind.DROP,
    "pass": ActionKind.DROP,
    "reject": ActionKind.DROP,
    "win": ActionKind.WIN,
    "resign": ActionKind.RESIGN,
    "los": ActionKind.LOSS,
}


def decode_mat(data: bytes) -> tuple[str, str, bool]:
    """Decode a file's bytes: UTF-8 (a BOM is dropped), else Latin-1.

    Returns the text, the encoding used and whether a BOM was present.

    >>> decode_mat(b"\\xef\\xbb\\xbf 1 point match")
    (' 1 point match', 'utf-8', True)
    >>> decode_mat(b"K\\xe9vin")
    ('Kévin', 'latin-1', False)
    """
    bom = data.startswith(_BOM)
    if bom:
        data = data[len(_BOM):]
    try:
        return data.decode("utf-8"), "utf-8", bom
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1", bom


def read_mat(
    data: bytes | str, *, max_bytes: int = DEFAULT_MAX_BYTES, size: int | None = None
) -> MatchRecord:
    """Read a ``.mat`` file's contents into a ``MatchRecord``; never raises on bad input.

    ``size`` is the file's full size when the caller read only the first ``max_bytes + 1``
    bytes of a larger file.

    >>> record = read_mat(" 1 point match\\n\\n Game 1\\n A : 0   B : 0\\n  1) 31: 8/5 6/5\\n")
    >>> record.match_length, record.players, record.games[0].actions[0].dice
    (1, ('A', 'B'), (3, 1))
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    total = max(size or 0, len(raw))
    if total > max_bytes:
        problem = RecordError(
            None,
            None,
            Message(
                "the file is %(total)s bytes, over the limit of %(max_bytes)s bytes; not read",
                total=format(total, ','), max_bytes=format(max_bytes, ','),
            ),
            ErrorKind.UNREADABLE,
        )
        return MatchRecord(None, None, problems=(problem,))
    if isinstance(data, str):
        text, encoding, bom = data.removeprefix("\ufeff"), "utf-8", data.startswith("\ufeff")
    else:
        text, encoding, bom = decode_mat(data)
    return _Reader(text, encoding, bom).read()


class _Reader:
    def __init__(self, text: str, encoding: str, bom: bool) -> None:
        self.lines = text.split("\n")
        self.crlf = any(line.endswith("\r") for line in self.lines)
        self.encoding = encoding
        self.bom = bom
        self.problems: list[RecordError] = []
        self.warnings: list[RecordError] = []
        self.tags: list[tuple[str, str]] = []
        self.comments: list[str] = []
        self.games: list[GameRecord] = []

    def problem(self, game: int | None, line: int, message: str, kind: ErrorKind) -> None:
        self.problems.append(RecordError(game, line, message, kind))

    def read(self) -> MatchRecord:
        if self.encoding != "utf-8":
            self.warnings.append(
                RecordError(None, None, Message("the file is not UTF-8; it was read as Latin-1"))
            )
        if "\x00" in "".join(self.lines[:50]):
            self.problem(None, 1, Message("the file holds binary data, not a match record"),
                         ErrorKind.UNREADABLE)
        length, length_line, start = self._header()
        players: tuple[str, str] | None = None
        if length_line is not None:
            self._games(start)
            for game in self.games:
                if game.names is not None:
                    players = game.names
                    break
        return MatchRecord(
            match_length=length,
            players=players,
            games=tuple(self.games),
            tags=tuple(self.tags),
            comments=tuple(self.comments),
            length_line=length_line,
            encoding=self.encoding,
            bom=self.bom,
            crlf=self.crlf,
            problems=tuple(self.problems),
            warnings=tuple(self.warnings),
        )

    # --- header -----------------------------------------------------------------------

    def _header(self) -> tuple[int | None, int | None, int]:
        for index, raw in enumerate(self.lines):
            line = raw.rstrip("\r")
            stripped = line.strip()
            if not stripped:
                continue
            if stripped[0] in ";#":
                self._header_comment(stripped[1:].strip())
                continue
            match = _MATCH_LINE.fullmatch(line)
            if match:
                digits = len(match.group(1).lstrip("-"))
                if digits > MAX_DIGITS:
                    self.problem(None, index + 1, Message(
                        "the match length has %(digits)s digits, more than any match needs; "
                        "not read",
                        digits=format(digits, ','),
                    ), ErrorKind.BOUNDS)
                    return None, None, index + 1
                length = int(match.group(1))
                if length < 0:
                    self.problem(None, index + 1, Message(
                        "a match length of %(length)s is impossible",
                        length=length,
                    ),
                                 ErrorKind.HEADER)
                    return None, None, index + 1
                return length, index + 1, index + 1
            if _GAME_LINE.fullmatch(line):
                break
            self.warnings.append(
                RecordError(None, index + 1, Message(
                    "header line not understood: %(stripped)s",
                    stripped=repr(stripped[:60]),
                ))
            )
        self.problems.append(
            RecordError(None, None, Message("not a match record: no 'N point match' line"),
                        ErrorKind.HEADER)
        )
        return None, None, len(self.lines)

    def _header_comment(self, text: str) -> None:
        match = _TAG.fullmatch(text)
        if match:
            self.tags.append((match.group(1), match.group(2)))
        else:
            self.comments.append(text)

    # --- games ------------------------------------------------------------------------

    def _games(self, start: int) -> None:
        number: int | None = None
        game_line = 0
        score: tuple[int, int] | None = None
        score_line: int | None = None
        names: tuple[str, str] | None = None
        actions: list[Action] = []
        expect_score = False

        def close() -> None:
            if number is not None:
                self.games.append(
                    GameRecord(number, game_line, score, score_line, names, tuple(actions))
                )

        for index in range(start, len(self.lines)):
            line = self.lines[index].rstrip("\r")
            lineno = index + 1
            stripped = line.strip()
            if not stripped:
                continue
            game_match = _GAME_LINE.fullmatch(line)
            if game_match:
                close()
                number = int(game_match.group(1)) if game_match.group(1) else len(self.games) + 1
                if not game_match.group(1):
                    self.warnings.append(RecordError(number, lineno, Message(
                        "game line without number",
                    )))
                game_line, score, score_line, names, actions = lineno, None, None, None, []
                expect_score = True
                continue
            if stripped[0] in ";#":
                if number is None:
                    self._header_comment(stripped[1:].strip())
                else:
                    actions.append(Action(lineno, ActionKind.COMMENT, None, stripped))
                continue
            if number is None:
                self.problem(None, lineno, Message(
                    "text before the first game: %(stripped)s",
                    stripped=repr(stripped[:60]),
                ),
                             ErrorKind.SYNTAX)
                continue
            if expect_score:
                expect_score = False
                parsed = self._score_line(line)
                if parsed is not None:
                    names, score = parsed
                    score_line = lineno
                    continue
                self.problem(number, lineno, Message(
                    "the game has no score line ('Name : 0   Name : 0')",
                ),
                             ErrorKind.SYNTAX)
            actions.extend(self._move_line(line, lineno, number))
        close()

    def _score_line(self, line: str) -> tuple[tuple[str, str], tuple[int, int]] | None:
        match = _SCORE_LINE.fullmatch(line)
        if not match or _NUMBERED.match(line):
            return None
        first = _RATING_SUFFIX.sub("", match.group(1)).strip()
        second = _RATING_SUFFIX.sub("", match.group(3)).strip()
        return (first, second), (int(match.group(2)), int(match.group(4)))

    def _move_line(self, line: str, lineno: int, game: int) -> list[Action]:
        numbered = _NUMBERED.match(line)
        body_start = numbered.end() if numbered else 0
        starts = list(_ACTION_START.finditer(line, body_start))
        if numbered and not line[body_start:].strip():
            # Both halves empty: Backgammon Studio numbers a line after a game's result.
            return []
        if not starts:
            self.problem(game, lineno, Message(
                "line not understood: %(strip)s",
                strip=repr(line.strip()[:60]),
            ),
                         ErrorKind.SYNTAX)
            return []
        lead = line[body_start:starts[0].start()].strip()
        if lead:
            self.problem(game, lineno, Message(
                "text not understood: %(lead)s",
                lead=repr(lead[:60]),
            ), ErrorKind.SYNTAX)
        actions: list[Action] = []
        for number, match in enumerate(starts):
            end = starts[number + 1].start() if number + 1 < len(starts) else len(line)
            if number == 0:
                side = Side.X if match.start() < _RIGHT_COLUMN else Side.O
            else:
                side = Side.O
                if actions and actions[-1].side is Side.O and number == 1:
                    self.problem(game, lineno, Message(
                        "two actions of the right-hand player on one line",
                    ),
                                 ErrorKind.SYNTAX)
            if number >= 2:
                self.problem(game, lineno, Message("more than two actions on one line"),
                             ErrorKind.SYNTAX)
            action = self._action(line[match.start():end].strip(), match, side, lineno, game)
            if action is not None:
                actions.append(action)
        return actions

    def _action(
        self, text: str, match: re.Match[str], side: Side, lineno: int, game: int
    ) -> Action | None:
        dice_text = match.group("dice")
        if dice_text is not None:
            return self._roll(text, dice_text, side, lineno, game)
        word = match.group("word").lower()
        kind = next(kind for prefix, kind in _WORD_KIND.items() if word.startswith(prefix))
        if kind in (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON):
            found = _DOUBLE.fullmatch(text)
            if found is None:
                self.problem(game, lineno, Message(
                    "cube action not understood: %(text)s",
                    text=repr(text[:60]),
                ),
                             ErrorKind.SYNTAX)
                return None
            value = int(found.group(1)) if found.group(1) else None
            return Action(lineno, kind, side, text, value=value)
        if kind in (ActionKind.WIN, ActionKind.LOSS):
            result = _RESULT.fullmatch(text)
            if result is None:
                self.problem(game, lineno, Message(
                    "result not understood: %(text)s",
                    text=repr(text[:60]),
                ),
                             ErrorKind.SYNTAX)
                return None
            return Action(lineno, kind, side, text, value=int(result.group(1)),
                          and_the_match=result.group(2) is not None)
        if text.split()[0].lower() != text.lower().rstrip("."):
            self.problem(game, lineno, Message(
                "text not understood after %(word)s: %(text)s",
                word=repr(word), text=repr(text[:60]),
            ),
                         ErrorKind.SYNTAX)
        return Action(lineno, kind, side, text)

    def _roll(self, text: str, dice_text: str, side: Side, lineno: int, game: int) -> Action:
        first, second = int(dice_text[0]), int(dice_text[1])
        rest = text[3:].strip()
        if not (1 <= first <= 6 and 1 <= second <= 6):
            self.problem(game, lineno, Message(
                "%(dice_text)s: a die shows 1 to 6",
                dice_text=dice_text,
            ), ErrorKind.SYNTAX)
            return Action(lineno, ActionKind.ROLL, side, text, None, PlayForm.UNREADABLE)
        dice = (first, second)
        if not rest or rest.lower() in ("cannot move", "can't move", "no move"):
            return Action(lineno, ActionKind.ROLL, side, text, dice, PlayForm.DANCE)
        if rest == "???":
            return Action(lineno, ActionKind.ROLL, side, text, dice, PlayForm.UNKNOWN)
        try:
            play = parse_play(rest)
        except NotationError as error:
            self.problem(game, lineno, Message("%(text)s: %(error)s", text=text, error=error),
                         ErrorKind.SYNTAX)
            return Action(lineno, ActionKind.ROLL, side, text, dice, PlayForm.UNREADABLE)
        return Action(lineno, ActionKind.ROLL, side, text, dice, PlayForm.MOVED, play)
