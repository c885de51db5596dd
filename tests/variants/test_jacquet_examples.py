"""The worked examples of VARIANTS.md section 18 for Jacquet: the courier, the only checker
that may leave the talon until it is home, in a parallel game without hitting."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from tables_builders import mover_points, position, side

from tourney.cli import cli
from tourney.rules import IllegalPlayError, Level, Roll, parse_play
from tourney.rules.variants import JACQUET


def points_after(at: object, dice: str) -> list[dict[int, int]]:
    found = JACQUET.legal_positions(at, Roll.parse(dice))  # type: ignore[arg-type]
    return sorted((mover_points(JACQUET, p) for p in found), key=lambda p: sorted(p.items()))


def test_only_one_checker_leaves_the_talon() -> None:
    # E-JAC-1: both 24:15. 5-2: 24/19/17 or 24/22/17 (17 is Y's 5, 19 and 22 Y's 7 and
    # 10, all empty) -> one result; two checkers off the talon is illegal.
    assert points_after(JACQUET.initial(), "52") == [{24: 14, 17: 1}]
    with pytest.raises(IllegalPlayError):
        JACQUET.check_play(JACQUET.initial(), Roll(5, 2), parse_play("24/19 24/22"))


def test_a_stuck_courier_loses_both_dice() -> None:
    # E-JAC-2: X {24:14, 13:1}; Y holds X's 7 (Y's 19) and X's 12 (its talon). 6-1: 13/7
    # and 13/12 are closed and the talon may not move: no play.
    at = position(JACQUET, side({24: 14, 13: 1}), side({24: 14, 19: 1}))

    assert points_after(at, "61") == [{24: 14, 13: 1}]


def test_the_talon_opens_once_the_courier_is_home() -> None:
    # X {24:14, 7:1}; Y {24:15} (X's 12). 2-1: the courier must move first; 7/6 puts it
    # home, then the 2 plays 24/22 or 6/4; 7/5 then 24/23 or 5/4. Three results.
    at = position(JACQUET, side({24: 14, 7: 1}), side({24: 15}))

    assert points_after(at, "21") == [
        {4: 1, 24: 14}, {5: 1, 23: 1, 24: 13}, {6: 1, 22: 1, 24: 13}]


def test_jacquet_scores_one_or_two_with_no_cube() -> None:
    won = position(JACQUET, side({}), side({24: 15}))

    assert JACQUET.winning_level(won) == Level.GAMMON
    assert (JACQUET.levels(), JACQUET.uses_cube()) == ((Level.SINGLE, Level.GAMMON), False)
    assert JACQUET.can_open_with_doublet


def test_rules_legal_and_show_from_the_jacquet_start() -> None:
    result = CliRunner().invoke(cli, ["rules", "legal", "--variant", "jacquet", "--json",
                                      "start", "31"])
    shown = CliRunner().invoke(cli, ["rules", "show", "--variant", "jacquet", "start"])

    assert (result.exit_code, shown.exit_code) == (0, 0)
    assert [json.loads(line)["x"]["points"] for line in result.stdout.splitlines()] == [
        {"20": 1, "24": 14}]
    assert "Position ID" in shown.stdout
