"""Reading eXtreme Gammon's binary ``.xg`` match files into a ``MatchRecord``.

Terminology, from eXtreme Gammon's published format description (``xgformat.aspx``): an
``.xg`` file is a *container*: an 8,232-byte RichGameFormat header that starts with the
magic ``RGMH``, a JPEG *thumbnail*, then a zlib *archive* of a few files. The archive
ends with a 36-byte *trailer* (CRC-32 of the archive, file count, version, directory
size, data size, whether the directory is compressed); in front of the trailer stands the
*directory*, one 532-byte entry per file (name, original and stored size, start, CRC-32,
stored or compressed). The *game file* ``temp.xg`` holds the match as fixed 2,560-byte
*save records*; byte 8 of each is its type: match header, game header, cube decision,
checker move, game footer, match footer.

The fields read (little-endian; offsets within a save record):

- match header: the players (``string[40]`` at 9 and 50, and from file version 24 on
  the Unicode names at 880 and 1138, preferred), the match length at 92 (99999 for a
  money session), the variation at 96 (0 backgammon, 1 nackgammon, 2 hypergammon,
  3 longgammon), the Crawford, Jacoby and beaver rules at 100-102, the date at 128 (a
  Delphi day count), event, location and round (ANSI at 136, 283, 417; Unicode at 622,
  1396, 1654), the file version at 552 and the magic ``DMLI`` at 556;
- game header: the score before the game at 12 and 16, the number of automatic doubles
  at 64;
- cube decision: who is on roll at 12 (1 the first player, -1 the second), whether they
  doubled at 16 (1: doubled), the answer at 20 (0 pass, 1 take, 2 beaver), the doubler's
  answer to a beaver at 24 (0 pass, 1 take, 2 raccoon), the answer to a raccoon at 28,
  and from version 24 on whether the position was edited at 296;
- checker move: the mover at 64, the play at 68 as four (from, to) pairs of 32-bit
  integers in the mover's own numbering counted from 0 (0-23 the points 1-24, 24 the
  bar, a negative destination borne off, a from of -1 ends the list; all eight zero
  also means no move), the dice at 100 and 104, and from version 24 on whether the
  position was edited at 2528;
- game footer: the winner at 24 (1 or -1) and the points won at 28.

The first player of the file is ``Side.X``, the left column of a ``.mat`` export. The
reader never raises on bad input: what it cannot read becomes a problem of the record.
It reads the archive one record at a time, so memory stays bounded whatever the archive
claims to hold: a game file declared larger than ``MAX_RECORDS`` records, or that
inflates past its declared size, is refused without being inflated.

An ``.xg`` file has no lines, so actions carry *move numbers* where a text record has
line numbers: the numbered move of the game as a ``.mat`` export would number it (the
opening roll is move 1, each move holds one action of each player, the first player's
first). ``locate_by_move`` words a report's findings that way.
"""

from __future__ import annotations

import dataclasses
import math
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta

from tourney.rules.board import BAR, OFF, Side
from tourney.rules.messages import Message
from tourney.rules.moves import Move, Play
from tourney.rules.records.mat import DEFAULT_MAX_BYTES, MAX_DIGITS
from tourney.rules.records.model import (
    Action,
    ActionKind,
    ErrorKind,
    GameRecord,
    MatchRecord,
    PlayForm,
    RecordError,
)
from tourney.rules.records.replay import RecordReport

XG_MAGIC = b"RGMH"
"""The first four bytes of every ``.xg`` (and ``.xgp``) file."""
XG_HEADER_BYTES = 8232
"""The size of the RichGameFormat header in front of the thumbnail and the archive."""
RECORD_BYTES = 2560
"""The size of every save record of the game file."""
TRAILER_BYTES = 36
DIRECTORY_ENTRY_BYTES = 532
MAX_FILES = 16
"""More files than an archive holds (eXtreme Gammon writes four at most)."""
MAX_RECORDS = 20_000
"""More save records than any match needs (a 25-point match has a few thousand); a game
file of more is not read, so a small file cannot make the reader inflate gigabytes."""
GAME_FILE = "temp.xg"
SAVE_MAGIC = 0x494C4D44
"""``DMLI``: the magic number of a match header."""
MONEY_LENGTH = 99999
"""The match length eXtreme Gammon writes for a money session."""
_INFLATE_CHUNK = 64 * RECORD_BYTES

