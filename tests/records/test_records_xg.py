"""eXtreme Gammon's binary ``.xg`` match files: reading, replaying, converting, refusing.

The ``.xg`` files here are written by ``xg_build.py`` from matches of the gnubg
self-play corpus, after eXtreme Gammon's published format description. Expected values
come from outside our reader: gnubg's own ``.mat`` of the same match, the reference
parser ``xgdatatools`` (GPL, the ``oracles`` extra; skipped where it is not installed,
unless TOURNEY_REQUIRE_ORACLES=1), and gnubg itself, which re-imports the ``.mat`` we
write from an ``.xg``.
"""

from __future__ import annotations

import json
import os
import struct
import time
import tracemalloc
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from records_data import GNUBG_FILES, RECORDS
from test_records_gnubg_roundtrip import _gnubg, _reexport
from xg_build import (
    MOVE,
    RECORD,
    container,
    cube_record,
    game_footer,
    game_header,
    match_footer,
    match_header,
    move_codes,
    move_record,
    xg_file,
    xg_from_report,
    xg_records,
)

from tourney.cli import cli
from tourney.rules.board import BAR, OFF, Side
from tourney.rules.records import (
    ActionKind,
    ErrorKind,
    MatchRecord,
    PlayForm,
    format_mat,
    read_mat,
    read_xg,
    replay,
    validate_mat,
    validate_record,
)
from tourney.rules.records.xg import MAX_RECORDS

XG_DIR = RECORDS / "xg"
MATCHES = sorted(p for p in XG_DIR.glob("*.xg") if p.name != "illegal_play.xg")
"""The fixtures that hold whole, legal matches."""


def _source_mat(xg: Path) -> Path:
    """gnubg's .mat that ``xg_build.py`` wrote the fixture ``xg`` from."""
    corpus = RECORDS / "gnubg" / f"{xg.stem}.mat"
    return corpus if corpus.exists() else RECORDS.parent / "sgf" / f"{xg.stem}.mat"


def _facts(record: MatchRecord) -> dict[str, Any]:
    """What a match record says, independent of how the file lays it out: players,
    length, each game's starting score and its actions (who, what, dice, moves)."""
    return {
        "players": record.players,
        "length": record.match_length,
        "games": [
            (game.score, [
                (a.kind, a.side, a.dice, a.form,
                 tuple((m.origin, m.destination) for m in a.play.moves) if a.play else (),
                 a.value if a.kind is ActionKind.WIN else None)
                for a in game.actions if a.kind is not ActionKind.COMMENT
            ])
            for game in record.games
        ],
    }


@pytest.mark.parametrize("mat", GNUBG_FILES, ids=lambda p: p.stem)
def test_each_gnubg_match_written_as_xg_reads_as_gnubg_wrote_it(mat: Path) -> None:
    """gnubg's .mat is the expected answer: the .xg of the same match must tell the same
    players, length, starting scores, rolls, plays, cube actions and results."""
    from_mat = read_mat(mat.read_bytes())
    data = xg_from_report(replay(from_mat))

    from_xg = read_xg(data)

    assert from_xg.problems == ()
    assert _facts(from_xg) == _facts(from_mat)
    report = validate_record("m.xg", data)
    assert report.ok and report.warnings == ()
    assert report.final_score == validate_mat(mat.read_bytes()).final_score


def test_the_fixtures_replay_without_findings() -> None:
    runner = CliRunner()

    result = runner.invoke(cli, ["validate", "--json", *map(str, MATCHES)])

    lines = [json.loads(line) for line in result.output.splitlines()]
    assert result.exit_code == 0, result.output
    assert [(line["ok"], line["errors"], line["warnings"]) for line in lines] == \
        [(True, [], [])] * len(MATCHES)
    # gnubg's .mat of gnubg_L11_s1005: 7 games, GnubgB wins 13-4.
    eleven = next(line for line in lines if line["file"].endswith("gnubg_L11_s1005.xg"))
    assert (eleven["match_length"], eleven["players"], eleven["games"],
            eleven["final_score"], eleven["winner"]) == \
        (11, ["GnubgA", "GnubgB"], 7, [4, 13], "GnubgB")


