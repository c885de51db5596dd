"""Writing eXtreme Gammon ``.xg`` files for the tests, from eXtreme Gammon's published
format description (the same facts ``tourney.rules.records.xg`` documents).

``xg_from_report`` turns a replayed match (a gnubg ``.mat`` of the corpus) into the save
records eXtreme Gammon writes: a match header, per game a game header, before each roll
a cube decision of the player on roll (no double, or the double and its answer), the
checker move with its boards and its play as one (from, to) pair per die, a game footer,
and a match footer. ``container`` wraps any game file in the RichGameFormat header and
the zlib archive (data, directory, 36-byte trailer), so the hostile-input tests can bend
each part.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence

from tourney.rules.board import BAR, OFF, Position, Side
from tourney.rules.dice import Roll
from tourney.rules.game import GameEnd
from tourney.rules.moves import check_play
from tourney.rules.records import ActionKind, PlayForm, RecordReport
from tourney.rules.records.mat_writer import single_die_steps

RECORD = 2560
HEADER = 8232
VERSION = 30
"""The file version written: Unicode names (24+), time fields (26+), transcriber (30)."""

MATCH_HEADER, GAME_HEADER, CUBE, MOVE, FOOTER_GAME, FOOTER_MATCH = range(6)


def _record(kind: int) -> bytearray:
    record = bytearray(RECORD)
    record[8] = kind
    return record


def _short_string(record: bytearray, at: int, text: str, longest: int) -> None:
    data = text.encode("cp1252")[:longest]
    record[at] = len(data)
    record[at + 1:at + 1 + len(data)] = data


def _unicode(record: bytearray, at: int, text: str) -> None:
    data = text.encode("utf-16-le")[:256]
    record[at:at + len(data)] = data


def match_header(players: tuple[str, str], length: int, *, crawford: bool = True,
                 variation: int = 0, version: int = VERSION, event: str = "",
                 round_name: str = "", place: str = "", day: float = 45292.0,
                 jacoby: bool = False, beaver: bool = False) -> bytes:
    """A match header; ``length`` 0 is written as eXtreme Gammon's money session (99999).
    ``day`` is a Delphi date (45292 is 1 January 2024)."""
    record = _record(MATCH_HEADER)
    _short_string(record, 9, players[0], 40)
    _short_string(record, 50, players[1], 40)
    struct.pack_into("<ii", record, 92, length or 99999, variation)
    record[100:103] = bytes([crawford, jacoby, beaver])
    struct.pack_into("<d", record, 128, day)
    _short_string(record, 136, event, 128)
    _short_string(record, 283, place, 128)
    _short_string(record, 417, round_name, 128)
    struct.pack_into("<iI", record, 552, version, 0x494C4D44)
    if version >= 24:
        for at, text in ((622, event), (880, players[0]), (1138, players[1]), (1396, place),
                         (1654, round_name)):
            _unicode(record, at, text)
    return bytes(record)


def game_header(number: int, score: tuple[int, int]) -> bytes:
    """A game header at ``score`` with the standard start (first player's frame)."""
    record = _record(GAME_HEADER)
    struct.pack_into("<ii", record, 12, *score)
    struct.pack_into("<26b", record, 21, *board(Position.initial(), Side.X))
    struct.pack_into("<i", record, 48, number)
    return bytes(record)


def board(position: Position, frame: Side, mover: Side = Side.X) -> list[int]:
    """``position`` (seen by ``mover``) as eXtreme Gammon's 26 signed counts in
    ``frame``'s numbering: ``frame``'s checkers positive on points 1-24 and its bar at
    25, the other side's negative, their bar at 0."""
    own, other = (position.mover, position.opponent) if frame is mover else \
        (position.opponent, position.mover)
    cells = [0] * 26
    for point in range(1, 25):
        cells[point] = own[point] - other[25 - point]
    cells[25] = own[BAR]
    cells[0] = -other[BAR]
    return cells


def cube_record(side: Side, *, double: int = 0, take: int = -1, beaver_answer: int = 0,
                raccoon_answer: int = 0) -> bytes:
    """A cube decision of ``side`` (on roll): ``double`` 1 doubled (then ``take``: 0 pass,
    1 take, 2 beaver), 0 did not."""
    record = _record(CUBE)
    active = 1 if side is Side.X else -1
    struct.pack_into("<iiiii", record, 12, active, double, take, beaver_answer,
                     raccoon_answer)
    return bytes(record)


def move_codes(steps: Sequence[tuple[int, int]]) -> list[int]:
    """Single-die steps (mover's points, 25 the bar, 0 off) as the eight move codes."""
    codes: list[int] = []
    for origin, destination in steps:
        codes += [24 if origin == BAR else origin - 1,
                  -1 if destination == OFF else destination - 1]
    return codes + [-1] * (8 - len(codes))


def move_record(side: Side, dice: tuple[int, int], codes: Sequence[int],
                before: Position | None = None, after: Position | None = None) -> bytes:
    """A checker move of ``side``: ``before`` and ``after`` seen by the mover."""
    record = _record(MOVE)
    if before is not None:
        struct.pack_into("<26b", record, 9, *board(before, Side.X, side))
    if after is not None:
        struct.pack_into("<26b", record, 35, *board(after, side, side))
    struct.pack_into("<i", record, 64, 1 if side is Side.X else -1)
    struct.pack_into("<8i", record, 68, *codes)
    struct.pack_into("<ii", record, 100, *dice)
    record[2308] = 1
    return bytes(record)


def game_footer(score: tuple[int, int], winner: Side | None, points: int,
                termination: int) -> bytes:
    """A game footer: the score after the game, the winner, points and how it ended."""
    record = _record(FOOTER_GAME)
    struct.pack_into("<ii", record, 12, *score)
    won = 0 if winner is None else 1 if winner is Side.X else -1
    struct.pack_into("<iii", record, 24, won, points, termination)
    return bytes(record)


def match_footer(score: tuple[int, int], winner: Side | None) -> bytes:
    """The match footer: the final score and the winner."""
    record = _record(FOOTER_MATCH)
    won = 0 if winner is None else 1 if winner is Side.X else -1
    struct.pack_into("<iii", record, 12, *score, won)
    return bytes(record)


def xg_records(report: RecordReport, *, version: int = VERSION) -> list[bytes]:
    """The save records eXtreme Gammon writes for the replayed match ``report``."""
    record = report.record
    players = record.players or ("", "")
    crawford = (record.tag("Crawford") or "On").lower() != "off"
    records = [match_header(players, record.match_length or 0, crawford=crawford,
                            event=record.tag("Event") or "", place=record.tag("Site") or "",
                            round_name=record.tag("Round") or "", version=version)]
    for game, result in zip(record.games, report.games, strict=True):
        score = game.score or (0, 0)
        records.append(game_header(game.number, score))
        position = Position.initial()
        on_roll: Side | None = None
        actions = list(game.actions)
        index = 0
        while index < len(actions):
            action = actions[index]
            index += 1
            side = action.side
            if side is None:
                continue
            if action.kind is ActionKind.DOUBLE:
                answer = actions[index] if index < len(actions) else None
                take = -1
                if answer is not None and answer.kind in (ActionKind.TAKE, ActionKind.DROP):
                    take = 1 if answer.kind is ActionKind.TAKE else 0
                    index += 1
                records.append(cube_record(side, double=1, take=take))
            elif action.kind is ActionKind.ROLL:
                assert action.dice is not None
                if on_roll is not None and side is not on_roll:
                    position = position.turned()
                on_roll = side
                roll = Roll(*action.dice)
                if action.form is PlayForm.MOVED and action.play is not None:
                    steps = single_die_steps(position, roll, action.play)
                    after = check_play(position, roll, action.play)
                    codes = move_codes([(m.origin, m.destination) for m in steps])
                else:
                    after = position
                    codes = [-1] * 8
                if records[-1][8] != CUBE and any(r[8] == MOVE for r in records[-3:]):
                    records.append(cube_record(side))
                records.append(move_record(side, action.dice, codes, position, after))
                position = after
        points = result.points
        after_score = (score[0] + points * (result.winner is Side.X),
                       score[1] + points * (result.winner is Side.O))
        level = int(result.level) if result.level is not None else 1
        termination = {GameEnd.DROPPED: 0, GameEnd.RESIGNED: 100 + level}.get(
            result.end, level) if result.end is not None else 1
        records.append(game_footer(after_score, result.winner, points, termination))
    records.append(match_footer(report.final_score, report.winner))
    return records


def container(files: Sequence[tuple[str, bytes]], *, compress: bool = True,
              thumbnail: bytes = b"", stored: dict[str, bytes] | None = None,
              sizes: dict[str, int] | None = None) -> bytes:
    """An ``.xg`` container holding ``files``: header, thumbnail, zlib archive.

    ``stored`` gives a file's bytes as the archive holds them (instead of compressing its
    contents) and ``sizes`` the size its directory entry declares, for damaged files."""
    header = bytearray(HEADER)
    struct.pack_into("<4sIIqI", header, 0, b"RGMH", 1, HEADER, 0, len(thumbnail))
    name = "eXtreme Gammon match\0".encode("utf-16-le")
    header[36:36 + len(name)] = name
    blobs = bytearray()
    directory = bytearray()
    for file_name, data in files:
        held = (stored or {}).get(file_name)
        if held is None:
            held = zlib.compress(data) if compress else data
        entry = bytearray(532)
        entry[0] = len(file_name)
        entry[1:1 + len(file_name)] = file_name.encode("latin-1")
        struct.pack_into("<iiiI", entry, 512, (sizes or {}).get(file_name, len(data)),
                         len(held), len(blobs), zlib.crc32(data))
        entry[528] = 0 if compress else 1
        entry[529] = 2
        directory += entry
        blobs += held
    packed = zlib.compress(bytes(directory))
    body = bytes(blobs) + packed
    trailer = struct.pack("<Iiiiii", zlib.crc32(body), len(files), 1, len(packed), len(blobs),
                          1) + bytes(12)
    return bytes(header) + thumbnail + body + trailer


def xg_file(records: Sequence[bytes], **options: bool) -> bytes:
    """A whole ``.xg`` file: the game file of ``records``, and its first-and-last copy
    ``temp.xgi`` as eXtreme Gammon writes it beside."""
    game_file = b"".join(records)
    index = records[0] + records[-1]
    return container([("temp.xg", game_file), ("temp.xgi", index)], **options)


def xg_from_report(report: RecordReport, *, version: int = VERSION) -> bytes:
    """The ``.xg`` file eXtreme Gammon would write for the match ``report`` replays."""
    return xg_file(xg_records(report, version=version))


def write_fixtures() -> None:
    """Write the ``.xg`` files of tests/data/records/xg from the gnubg corpus: three
    matches as they are (the third is the one the web tests upload), and the first of
    them with one play made illegal: in game 1, move 2, GnubgA's 42 is written
    ``24/21``, three pips, where gnubg wrote ``6/4* 8/4``."""
    from pathlib import Path

    from tourney.rules.records import read_mat, replay

    data = Path(__file__).resolve().parent.parent / "data" / "records"
    target = data / "xg"
    target.mkdir(exist_ok=True)
    sources = [data / "gnubg" / "gnubg_L03_s1001.mat", data / "gnubg" / "gnubg_L11_s1005.mat",
               data.parent / "sgf" / "gnubg_L03_s1037.mat"]
    for source in sources:
        report = replay(read_mat(source.read_bytes()))
        (target / f"{source.stem}.xg").write_bytes(xg_from_report(report))
    report = replay(read_mat((data / "gnubg" / "gnubg_L03_s1001.mat").read_bytes()))
    records = xg_records(report)
    moves = [index for index, record in enumerate(records) if record[8] == MOVE]
    second = bytearray(records[moves[1]])
    struct.pack_into("<8i", second, 68, 23, 20, -1, -1, -1, -1, -1, -1)
    records[moves[1]] = bytes(second)
    (target / "illegal_play.xg").write_bytes(xg_file(records))


if __name__ == "__main__":
    write_fixtures()