_HEADER_MATCH, _HEADER_GAME, _CUBE, _MOVE, _FOOTER_GAME, _FOOTER_MATCH = range(6)
_VARIATIONS = {0: None, 1: "NackGammon", 2: "HyperGammon (3)"}
"""eXtreme Gammon's variations as the ``.mat`` ``[Variation]`` tag spells them; 3 is
longgammon, which no rule set here plays."""
_DELPHI_EPOCH = date(1899, 12, 30)
_SIDE_OF = {1: Side.X, -1: Side.O}


class XgFileError(ValueError):
    """The bytes are not a readable ``.xg`` file; the message says why."""


@dataclass(frozen=True, slots=True)
class _Entry:
    """One file of the archive, as its directory entry describes it."""

    name: str
    size: int
    stored_size: int
    start: int
    crc: int
    compressed: bool


def read_xg(
    data: bytes | str, *, max_bytes: int = DEFAULT_MAX_BYTES, size: int | None = None
) -> MatchRecord:
    """Read an eXtreme Gammon ``.xg`` file's contents into a ``MatchRecord``; never
    raises on bad input.

    ``size`` is the file's full size when the caller read only its first
    ``max_bytes + 1`` bytes.

    >>> str(read_xg(b"hello").problems[0].message)
    'not an eXtreme Gammon .xg file: it does not start with RGMH'
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    total = max(size or 0, len(raw))
    try:
        if total > max_bytes:
            raise XgFileError(Message(
                "the file is %(total)s bytes, over the limit of %(max_bytes)s bytes; not read",
                total=format(total, ","), max_bytes=format(max_bytes, ","),
            ))
        records = game_file_records(raw)
        record = _Reader().read(records)
        # A reading stopped early still checks the rest of the archive: a damaged file is
        # refused as a whole, whatever its first records say.
        for _ in records:
            pass
        return record
    except XgFileError as error:
        problem = RecordError(None, None, error.args[0], ErrorKind.UNREADABLE)
        return MatchRecord(None, None, problems=(problem,))


def game_file_records(raw: bytes) -> Iterator[bytes]:
    """The save records of the game file of an ``.xg`` container, one at a time.

    Raises:
        XgFileError: not an ``.xg`` file, or a damaged one (the message says how).
    """
    if not raw.startswith(XG_MAGIC):
        raise XgFileError(Message("not an eXtreme Gammon .xg file: it does not start with RGMH"))
    if len(raw) < XG_HEADER_BYTES + TRAILER_BYTES:
        raise XgFileError(Message(
            "a damaged .xg file: %(size)s bytes, shorter than the %(header)s-byte header "
            "every .xg file starts with and the archive after it",
            size=format(len(raw), ","), header=format(XG_HEADER_BYTES, ","),
        ))
    entry, data_start = _game_file_entry(raw)
    yield from _records(raw, entry, data_start)


def _damaged(reason: Message) -> XgFileError:
    return XgFileError(Message("a damaged .xg file: %(reason)s", reason=reason))


def _game_file_entry(raw: bytes) -> tuple[_Entry, int]:
    """The game file's directory entry and where the archive's data starts."""
    trailer = len(raw) - TRAILER_BYTES
    crc, files, _version, directory_size, data_size = struct.unpack_from("<Iiiii", raw, trailer)
    directory_compressed = raw[trailer + 20] != 0
    directory_start = trailer - directory_size
    data_start = directory_start - data_size
    if not (0 < files <= MAX_FILES and directory_size > 0 and data_size >= 0
            and data_start >= XG_HEADER_BYTES):
        raise _damaged(Message("the archive directory at its end is missing or garbled (the file "
                       "may be cut short)"))
    if zlib.crc32(memoryview(raw)[data_start:trailer]) != crc:
        raise _damaged(Message("the archive's checksum does not match its contents (the file was "
                       "cut short or changed)"))
    directory = raw[directory_start:trailer]
    wanted = files * DIRECTORY_ENTRY_BYTES
    if directory_compressed:
        inflater = zlib.decompressobj()
        try:
            directory = inflater.decompress(directory, wanted + 1)
        except zlib.error:
            raise _damaged(Message("the archive directory does not inflate")) from None
    if len(directory) != wanted:
        raise _damaged(Message("the archive directory does not hold the files it counts"))
    for index in range(files):
        entry = _entry(directory, index * DIRECTORY_ENTRY_BYTES)
        if entry.name.lower() != GAME_FILE:
            continue
        if not (entry.start >= 0 and entry.stored_size >= 0
                and entry.start + entry.stored_size <= data_size):
            raise _damaged(Message("the match data lies outside the archive"))
        if entry.size <= 0 or entry.size % RECORD_BYTES:
            raise XgFileError(Message(
                "a damaged .xg file: its match data is %(size)s bytes, not whole "
                "%(record)s-byte records",
                size=format(entry.size, ","), record=format(RECORD_BYTES, ","),
            ))
        if entry.size // RECORD_BYTES > MAX_RECORDS:
            raise XgFileError(Message(
                "the .xg file says it holds %(count)s records, more than the %(limit)s any "
                "match needs; not read",
                count=format(entry.size // RECORD_BYTES, ","), limit=format(MAX_RECORDS, ","),
            ))
        if not entry.compressed and entry.stored_size != entry.size:
            raise _damaged(Message("the stored match data is not the size its directory says"))
        return entry, data_start
    raise XgFileError(Message(
        "not an eXtreme Gammon match file: its archive holds no %(name)s (an .xgp position "
        "file, or another program's file)",
        name=GAME_FILE,
    ))


def _entry(directory: bytes, at: int) -> _Entry:
    name = directory[at + 1:at + 1 + min(directory[at], 255)].decode("latin-1")
    size, stored_size, start, crc = struct.unpack_from("<iiiI", directory, at + 512)
    return _Entry(name, size, stored_size, start, crc, directory[at + 528] == 0)


def _records(raw: bytes, entry: _Entry, data_start: int) -> Iterator[bytes]:
    """Inflate the game file a chunk at a time and cut it into save records, checking its
    size and CRC-32 against the directory."""
    stored = memoryview(raw)[data_start + entry.start:data_start + entry.start
                             + entry.stored_size]
    inflater = zlib.decompressobj() if entry.compressed else None
    pending = b""
    produced = 0
    crc = 0
    source = bytes(stored)
    while True:
        if inflater is None:
            chunk, source = source[:_INFLATE_CHUNK], source[_INFLATE_CHUNK:]
        else:
            try:
                chunk = inflater.decompress(source, _INFLATE_CHUNK)
            except zlib.error:
                raise _damaged(Message(
                    "its match data does not inflate (broken zlib data)")) from None
            source = inflater.unconsumed_tail
        if not chunk:
            break
        produced += len(chunk)
        if produced > entry.size:
            raise _damaged(Message("its match data inflates past the size its directory says"))
        crc = zlib.crc32(chunk, crc)
        pending += chunk
        whole = len(pending) - len(pending) % RECORD_BYTES
        for at in range(0, whole, RECORD_BYTES):
            yield pending[at:at + RECORD_BYTES]
        pending = pending[whole:]
    if inflater is not None and not inflater.eof:
        raise _damaged(Message("its match data ends before its zlib stream does (the file was cut "
                       "short)"))
    if produced != entry.size:
        raise _damaged(Message("its match data is shorter than its directory says"))
    if crc != entry.crc:
        raise _damaged(Message("its match data does not match its checksum"))


# --- the save records ----------------------------------------------------------------


def _int(record: bytes, at: int) -> int:
    value: int = struct.unpack_from("<i", record, at)[0]
    return value


def _ansi(record: bytes, at: int, longest: int) -> str:
    """A Pascal ``string[n]``: a length byte, then ANSI (Windows-1252) text."""
    length = min(record[at], longest)
    return record[at + 1:at + 1 + length].decode("cp1252", errors="replace").strip()


def _unicode(record: bytes, at: int) -> str:
    """A ``TShortUnicodeString``: up to 128 UTF-16 units ended by a zero unit."""
    units = record[at:at + 258]
    end = next((i for i in range(0, len(units) - 1, 2) if units[i:i + 2] == b"\0\0"),
               len(units))
    return units[:end].decode("utf-16-le", errors="replace").strip()


def _delphi_date(days: float) -> str | None:
    """A Delphi ``TDateTime`` (days since 30 December 1899) as ``.mat`` writes a date."""
    if not math.isfinite(days) or not 1 <= days < 2958466:
        return None
    day = _DELPHI_EPOCH + timedelta(days=int(days))
    return f"{day.year:04d}.{day.month:02d}.{day.day:02d}"


def xg_point(code: int, *, destination: bool) -> int | None:
    """An eXtreme Gammon move code as a point in the mover's numbering (25 the bar,
    0 off), or ``None`` where the code is no point.

    >>> xg_point(23, destination=False), xg_point(24, destination=False)
    (24, 25)
    >>> xg_point(-1, destination=True), xg_point(-4, destination=True)
    (0, 0)
    """
    if 0 <= code <= 23:
        return code + 1
    if code == 24 and not destination:
        return BAR
    if code < 0 and destination:
        return OFF
    return None


@dataclass
class _Game:
    number: int
    score: tuple[int, int]
    actions: list[Action] = field(default_factory=list)
    move: int = 0
    line_holds: set[Side] = field(default_factory=set)
    ended: bool = False
    """The footer was read."""
    skipping: bool = False
    """A finding stopped the reading of this game: its records are passed over."""

    def at(self, side: Side) -> int:
        """The move number ``side``'s next action stands on, as a ``.mat`` numbers it."""
        if not self.move or (side is Side.X and self.line_holds) or side in self.line_holds:
            self.move += 1
            self.line_holds = set()
        self.line_holds.add(side)
        return self.move


