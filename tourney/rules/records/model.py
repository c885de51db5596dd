"""The structured form of a match record, as read from a file and before any checking.

Terminology: a *record* is one match as a file tells it; an *action* is one thing a
player does that the record writes down (a roll and its play, a cube action, a result);
a *score line* is the score the record states before a game. Sides are ``Side.X`` for
the player the record names first (the left column of a ``.mat`` file) and ``Side.O``
for the second. Points in plays are in the mover's own numbering (25 the bar, 0 off).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from tourney.rules.board import Side
from tourney.rules.moves import Play


class ActionKind(Enum):
    """What an action line says a player did."""

    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RACCOON = "raccoon"
    WIN = "win"
    RESIGN = "resign"
    LOSS = "loss"
    COMMENT = "comment"


class PlayForm(Enum):
    """How the play after a roll is written."""

    MOVED = "moved"
    """Moves are written and could be read."""
    DANCE = "dance"
    """Nothing (or ``Cannot Move``): the record claims no move was possible."""
    UNKNOWN = "unknown"
    """``???``: the player rolled and then resigned."""
    UNREADABLE = "unreadable"
    """Text that is not a play."""


class ErrorKind(Enum):
    """The kind of a finding, for callers that group or count them."""

    UNREADABLE = "unreadable"
    BOUNDS = "bounds"
    """The file goes past a bound of the reader (a number of thousands of digits, JSON
    nested thousands deep or holding a NUL): it is not read at all, and the command
    line counts it as an unreadable file."""
    SYNTAX = "syntax"
    HEADER = "header"
    ILLEGAL_PLAY = "illegal-play"
    FALSE_DANCE = "false-dance"
    OPENING_DOUBLET = "opening-doublet"
    TURN_ORDER = "turn-order"
    ILLEGAL_DOUBLE = "illegal-double"
    CUBE_VALUE = "cube-value"
    CUBE_RESPONSE = "cube-response"
    SCORE_LINE = "score-line"
    RESULT = "result"
    RESIGNATION = "resignation"
    GAME_AFTER_MATCH = "game-after-match"
    UNFINISHED = "unfinished"
    NOTE = "note"
    WORK_LIMIT = "work-limit"
    """A turn whose possible plays are too many to check within a record check's work
    limit: the game is not checked from there on."""


@dataclass(frozen=True, slots=True)
class RecordError:
    """One finding in a record, located by game number and line (1-based) where known.

    ``message`` is one sentence a player can act on; ``str()`` prefixes the location the
    way the report prints it: ``game 3, line 41: ...``.
    """

    game: int | None
    line: int | None
    message: str
    kind: ErrorKind = ErrorKind.NOTE

    def __str__(self) -> str:
        where = []
        if self.game is not None:
            where.append(f"game {self.game}")
        if self.line is not None:
            where.append(f"line {self.line}")
        return f"{', '.join(where)}: {self.message}" if where else self.message

    def to_json(self) -> dict[str, int | str | None]:
        """The JSON form DESIGN §5 fixes: game, line and message."""
        return {"game": self.game, "line": self.line, "message": self.message}


@dataclass(frozen=True, slots=True)
class Action:
    """One action of one player (or a comment line) with the line it stands on."""

    line: int
    kind: ActionKind
    side: Side | None
    """The player the column gives it to; ``None`` for a comment line."""
    text: str = ""
    """The action as written, stripped."""
    dice: tuple[int, int] | None = None
    form: PlayForm | None = None
    play: Play | None = None
    """The play as written (each link of a chain one move), for a readable roll."""
    value: int | None = None
    """The cube value named by a double/beaver/raccoon, or N of ``Wins N points``."""
    and_the_match: bool = False


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its number, the stated score before it, and its actions in order."""

    number: int
    line: int
    score: tuple[int, int] | None = None
    """The score line's points for (first-named, second-named) player."""
    score_line: int | None = None
    names: tuple[str, str] | None = None
    actions: tuple[Action, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole match record as read: header, length, players and games.

    ``problems`` holds what the reader could not make sense of; the replay adds them to
    its report.
    """

    match_length: int | None
    players: tuple[str, str] | None
    games: tuple[GameRecord, ...] = ()
    tags: tuple[tuple[str, str], ...] = ()
    """Bracketed header tags ``[Name "value"]`` in file order, unknown ones included."""
    comments: tuple[str, ...] = ()
    """Header comment lines that are not tags, without the leading ``;``."""
    length_line: int | None = None
    encoding: str = "utf-8"
    """How the bytes were decoded: ``utf-8`` or ``latin-1``."""
    bom: bool = False
    crlf: bool = False
    problems: tuple[RecordError, ...] = ()
    warnings: tuple[RecordError, ...] = field(default=())
    variant: str | None = None
    """The variant a record names outside any header tag (a JSON record's ``variant``
    field); ``None``: the ``[Variation]`` tag decides, else standard backgammon."""
    match_form: str | None = None
    """The match form a record names (a JSON record's ``match_form``: ``tavli`` plays
    Portes, Plakoto and Fevga in turn); ``None``: every game in one variant."""

    def tag(self, name: str) -> str | None:
        """The value of the first header tag called ``name`` (any letter case)."""
        for key, value in self.tags:
            if key.lower() == name.lower():
                return value
        return None