def test_an_illegal_play_is_named_by_file_game_move_and_rule() -> None:
    """illegal_play.xg is gnubg_L03_s1001 with GnubgA's 42 in move 2 of game 1 written
    24/21 (three pips) instead of gnubg's 6/4* 8/4."""
    path = XG_DIR / "illegal_play.xg"

    result = CliRunner().invoke(cli, ["validate", str(path)])

    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{path}: INVALID (1 error) - 3-point match")
    assert lines[1].startswith("  game 1: move 2: 24/21 with 4-2: 24/21 moves 3 pips; a 4-2 "
                               "moves a checker 4, 2 or 6 (GnubgA on roll")
    as_json = json.loads(CliRunner().invoke(cli, ["validate", "--json", str(path)]).output)
    assert as_json["errors"][0]["game"] == 1
    assert as_json["errors"][0]["line"] is None
    assert as_json["errors"][0]["message"].startswith("move 2: 24/21 with 4-2")


# --- the reference parser ------------------------------------------------------------


def _xgdatatools() -> tuple[Any, Any]:
    """The reference parser's modules; a skip where it is not installed, a failure where
    CI requires the oracles (TOURNEY_REQUIRE_ORACLES=1)."""
    try:
        from xgdatatools import xgimport, xgstruct  # type: ignore[import-not-found]
    except ImportError:
        if os.environ.get("TOURNEY_REQUIRE_ORACLES") == "1":
            pytest.fail("xgdatatools is required (TOURNEY_REQUIRE_ORACLES=1): install the "
                        "oracles extra")
        pytest.skip("xgdatatools is not installed (the oracles extra); not compared")
    return xgimport, xgstruct


def _oracle_matches(path: Path) -> Iterator[dict[str, Any]]:
    """The match as xgdatatools parses ``path``: raw fields, turned into facts by the
    format description's rules (move codes 0-23 the points 1-24, 24 the bar, below 0
    off; 1 the first player, -1 the second)."""
    xgimport, xgstruct = _xgdatatools()

    def side(active: int) -> Side:
        return Side.X if active == 1 else Side.O

    def point(code: int) -> int:
        return BAR if code == 24 else OFF if code < 0 else code + 1

    match: dict[str, Any] = {}
    version = -1
    for segment in xgimport.Import(str(path)).getfilesegment():
        if segment.type != xgimport.Import.Segment.XG_GAMEFILE:
            continue
        segment.fd.seek(0)
        while (entry := xgstruct.GameFileRecord(version=version).fromstream(segment.fd)):
            if isinstance(entry, xgstruct.HeaderMatchEntry):
                version = entry.Version
                match = {"players": (entry.Player1.decode(), entry.Player2.decode()),
                         "length": entry.MatchLength, "games": []}
            elif isinstance(entry, xgstruct.HeaderGameEntry):
                match["games"].append(((entry.Score1, entry.Score2), []))
            elif isinstance(entry, xgstruct.CubeEntry) and entry.Double == 1:
                actions = match["games"][-1][1]
                actions.append((ActionKind.DOUBLE, side(entry.ActiveP)))
                answer = {0: ActionKind.DROP, 1: ActionKind.TAKE}[entry.Take]
                actions.append((answer, side(-entry.ActiveP)))
            elif isinstance(entry, xgstruct.MoveEntry):
                codes = list(entry.Moves)
                steps = []
                while codes and codes[0] != -1:
                    steps.append((point(codes[0]), point(codes[1])))
                    codes = codes[2:]
                match["games"][-1][1].append(
                    (ActionKind.ROLL, side(entry.ActiveP), tuple(entry.Dice), tuple(steps)))
    yield match


def _ours(path: Path) -> dict[str, Any]:
    record = read_xg(path.read_bytes())
    games = []
    for game in record.games:
        actions: list[tuple[Any, ...]] = []
        for a in game.actions:
            if a.kind is ActionKind.ROLL:
                steps = tuple((m.origin, m.destination) for m in a.play.moves) \
                    if a.play else ()
                actions.append((a.kind, a.side, a.dice, steps))
            elif a.kind is not ActionKind.WIN:
                actions.append((a.kind, a.side))
        games.append((game.score, actions))
    return {"players": record.players, "length": record.match_length, "games": games}