class _Reader:
    def __init__(self) -> None:
        self.problems: list[RecordError] = []
        self.games: list[GameRecord] = []
        self.game: _Game | None = None
        self.version = 0
        self.names: tuple[str, str] = ("", "")

    def problem(self, game: int | None, move: int | None, message: str,
                kind: ErrorKind = ErrorKind.SYNTAX) -> None:
        self.problems.append(RecordError(game, move, message, kind))

    def read(self, records: Iterator[bytes]) -> MatchRecord:
        """The match the save records tell, read one record at a time.

        Raises:
            XgFileError: the container turns out damaged while its records are read.
        """
        header = next(records, b"")
        if not header or header[8] != _HEADER_MATCH or _int(header, 556) != SAVE_MAGIC:
            return MatchRecord(None, None, problems=(RecordError(None, None, Message(
                "not an eXtreme Gammon match: its game file does not start with a match "
                "header"), ErrorKind.HEADER),))
        self.version = _int(header, 552)
        length, tags, problem = self._match_header(header)
        if problem is not None:
            return MatchRecord(None, self.names, problems=(problem,))
        finished = False
        for index, record in enumerate(records, start=2):
            kind = record[8]
            if finished:
                self.problem(None, None, Message(
                    "record %(index)s comes after the end of the match; it is not read",
                    index=index))
                break
            if kind == _HEADER_GAME:
                self._close_game()
                self._game_header(record)
            elif kind == _FOOTER_MATCH:
                self._close_game()
                finished = True
            elif kind in (_CUBE, _MOVE, _FOOTER_GAME):
                game = self.game
                if game is None or game.ended:
                    self.problem(game.number if game else None, None, Message(
                        "record %(index)s is a move, cube decision or result outside any "
                        "game; the rest of the file is not read", index=index))
                    break
                if game.skipping:
                    continue
                if kind == _CUBE:
                    self._cube(game, record)
                elif kind == _MOVE:
                    self._move(game, record)
                else:
                    self._footer(game, record)
            else:
                game_number = self.game.number if self.game is not None else None
                what = Message("a second match header") if kind == _HEADER_MATCH else \
                    Message("of a kind this reader does not know (%(kind)s)", kind=kind)
                self.problem(game_number, None, Message(
                    "record %(index)s is %(what)s; the rest of the file is not read",
                    index=index, what=what))
                break
        self._close_game()
        return MatchRecord(
            match_length=length, players=self.names, games=tuple(self.games), tags=tags,
            length_line=None, problems=tuple(self.problems),
        )

    def _match_header(
        self, header: bytes
    ) -> tuple[int, tuple[tuple[str, str], ...], RecordError | None]:
        unicode = self.version >= 24
        first = _unicode(header, 880) if unicode else ""
        second = _unicode(header, 1138) if unicode else ""
        self.names = (first or _ansi(header, 9, 40), second or _ansi(header, 50, 40))
        length = _int(header, 92)
        if length == MONEY_LENGTH:
            length = 0
        if not 0 <= length < 10**MAX_DIGITS:
            return 0, (), RecordError(None, None, Message(
                "a match length of %(length)s is impossible", length=length), ErrorKind.HEADER)
        tags: list[tuple[str, str]] = []
        for tag, ansi_at, unicode_at in (("Event", 136, 622), ("Round", 417, 1654),
                                         ("Site", 283, 1396)):
            value = (_unicode(header, unicode_at) if unicode else "") or \
                _ansi(header, ansi_at, 128)
            if value:
                tags.append((tag, value))
        day = _delphi_date(struct.unpack_from("<d", header, 128)[0])
        if day is not None:
            tags.append(("EventDate", day))
        if self.version >= 30:
            transcriber = _unicode(header, 1960)
            if transcriber:
                tags.append(("Transcriber", transcriber))
        variation = _int(header, 96)
        if variation not in _VARIATIONS:
            name = "longgammon" if variation == 3 else f"variation {variation}"
            return length, (), RecordError(None, None, Message(
                "the match is played as eXtreme Gammon's %(name)s, which is not checked here",
                name=name), ErrorKind.HEADER)
        spelled = _VARIATIONS[variation]
        if spelled is not None:
            tags.append(("Variation", spelled))
        if length:
            tags.append(("Crawford", "On" if header[100] else "Off"))
        else:
            tags.append(("Jacoby", "On" if header[101] else "Off"))
            tags.append(("Beaver", "On" if header[102] else "Off"))
        return length, tuple(tags), None

    def _game_header(self, record: bytes) -> None:
        number = len(self.games) + 1
        score = (_int(record, 12), _int(record, 16))
        self.game = _Game(number, score)
        if not all(0 <= points < 10**MAX_DIGITS for points in score):
            self.problem(number, None, Message(
                "game %(number)s starts at an impossible score (%(first)s-%(second)s)",
                number=number, first=score[0], second=score[1]), ErrorKind.HEADER)
            self.game.skipping = True
        elif self.version >= 26 and _int(record, 64) > 0:
            self.problem(number, None, Message(
                "game %(number)s opened with automatic doubles, which the file does not "
                "show move by move; it is not checked", number=number), ErrorKind.HEADER)
            self.game.skipping = True

    def _side(self, game: _Game, record: bytes, at: int) -> Side | None:
        side = _SIDE_OF.get(_int(record, at))
        if side is None:
            self.problem(game.number, game.move or None, Message(
                "a record of game %(number)s names no player on roll (%(value)s where the "
                "file writes 1 or -1); the rest of the game is not checked",
                number=game.number, value=_int(record, at)))
            game.skipping = True
        return side

    def _edited(self, game: _Game, record: bytes, at: int) -> bool:
        if self.version >= 24 and record[at]:
            self.problem(game.number, game.move or None, Message(
                "the position was edited by hand in game %(number)s; records with edited "
                "positions are not checked", number=game.number))
            game.skipping = True
            return True
        return False

    def _cube(self, game: _Game, record: bytes) -> None:
        if self._edited(game, record, 296) or _int(record, 16) != 1:
            return
        side = self._side(game, record, 12)
        if side is None:
            return
        other = side.opposite
        game.actions.append(Action(game.at(side), ActionKind.DOUBLE, side, "Doubles"))
        take = _int(record, 20)
        if take == 0:
            self._answer(game, ActionKind.DROP, other, "Drops")
        elif take == 1:
            self._answer(game, ActionKind.TAKE, other, "Takes")
        elif take == 2:
            self._answer(game, ActionKind.BEAVER, other, "Beavers")
            beaver_answer = _int(record, 24)
            if beaver_answer == 0:
                self._answer(game, ActionKind.DROP, side, "Drops")
            elif beaver_answer == 2:
                self._answer(game, ActionKind.RACCOON, side, "Raccoons")
                if _int(record, 28) == 0:
                    self._answer(game, ActionKind.DROP, other, "Drops")

    def _answer(self, game: _Game, kind: ActionKind, side: Side, text: str) -> None:
        game.actions.append(Action(game.at(side), kind, side, text))

    def _move(self, game: _Game, record: bytes) -> None:
        if self._edited(game, record, 2528):
            return
        side = self._side(game, record, 64)
        if side is None:
            return
        move = game.at(side)
        dice = struct.unpack_from("<ii", record, 100)
        codes = struct.unpack_from("<8i", record, 68)
        if not all(1 <= die <= 6 for die in dice):
            self.problem(game.number, move, Message(
                "the dice %(first)s and %(second)s are no roll of two dice 1-6",
                first=dice[0], second=dice[1]))
            game.actions.append(Action(move, ActionKind.ROLL, side, "??:",
                                       form=PlayForm.UNREADABLE))
            return
        roll = (dice[0], dice[1])
        head = f"{roll[0]}{roll[1]}:"
        steps: list[Move] = []
        if any(codes):
            for origin_code, destination_code in zip(codes[0::2], codes[1::2], strict=True):
                if origin_code == -1:
                    break
                origin = xg_point(origin_code, destination=False)
                destination = xg_point(destination_code, destination=True)
                if origin is None or destination is None:
                    self.problem(game.number, move, Message(
                        "%(head)s the move %(origin)s to %(destination)s names no points "
                        "(eXtreme Gammon writes 0-23 for points, 24 for the bar, below 0 "
                        "for off)", head=head, origin=origin_code,
                        destination=destination_code))
                    game.actions.append(Action(move, ActionKind.ROLL, side, head, roll,
                                               PlayForm.UNREADABLE))
                    return
                steps.append(Move(origin, destination))
        if not steps:
            game.actions.append(Action(move, ActionKind.ROLL, side, head, roll, PlayForm.DANCE))
            return
        play = Play(tuple(steps))
        game.actions.append(Action(move, ActionKind.ROLL, side, f"{head} {play}", roll,
                                   PlayForm.MOVED, play))

    def _footer(self, game: _Game, record: bytes) -> None:
        game.ended = True
        winner = _SIDE_OF.get(_int(record, 24))
        points = _int(record, 28)
        if winner is None:
            return
        if not 0 < points < 10**MAX_DIGITS:
            self.problem(game.number, game.move or None, Message(
                "game %(number)s ends with %(points)s points won, which is no result",
                number=game.number, points=points), ErrorKind.RESULT)
            return
        game.actions.append(Action(
            max(game.move, 1), ActionKind.WIN, winner,
            f"Wins {points} point{'' if points == 1 else 's'}", value=points,
        ))

    def _close_game(self) -> None:
        game = self.game
        if game is None:
            return
        self.game = None
        self.games.append(GameRecord(
            number=game.number, line=0, score=game.score, score_line=None,
            names=self.names, actions=tuple(game.actions),
        ))


def locate_by_move(report: RecordReport) -> RecordReport:
    """``report`` with each finding located by move rather than by line: an ``.xg`` file
    has no lines, and its actions carry the number of their move (see the module).

    >>> from tourney.rules.records.replay import replay
    >>> record = MatchRecord(1, ("A", "B"), (GameRecord(1, 0, (0, 0), None, ("A", "B"), (
    ...     Action(1, ActionKind.ROLL, Side.X, "33:", (3, 3), PlayForm.DANCE),)),))
    >>> str(locate_by_move(replay(record)).errors[0])[:44]
    'game 1: move 1: the game opens with 3-3, but'
    """
    def located(findings: tuple[RecordError, ...]) -> tuple[RecordError, ...]:
        return tuple(
            RecordError(finding.game, None, Message(
                "move %(move)s: %(finding)s", move=finding.line, finding=finding.message,
            ), finding.kind) if finding.line else
            dataclasses.replace(finding, line=None)
            for finding in findings
        )

    return dataclasses.replace(report, errors=located(report.errors),
                               warnings=located(report.warnings))
