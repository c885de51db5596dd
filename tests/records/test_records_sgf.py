"""gnubg's ``.sgf`` match files: reading, writing, and agreement with gnubg itself.

The files in tests/data/sgf are 20 matches of the gnubg self-play corpus: each ``.mat``
as gnubg exported it and the ``.sgf`` gnubg 1.07.001 saved from the same match
(``import mat`` then ``save match``). Both are gnubg's renderings of one match, so our
reading of the two must agree in every fact.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_records_gnubg_roundtrip import GNUBG_BINARY

from tourney.cli import cli
from tourney.rules.board import Side
from tourney.rules.game import GameEnd
from tourney.rules.records import (
    ActionKind,
    GameSummary,
    MatchHeader,
    PlayForm,
    RecordReport,
    format_mat_results,
    format_sgf,
    format_sgf_results,
    read_mat,
    read_sgf,
    replay,
    validate_record,
)

SGF_DIR = Path(__file__).resolve().parent.parent / "data" / "sgf"
SGF_FILES = sorted(SGF_DIR.glob("*.sgf"))
STEMS = [path.stem for path in SGF_FILES]


def _facts(report: RecordReport) -> dict[str, object]:
    """Everything a record says about the match, in a form both formats share: the
    order of the single-die steps within one play is not part of the play."""
    games = []
    for game, result in zip(report.record.games, report.games, strict=True):
        actions = [
            (action.kind.value, int(action.side) if action.side is not None else None,
             sorted(action.dice) if action.dice else None,
             action.form.value if action.form else None,
             sorted((m.origin, m.destination) for m in action.play.moves)
             if action.play else None)
            for action in game.actions if action.kind is not ActionKind.WIN
        ]
        games.append({
            "score": game.score, "names": game.names, "actions": actions,
            "result": (result.winner, result.end, result.level, result.cube, result.points,
                       result.crawford),
        })
    return {
        "players": report.players, "length": report.match_length,
        "final_score": report.final_score, "winner": report.winner, "ok": report.ok,
        "errors": report.errors, "games": games,
    }


def _mat(stem: str) -> RecordReport:
    return replay(read_mat((SGF_DIR / f"{stem}.mat").read_bytes()))


def _sgf(stem: str) -> RecordReport:
    return replay(read_sgf((SGF_DIR / f"{stem}.sgf").read_bytes()))


def test_the_data_set_covers_drops_resignations_and_crawford_games() -> None:
    reports = [_sgf(stem) for stem in STEMS]
    ends = [result.end for report in reports for result in report.games]
    assert len(SGF_FILES) == 20
    assert {GameEnd.PLAYED, GameEnd.DROPPED, GameEnd.RESIGNED} <= set(ends)
    assert any(result.crawford for report in reports for result in report.games)
    assert {report.match_length for report in reports} == {1, 3, 5, 7, 9, 11}


@pytest.mark.parametrize("stem", STEMS)
def test_gnubg_sgf_reads_as_the_same_match_as_its_mat(stem: str) -> None:
    from_sgf, from_mat = _sgf(stem), _mat(stem)

    assert from_sgf.ok, from_sgf.errors
    assert _facts(from_sgf) == _facts(from_mat)


def _without_analysis(text: str) -> list[str]:
    # gnubg stamps its version (AP) and adds game statistics (GS) we do not keep.
    return [re.sub(r"AP\[[^\]]*\]|GS\[.*$", "", line) for line in text.splitlines()]


def _steps_sorted(lines: list[str]) -> list[str]:
    # A play's single-die steps are the same play in any order; gnubg's .mat and .sgf
    # list them in different orders.
    def sort_pairs(found: re.Match[str]) -> str:
        pairs = re.findall("..", found.group(3))
        return f";{found.group(1)}[{found.group(2)}{''.join(sorted(pairs))}]{found.group(4)}"
    return [re.sub(r"^;([WB])\[(\d\d)([a-z]*)\](\)?)$", sort_pairs, line) for line in lines]


@pytest.mark.parametrize("stem", STEMS)
def test_our_sgf_of_the_sgf_is_what_gnubg_saves(stem: str) -> None:
    ours = format_sgf(_sgf(stem))

    assert _without_analysis(ours) == _without_analysis((SGF_DIR / f"{stem}.sgf").read_text())


@pytest.mark.parametrize("stem", STEMS)
def test_our_sgf_of_the_mat_is_what_gnubg_saves_from_it(stem: str) -> None:
    ours = format_sgf(_mat(stem))

    assert _steps_sorted(_without_analysis(ours)) == _steps_sorted(
        _without_analysis((SGF_DIR / f"{stem}.sgf").read_text()))


@pytest.mark.parametrize("stem", STEMS)
def test_sgf_round_trips_through_our_writer(stem: str) -> None:
    report = _sgf(stem)

    assert _facts(replay(read_sgf(format_sgf(report)))) == _facts(report)


def _gnubg_or_skip() -> str:
    if not Path(GNUBG_BINARY).exists():
        if os.environ.get("TOURNEY_REQUIRE_ORACLES") == "1":
            pytest.fail("gnubg is required (TOURNEY_REQUIRE_ORACLES=1) but not installed")
        pytest.skip("gnubg is not installed (apt-get install gnubg); sgf loading not checked")
    return GNUBG_BINARY


def test_gnubg_loads_our_sgf_and_exports_the_same_match(tmp_path: Path) -> None:
    _gnubg_or_skip()
    commands = ["set confirm new off", "set confirm save off"]
    for stem in STEMS:
        ours = tmp_path / f"{stem}.sgf"
        ours.write_text(format_sgf(_mat(stem)), encoding="utf-8")
        commands += [f'load match "{ours}"', f'export match mat "{tmp_path / stem}.mat"']
    subprocess.run([GNUBG_BINARY, "-t", "-q", "-r"], input="\n".join(commands) + "\n", text=True,
                   capture_output=True, timeout=300, check=False, env={"HOME": str(tmp_path)})

    agreeing = [
        stem for stem in STEMS
        if (tmp_path / f"{stem}.mat").exists()
        and _facts(replay(read_mat((tmp_path / f"{stem}.mat").read_bytes())))
        == _facts(_mat(stem))
    ]
    # More than the same facts: gnubg's export is the very file it exported before.
    identical = [
        stem for stem in agreeing
        if (tmp_path / f"{stem}.mat").read_text() == (SGF_DIR / f"{stem}.mat").read_text()
    ]
    assert agreeing == STEMS
    assert identical == STEMS


def test_gnubgs_analysis_in_an_sgf_changes_nothing_read() -> None:
    # gnubg's "analyse match" (0-ply) then "save match": the same match with A[], LU[]
    # on its nodes and statistics in GS[].
    analysed = SGF_DIR / "analysed" / "gnubg_L01_s1006.sgf"

    report = replay(read_sgf(analysed.read_bytes()))

    assert "A[0][" in analysed.read_text()
    assert _facts(report) == _facts(_sgf("gnubg_L01_s1006"))


# --- hand-worked files ----------------------------------------------------------------

_ROOT = "(;FF[4]GM[6]MI[length:3][game:{game}][ws:{ws}][bs:{bs}]PW[Ann]PB[Bob]{extra}"


def _game(body: str, *, game: int = 0, ws: int = 0, bs: int = 0, extra: str = "") -> str:
    return _ROOT.format(game=game, ws=ws, bs=bs, extra=extra) + body + ")\n"


def test_letters_are_absolute_points_white_from_a_black_from_x() -> None:
    # White (Ann) opens 3-1 making her 5 point: h=8, e=5, f=6. Black (Bob) answers 6-4
    # running a back checker: his 24 point is 'a', 18 is 'g', 14 is 'k'.
    record = read_sgf(_game("\n;W[31hefe]\n;B[64aggk]", extra="RE[W+1R]"))

    roll_white, roll_black = record.games[0].actions[:2]
    assert (roll_white.side, roll_white.dice, str(roll_white.play)) == (Side.X, (3, 1),
                                                                       "8/5 6/5")
    assert (roll_black.side, roll_black.dice, str(roll_black.play)) == (Side.O, (6, 4),
                                                                       "24/18 18/14")


def test_a_drop_ends_the_game_for_the_cube_before_the_double() -> None:
    text = _game("\n;W[31hefe]\n;B[double]\n;W[drop]", extra="RE[B+1]")

    report = replay(read_sgf(text))

    assert report.ok, report.errors
    assert (report.games[0].winner, report.games[0].end, report.games[0].points) == (
        Side.O, GameEnd.DROPPED, 1)


def test_resignation_after_a_take_scores_the_resigned_points() -> None:
    # Bob doubles, Ann takes (cube 2), Ann resigns a gammon: 4 points, match over.
    # Bob plays 6/4 6/5: his 6 point is 's', 5 't', 4 'u'.
    text = _game("\n;W[31hefe]\n;B[double]\n;W[take]\n;B[21sust]", extra="RE[B+4R]")

    report = replay(read_sgf(text))

    assert report.ok, report.errors
    assert report.final_score == (0, 4)
    assert report.games[0].end is GameEnd.RESIGNED
    assert report.games[0].cube == 2


def test_dice_without_a_play_is_a_roll_then_resignation() -> None:
    record = read_sgf(_game("\n;W[31hefe]\n;PL[B]DI[63]", extra="RE[W+1R]"))

    action = record.games[0].actions[1]
    assert (action.side, action.dice, action.form) == (Side.O, (6, 3), PlayForm.UNKNOWN)


def test_root_properties_become_header_tags() -> None:
    text = _game("\n;W[31hefe]", extra="DT[2024-05-06]EV[Club Open]RO[Final]PC[Oslo]"
                 "RU[Crawford]RE[W+1R]")

    record = read_sgf(text)

    assert record.tag("Event") == "Club Open"
    assert record.tag("Round") == "Final"
    assert record.tag("Site") == "Oslo"
    assert record.tag("EventDate") == "2024.05.06"
    assert record.tag("Crawford") == "On"


def test_rules_of_ru_become_the_tags_the_replay_reads() -> None:
    money = "(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[A]PB[B]RU[Jacoby:Nackgammon])"
    match = "(;FF[4]GM[6]MI[length:5][game:0][ws:0][bs:0]PW[A]PB[B])"

    money_record, match_record = read_sgf(money), read_sgf(match)

    assert money_record.tag("Jacoby") == "On"
    assert money_record.tag("Variation") == "NackGammon"
    assert money_record.tag("Crawford") is None
    # gnubg writes RU[Crawford] for every match played under the rule: none means off.
    assert match_record.tag("Crawford") == "Off"


def test_escaped_brackets_in_names_are_read_and_written_back() -> None:
    text = "(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[A\\]nn]PB[B\\\\ob]RE[W+1R]\n;W[31hefe])"

    report = replay(read_sgf(text))

    assert report.players == ("A]nn", "B\\ob")
    assert "PW[A\\]nn]PB[B\\\\ob]" in format_sgf(report)


# --- errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "message", "game", "line"), [
    ("", "not an SGF match record: no SGF game tree", None, 1),
    ("hello", "not an SGF match record: unexpected 'h' outside a game tree", None, 1),
    ("(;GM[6]\n;W[31he", "the file ends inside a property value", None, 2),
    ("(;FF[4]GM[1])", "game tree 1 is not backgammon: GM[1] where gnubg writes GM[6]", 1, 1),
    (_game("\n;W[31he!e]"), "W[31he!e]: '!' is no board point", 1, 2),
    (_game("\n;W[31hef]"), "W[31hef]: the play has an odd number of letters", 1, 2),
    (_game("\n;W[71hefe]"), "W[71hefe]: a roll starts with two dice 1-6", 1, 2),
    (_game("\n;AE[a:y]"), "AE[...] edits the position", 1, 2),
    (_game("\n;W[31hefe]", extra="RE[X+1]"), "RE[X+1] is not a result", 1, 1),
])
def test_bad_files_give_a_located_error(text: str, message: str, game: int | None,
                                        line: int | None) -> None:
    report = validate_record("bad.sgf", text.encode())

    assert not report.ok
    assert message in report.errors[0].message
    if game is not None or line is not None:
        assert (report.errors[0].game, report.errors[0].line) == (game, line)


def test_an_illegal_play_is_reported_at_its_node_line() -> None:
    # 3-1 cannot move 8/4 (a four).
    report = validate_record("bad.sgf", _game("\n;W[31hdfe]", extra="RE[W+1R]").encode())

    assert [(e.game, e.line) for e in report.errors] == [(1, 2)]


def test_mangled_files_give_errors_never_exceptions() -> None:
    chooser = random.Random(20261124)
    originals = [path.read_bytes() for path in SGF_FILES[:6]]
    mangled = 0
    for data in originals:
        for _ in range(40):
            cut = chooser.randrange(len(data))
            choice = chooser.randrange(4)
            if choice == 0:
                variant = data[:cut]
            elif choice == 1:
                variant = data[:cut] + bytes([chooser.randrange(256)]) + data[cut + 1:]
            elif choice == 2:
                variant = data[:cut] + data[cut + chooser.randrange(1, 50):]
            else:
                variant = data[:cut] + b"(;[]\\" + data[cut:]
            report = validate_record("mangled.sgf", variant)
            mangled += not report.ok
            assert all(error.message for error in report.errors)
    assert mangled > 100


def test_too_large_and_deeply_nested_files_are_refused() -> None:
    assert "over the limit" in validate_record(
        "big.sgf", b"(;GM[6])", max_bytes=4).errors[0].message
    nested = b"(;GM[6]" * 1000 + b")" * 1000
    assert "nested more than" in validate_record("deep.sgf", nested).errors[0].message


# --- score sheets without moves ---------------------------------------------------------


def test_results_only_match_writes_cube_actions_and_results() -> None:
    # 3-point match: Bob wins a dropped redouble (cube 2: Ann doubled, Bob took, Bob
    # redoubled, Ann dropped: 2 points), then Ann wins a gammon (2 points) in the
    # Crawford game, then Bob wins a single.
    header = MatchHeader(("Ann", "Bob"), 3)
    games = [GameSummary(Side.O, GameEnd.DROPPED, 2, 2),
             GameSummary(Side.X, GameEnd.PLAYED, 1, 2),
             GameSummary(Side.O, GameEnd.RESIGNED, 1, 1)]

    text = format_sgf_results(header, games)

    trees = text.strip().split("\n(")
    assert trees[0].split("\n")[1:] == [";W[double]", ";B[take]", ";B[double]", ";W[drop])"]
    assert "MI[length:3][game:1][ws:0][bs:2]" in trees[1]
    assert "RU[Crawford:CrawfordGame]RE[W+2R])" in trees[1]
    assert "MI[length:3][game:2][ws:2][bs:2]" in trees[2]
    assert "RE[B+1R]" in trees[2]
    record = read_sgf(text)
    assert [game.score for game in record.games] == [(0, 0), (0, 2), (2, 2)]


def test_results_only_mat_puts_each_cube_action_in_its_players_column() -> None:
    # Bob wins a dropped redouble: Ann doubled to 2, Bob took, Bob redoubled to 4 and Ann
    # dropped. Without rolls between them, Bob's redouble starts a line of its own.
    header = MatchHeader(("Ann", "Bob"), 5)
    games = [GameSummary(Side.O, GameEnd.DROPPED, 2, 2),
             GameSummary(Side.X, GameEnd.PLAYED, 2, 4)]

    text = format_mat_results(header, games)

    record = read_mat(text)
    cube_sides = [[(a.kind.value, a.side) for a in game.actions] for game in record.games]
    assert cube_sides[0] == [("double", Side.X), ("take", Side.O), ("double", Side.O),
                             ("drop", Side.X), ("win", Side.O)]
    assert cube_sides[1] == [("double", Side.O), ("take", Side.X), ("win", Side.X)]
    assert [game.score for game in record.games] == [(0, 0), (0, 2)]
    assert replay(record).final_score == (4, 2)
    assert text.startswith("; Score sheet")


def test_gnubg_scores_our_score_sheet_sgf_as_we_do(tmp_path: Path) -> None:
    # 5-point match: Bob wins a dropped redouble (2), Ann a gammon on a 2-cube (4), Bob a
    # resigned gammon in the Crawford game (2), Bob a single (1): Ann 4, Bob 5.
    gnubg = _gnubg_or_skip()
    games = [GameSummary(Side.O, GameEnd.DROPPED, 2, 2),
             GameSummary(Side.X, GameEnd.PLAYED, 2, 4),
             GameSummary(Side.O, GameEnd.RESIGNED, 1, 2),
             GameSummary(Side.O, GameEnd.PLAYED, 1, 1)]
    ours = tmp_path / "sheet.sgf"
    ours.write_text(format_sgf_results(MatchHeader(("Ann", "Bob"), 5), games))
    saved = tmp_path / "saved.sgf"
    commands = ["set confirm new off", f'load match "{ours}"', f'save match "{saved}"']
    subprocess.run([gnubg, "-t", "-q", "-r"], input="\n".join(commands) + "\n", text=True,
                   capture_output=True, timeout=120, check=False, env={"HOME": str(tmp_path)})

    text = saved.read_text()
    assert re.findall(r"\[ws:(\d+)\]\[bs:(\d+)\]", text) == [
        ("0", "0"), ("0", "2"), ("4", "2"), ("4", "4")]
    assert re.findall(r"RE\[([^\]]*)\]", text) == ["B+2", "W+4R", "B+2R", "B+1R"]
    assert "CrawfordGame" in text.split("\n(")[2]


# --- the command line -------------------------------------------------------------------


def test_validate_sgf_gives_the_same_json_as_the_mat(tmp_path: Path) -> None:
    stem = "gnubg_L03_s1037"
    runner = CliRunner()
    by_sgf = runner.invoke(cli, ["validate", "--json", str(SGF_DIR / f"{stem}.sgf")])
    by_mat = runner.invoke(cli, ["validate", "--json", str(SGF_DIR / f"{stem}.mat")])

    sgf_json, mat_json = json.loads(by_sgf.output), json.loads(by_mat.output)
    assert by_sgf.exit_code == by_mat.exit_code == 0
    assert sgf_json.pop("file").endswith(".sgf")
    assert mat_json.pop("file").endswith(".mat")
    assert sgf_json == mat_json


def test_validate_xg_says_why_a_file_cannot_be_read(tmp_path: Path) -> None:
    fake = tmp_path / "match.xg"
    fake.write_bytes(b"RGMH" + bytes(9000))
    other = tmp_path / "other.xg"
    other.write_bytes(b"not xg")

    result = CliRunner().invoke(cli, ["validate", "--json", str(fake), str(other)])

    lines = [json.loads(line) for line in result.output.splitlines()]
    assert result.exit_code == 1
    assert "a damaged .xg file" in lines[0]["errors"][0]["message"]
    assert "does not start with RGMH" in lines[1]["errors"][0]["message"]