def test_the_reference_parser_reads_the_same_matches(tmp_path: Path) -> None:
    """For the fixtures and every corpus match written as .xg: players, match length,
    each game's starting score, and every roll (player, dice, moves) and cube action as
    xgdatatools parses the bytes equal what our reader makes of them."""
    paths = list(MATCHES)
    for mat in GNUBG_FILES:
        path = tmp_path / f"{mat.stem}.xg"
        path.write_bytes(xg_from_report(replay(read_mat(mat.read_bytes()))))
        paths.append(path)
    games = rolls = 0
    for path in paths:
        (oracle,) = _oracle_matches(path)
        ours = _ours(path)
        assert ours == oracle, path.name
        games += len(ours["games"])
        rolls += sum(1 for _, actions in ours["games"] for a in actions
                     if a[0] is ActionKind.ROLL)
    # Every game and roll gnubg's .mat files of these matches hold was compared.
    sources = [read_mat(p.read_bytes()) for p in [*GNUBG_FILES, *map(_source_mat, MATCHES)]]
    assert len(paths) == len(sources) == len(MATCHES) + 60
    assert games == sum(len(record.games) for record in sources)
    assert rolls == sum(1 for record in sources for game in record.games
                        for a in game.actions if a.kind is ActionKind.ROLL)


# --- gnubg re-imports what we convert --------------------------------------------------


def test_gnubg_reimports_the_mat_written_from_each_xg_as_the_same_match(
    tmp_path: Path,
) -> None:
    """The .mat we write from an .xg, imported into gnubg and exported again, is what
    gnubg exports from its own .mat of the match: gnubg found every play legal and read
    the same rolls, cube actions and results."""
    gnubg = _gnubg()
    pairs = []
    stems = []
    for path in MATCHES:
        source = _source_mat(path)
        original = tmp_path / f"{path.stem}.orig.mat"
        original.write_bytes(source.read_bytes())
        ours = tmp_path / f"{path.stem}.ours.mat"
        ours.write_text(format_mat(validate_record(path.name, path.read_bytes())))
        pairs += [(original, tmp_path / f"{path.stem}.orig.re.mat"),
                  (ours, tmp_path / f"{path.stem}.ours.re.mat")]
        stems.append(path.stem)

    _reexport(gnubg, pairs)

    for stem in stems:
        again = tmp_path / f"{stem}.ours.re.mat"
        assert again.exists(), stem
        assert again.read_text() == (tmp_path / f"{stem}.orig.re.mat").read_text(), stem


# --- what the records say --------------------------------------------------------------


def _one_game(*middle: bytes, length: int = 0, **header: Any) -> bytes:
    records = [match_header(("Ann", "Bob"), length, **header), game_header(1, (0, 0)),
               *middle]
    return xg_file([*records, match_footer((0, 0), None)])


def test_a_beaver_is_read_as_the_mat_reader_reads_beavers() -> None:
    """Money play with beavers: Bob doubles, Ann beavers (answer 2), Bob accepts (1);
    Bob then resigns a single game at the cube of 4."""
    data = _one_game(
        move_record(Side.X, (3, 1), move_codes([(8, 5), (6, 5)])),
        cube_record(Side.O, double=1, take=2, beaver_answer=1),
        move_record(Side.O, (6, 4), move_codes([(24, 18), (18, 14)])),
        game_footer((4, 0), Side.X, 4, 101),
        beaver=True,
    )

    record = read_xg(data)
    report = validate_record("money.xg", data)

    kinds = [(a.kind, a.side) for a in record.games[0].actions]
    assert kinds == [(ActionKind.ROLL, Side.X), (ActionKind.DOUBLE, Side.O),
                     (ActionKind.BEAVER, Side.X), (ActionKind.ROLL, Side.O),
                     (ActionKind.WIN, Side.X)]
    assert record.match_length == 0 and record.tag("Beaver") == "On"
    assert report.ok, report.errors
    assert report.final_score == (4, 0)


