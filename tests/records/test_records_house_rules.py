"""Records of handicap matches and of events with backgammon's house rules."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tourney.cli import cli
from tourney.rules.records import validate_record
from tourney.rules.records.model import ErrorKind
from tourney.rules.records.replay import MatchRules
from tourney.rules.variants import VariantOptions

HANDICAP = Path(__file__).parent.parent / "data" / "handicap" \
    / "seven_points_from_one_nil.mat"
"""A 7-point match started at 1-0 (game 1's score line says so); GnubgB wins game 1
single, so the score after it is 1-1."""


def _validate(*arguments: str) -> tuple[int, dict[str, object]]:
    result = CliRunner().invoke(cli, ["validate", "--json", *arguments, str(HANDICAP)])
    return result.exit_code, json.loads(result.output)


def test_a_handicap_record_validates_against_its_start() -> None:
    code, report = _validate("--start", "1-0")

    assert code == 0
    assert report["final_score"] == [1, 1]
    assert report["errors"] == []


def test_a_record_whose_first_game_disagrees_with_the_start_names_game_1() -> None:
    code, report = _validate("--start", "2-0")

    assert code == 1
    assert report["errors"] == [{
        "game": 1, "line": 8,
        "message": "the score line of game 1 says GnubgA 1, GnubgB 0, but the match "
                   "starts at 2-0"}]


def test_a_malformed_start_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["validate", "--start", "one-nil", str(HANDICAP)])

    assert result.exit_code == 2
    assert "--start 'one-nil': write the starting score" in result.output


DOUBLET_OPENING = """ 3 point match

 Game 1
 Alice : 0                     Bob : 0
  1) 33: 8/5 8/5 6/3 6/3
"""


def test_an_opening_doublet_is_an_error_unless_the_event_opens_by_the_higher_total() -> None:
    plain = validate_record("doublet.mat", DOUBLET_OPENING, rules=MatchRules())
    higher_total = validate_record("doublet.mat", DOUBLET_OPENING, rules=MatchRules(
        options=VariantOptions(opening_higher_total=True)))

    assert [error.kind for error in plain.errors] == [ErrorKind.OPENING_DOUBLET]
    assert higher_total.errors == ()
