"""``tourney analyse`` against GNU Backgammon's own ``analyse match`` figures.

The expected figures are gnubg 1.07's (``tests/data/analysis/expected.json``, written by
``make_expected.py`` with the gnubg program at 0 plies). Tolerances: the error rate
within 5% or 1 mEMG, the luck rate within 8% or 1.5 mEMG.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tourney.analysis import MatchAnalysis, analyse_record, rating_words
from tourney.cli import cli
from tourney.rules.records import validate_mat

DATA = Path(__file__).resolve().parent.parent / "data" / "analysis"
RECORDS = sorted(path.name for path in DATA.glob("*.mat"))

# The counting is gnubg's own: on every record here tourney's figures are those of the
# gnubg module's own ``analyse match`` to the printed decimal (test_analyse_module.py).
# What differs is the evaluator: the figures here are gnubg 1.07's (the Debian program),
# tourney uses the gnubg 1.1 module, whose network is another one ("1.01" weights
# against 1.07's "1.00") and whose cubeful equities at some match scores and cube
# positions differ for the same position and weights: in gnubg_L07_s1021's first cube
# decision (7-point match, 0-0, centred cube) both give 49.78% for no double, but 47.49%
# (1.07) against 47.21% (1.1) for double, take. Fed 1.07's network, the 1.1 module still
# counts 1-4 fewer close cube decisions on the records below. These differences cannot
# be made up outside gnubg: the xfails stay.
ERROR_DISAGREES = {
    # Measured: GnubgB 71.2 against 67.1 mEMG: checker-play error 1.18 against 1.12 EMG
    # over the same 28 unforced moves (game 2 is played at 1-away/2-away scores), 2 close
    # cube decisions against 3.
    "gnubg_L03_s1031.mat": "the 1.1 module's equities at this match score",
    # Measured: GnubgA 42.0 against 46.3 mEMG: 25 close cube decisions against 28, cube
    # error 0.90 against 1.45 EMG (the module's double/take equities are lower).
    "gnubg_L03_s1055.mat": "the 1.1 module's double/take equities",
    # Measured: GnubgB 30.1 against 31.8 mEMG: 14 close cube decisions against 15, cube
    # error 0.22 against 0.36 EMG.
    "gnubg_L05_s1008.mat": "the 1.1 module's double/take equities",
}
LUCK_DISAGREES = {
    # Measured: GnubgA -0.7 against -2.9 mEMG per roll (-0.021 against -0.087 EMG over 30
    # rolls): three rolls of game 1 are judged 6 to 47 mEMG apart by the two networks.
    "gnubg_L01_s1042.mat": "the 1.1 module's network judges three rolls differently",
}


@cache
def _analysed(name: str) -> MatchAnalysis:
    return analyse_record(validate_mat((DATA / name).read_bytes()))


def _close(ours: float, theirs: float, percent: float, absolute: float) -> bool:
    return abs(ours - theirs) <= max(absolute, abs(theirs) * percent / 100)


def _marks(name: str, disagreeing: dict[str, str]) -> Any:
    if name not in disagreeing:
        return name
    reason = f"gnubg 1.07 and the gnubg 1.1 module differ: {disagreeing[name]}"
    return pytest.param(name, marks=[pytest.mark.xfail(strict=True, reason=reason)])


@pytest.mark.parametrize("name", [_marks(n, ERROR_DISAGREES) for n in RECORDS])
def test_error_rate_agrees_with_gnubg(name: str, gnubg_figures: dict[str, Any]) -> None:
    figures = _analysed(name).figures
    expected = [abs(rate) for rate in gnubg_figures[name]["error_rate"]]
    assert [
        _close(ours.error_rate, theirs, 5, 1.0)
        for ours, theirs in zip(figures, expected, strict=True)
    ] == [True, True], ([f.error_rate for f in figures], expected)


@pytest.mark.parametrize("name", [_marks(n, LUCK_DISAGREES) for n in RECORDS])
def test_luck_rate_agrees_with_gnubg(name: str, gnubg_figures: dict[str, Any]) -> None:
    figures = _analysed(name).figures
    expected = gnubg_figures[name]["luck_rate"]
    assert [
        _close(ours.luck_rate, theirs, 8, 1.5)
        for ours, theirs in zip(figures, expected, strict=True)
    ] == [True, True], ([f.luck_rate for f in figures], expected)


@pytest.mark.parametrize("name", RECORDS)
def test_unforced_moves_are_gnubgs(name: str, gnubg_figures: dict[str, Any]) -> None:
    figures = _analysed(name).figures
    assert [f.unforced_moves for f in figures] == gnubg_figures[name]["unforced_moves"]


def test_analyse_json_has_the_contract_fields_in_file_order(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["analyse", str(DATA / "gnubg_L01_s1018.mat"), "--json"])
    document = json.loads(result.output)
    assert (result.exit_code, sorted(document), document["players"], document["games"]) == (
        0, ["error_rate", "games", "luck", "players", "pr"], ["GnubgA", "GnubgB"], 1,
    )
    # PR is half the error rate (gnubg: 33.4 and 43.7 mEMG per decision).
    assert [round(2 * pr) for pr in document["pr"]] == [round(e) for e in document["error_rate"]]


def test_analyse_without_json_prints_a_readable_report(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["analyse", str(DATA / "gnubg_L01_s1018.mat")])
    assert (result.exit_code, "Error rate" in result.output, "Biggest errors of GnubgA"
            in result.output) == (0, True, True)


def test_analyse_of_an_invalid_record_exits_1(runner: CliRunner, tmp_path: Any) -> None:
    bad = tmp_path / "bad.mat"
    text = (DATA / "gnubg_L01_s1018.mat").read_text().replace("53: 13/8 24/21", "53: 13/7 24/21", 1)
    bad.write_text(text)
    result = runner.invoke(cli, ["analyse", str(bad), "--json"])
    assert result.exit_code == 1


def test_analyse_without_the_extra_says_it_is_not_installed(
    runner: CliRunner, without_gnubg: None
) -> None:
    result = runner.invoke(cli, ["analyse", str(DATA / "gnubg_L01_s1018.mat"), "--json"])
    assert (result.exit_code, result.output.startswith("tourney: analysis is not installed")) \
        == (2, True)


@pytest.mark.parametrize(
    ("error_rate", "words"),
    [
        # gnubg 1.07's bounds in EMG per decision: 0.002, 0.005, 0.008, 0.012, 0.018,
        # 0.026, 0.035 (found in the Debian program's binary).
        (1.9, "Supernatural"),
        (4.9, "World class"),
        (5.0, "Expert"),
        (11.9, "Advanced"),
        (17.0, "Intermediate"),
        (25.0, "Casual player"),
        (34.0, "Beginner"),
        (35.0, "Awful!"),
    ],
)
def test_rating_words_follow_gnubgs_bounds(error_rate: float, words: str) -> None:
    assert rating_words(error_rate) == words