@pytest.mark.parametrize("codes", [[-1] * 8, [0] * 8], ids=["ended-list", "all-zero"])
def test_a_move_record_without_moves_is_a_dance(codes: list[int]) -> None:
    """A roll with no steps is the claim that no move was possible, and the replay
    checks it: after Ann's opening 3-1, Bob's 6-6 can move (24/18 is open), so the
    claimed dance is false."""
    data = _one_game(
        move_record(Side.X, (3, 1), move_codes([(8, 5), (6, 5)])),
        move_record(Side.O, (6, 6), codes),
    )

    record = read_xg(data)
    report = validate_record("dance.xg", data)

    assert record.games[0].actions[1].form is PlayForm.DANCE
    assert any(e.kind is ErrorKind.FALSE_DANCE for e in report.errors)
    assert str(report.errors[0]).startswith("game 1: move 1: ")


def test_unicode_names_win_over_the_ansi_ones_and_old_files_have_only_ansi() -> None:
    header = bytearray(match_header(("Ann", "Bob"), 5))
    header[880:880 + 8] = "Zoë".encode("utf-16-le") + b"\0\0"
    new = xg_file([bytes(header), match_footer((0, 0), None)])
    old = xg_file([match_header(("Ann", "Bob"), 5, version=22), match_footer((0, 0), None)])

    assert read_xg(new).players == ("Zoë", "Bob")
    assert read_xg(old).players == ("Ann", "Bob")
    assert read_xg(old).tag("Crawford") == "On"


def test_an_edited_position_is_not_checked() -> None:
    edited = bytearray(move_record(Side.O, (6, 4), move_codes([(24, 18), (18, 14)])))
    edited[2528] = 1

    report = validate_record("edited.xg", _one_game(
        move_record(Side.X, (3, 1), move_codes([(8, 5), (6, 5)])), bytes(edited)))

    assert "the position was edited by hand in game 1" in str(report.errors[0])


def test_a_position_file_without_a_match_says_so() -> None:
    data = container([("temp.xgi", bytes(RECORD))])

    assert "holds no temp.xg" in read_xg(data).problems[0].message


def test_a_second_match_header_stops_the_reading() -> None:
    records = [match_header(("Ann", "Bob"), 3), match_header(("Ann", "Bob"), 3)]

    problems = read_xg(xg_file(records)).problems

    assert [str(p) for p in problems] == \
        ["record 2 is a second match header; the rest of the file is not read"]


# --- hostile and damaged files ---------------------------------------------------------


def _bounded_read(data: bytes) -> MatchRecord:
    """``read_xg(data)``, checked to take under a second of this process's own time (the
    suite shares the machine, so wall time would measure the neighbours) and to allocate
    at its peak under 16 MiB beyond twice the file (memory traced in a second reading, as
    tracing slows it)."""
    start = time.process_time()
    record = read_xg(data)
    assert time.process_time() - start < 1.0
    tracemalloc.start()
    try:
        read_xg(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024 + 2 * len(data)
    return record


def _refused(data: bytes) -> str:
    """The one finding a file that cannot be read gets (see ``_bounded_read``)."""
    record = _bounded_read(data)
    assert record.games == ()
    assert len(record.problems) == 1
    return str(record.problems[0])


@pytest.mark.parametrize("data", [b"", b"hello", b" 1 point match\n Game 1\n",
                                  b"\x89PNG\r\n\x1a\n" + bytes(9000)],
                         ids=["empty", "text", "mat", "png"])
def test_a_file_that_is_no_xg_file_says_so(data: bytes) -> None:
    assert _refused(data) == "not an eXtreme Gammon .xg file: it does not start with RGMH"


def test_a_file_cut_short_anywhere_is_damaged() -> None:
    data = (XG_DIR / "gnubg_L03_s1001.xg").read_bytes()
    cuts = [*range(4, len(data), 397), *range(len(data) - 40, len(data))]

    messages = {_refused(data[:cut]).split(":")[0] for cut in cuts}

    assert messages == {"a damaged .xg file"}


def test_a_changed_byte_anywhere_in_the_archive_is_damaged() -> None:
    data = bytearray((XG_DIR / "gnubg_L03_s1001.xg").read_bytes())
    for at in range(8232, len(data), 211):
        changed = bytearray(data)
        changed[at] ^= 0x5A
        assert _refused(bytes(changed)).startswith("a damaged .xg file: "), at


def test_broken_zlib_data_is_damaged() -> None:
    records = xg_records(replay(read_mat((RECORDS / "gnubg/gnubg_L03_s1001.mat").read_bytes())))
    game_file = b"".join(records)
    packed = bytearray(zlib.compress(game_file))
    packed[len(packed) // 2:len(packed) // 2 + 8] = b"\xff" * 8

    message = _refused(container([("temp.xg", game_file)], stored={"temp.xg": bytes(packed)}))

    assert message in (
        "a damaged .xg file: its match data does not inflate (broken zlib data)",
        "a damaged .xg file: its match data does not match its checksum",
    )


def test_a_decompression_bomb_is_stopped_at_the_size_its_directory_declares() -> None:
    """100 MB of zeros pack into about 100 KB; the directory says 10 records."""
    bomb = zlib.compress(bytes(100 * 1024 * 1024), 9)

    message = _refused(container([("temp.xg", bytes(10 * RECORD))],
                                 stored={"temp.xg": bomb}))

    assert message == \
        "a damaged .xg file: its match data inflates past the size its directory says"


def test_a_bomb_within_the_declared_size_is_read_no_further_than_its_first_record() -> None:
    data = bytes(19_000 * RECORD)

    message = _refused(container([("temp.xg", data)], stored={"temp.xg": zlib.compress(data, 9)}))

    assert message == "not an eXtreme Gammon match: its game file does not start with a " \
        "match header"


def test_many_valid_records_are_read_in_bounded_time_and_memory() -> None:
    """A game of 10,000 cube decisions without a double: well-formed, pointless."""
    cubes = [cube_record(Side.X)] * 10_000
    records = [match_header(("Ann", "Bob"), 3), game_header(1, (0, 0)), *cubes,
               game_footer((1, 0), Side.X, 1, 101), match_footer((1, 0), Side.X)]
    data = xg_file(records)

    record = _bounded_read(data)

    assert record.problems == () and len(record.games) == 1


@pytest.mark.parametrize("records", [MAX_RECORDS + 1, 100_000, 800_000])
def test_an_absurd_record_count_is_refused_before_inflating(records: int) -> None:
    data = container([("temp.xg", bytes(RECORD))], sizes={"temp.xg": records * RECORD})

    message = _refused(data)

    assert message == (
        f"the .xg file says it holds {records:,} records, more than the "
        f"{MAX_RECORDS:,} any match needs; not read"
    )


@pytest.mark.parametrize("files", [0, -1, 10**6])
def test_an_absurd_file_count_is_damaged(files: int) -> None:
    data = bytearray((XG_DIR / "gnubg_L03_s1001.xg").read_bytes())
    struct.pack_into("<i", data, len(data) - 32, files)

    assert _refused(bytes(data)).startswith("a damaged .xg file: the archive directory")


def test_a_file_over_the_size_limit_is_not_read() -> None:
    data = (XG_DIR / "gnubg_L03_s1001.xg").read_bytes()

    record = read_xg(data, max_bytes=1000)

    assert str(record.problems[0]) == \
        f"the file is {len(data):,} bytes, over the limit of 1,000 bytes; not read"


def test_the_moves_of_an_xg_are_every_move_record_of_the_file() -> None:
    """The fixture's move records, counted in the bytes, are the rolls the reader makes."""
    data = (XG_DIR / "gnubg_L03_s1001.xg").read_bytes()
    game_file = b"".join(xg_records(replay(read_mat(
        (RECORDS / "gnubg/gnubg_L03_s1001.mat").read_bytes()))))

    rolls = [a for g in read_xg(data).games for a in g.actions if a.kind is ActionKind.ROLL]

    assert len(rolls) == sum(1 for at in range(0, len(game_file), RECORD)
                             if game_file[at + 8] == MOVE)
