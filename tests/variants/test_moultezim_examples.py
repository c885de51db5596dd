"""The worked example of VARIANTS.md section 18 for Moultezim, and its other rules: Fevga's
parallel game and first checker, and never more than four points of the opponent's
starting table (own 7-12) at the end of a turn."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from tables_builders import mover_points, position, side

from tourney.cli import cli
from tourney.rules import IllegalPlayError, Level, Roll, parse_play
from tourney.rules.variants import MOULTEZIM

E_MOUL_1 = {24: 9, 13: 1, 11: 1, 10: 1, 9: 1, 8: 1, 3: 1}


def test_a_fifth_point_in_the_opponents_starting_table_is_illegal() -> None:
    # E-MOUL-1: X holds 11, 10, 9, 8 of its 7-12; Y {24:15} is X's 12. 6-1. Sixes 24/18,
    # 13/7, 11/5, 10/4, 9/3, 8/2 (3/off: not all home); ones 24/23, 11/10, 10/9, 9/8,
    # 8/7, 3/2 (13/12 is Y's). Pairs of a six and a one on two checkers, and the six
    # single 7s (24/17, 13/6, 11/4, 10/3, 9/2, 8/1): after removing the pairs equal to a
    # 7 (10/4 11/10, 9/3 10/9, 9/3 3/2, 8/2 9/8) and the two that end on five points
    # (13/7 24/23, 13/7 3/2), 6 + 4 + 5 + 4 + 3 + 4 pairs and 6 single checkers: 32.
    at = position(MOULTEZIM, side(E_MOUL_1), side({24: 15}))

    found = MOULTEZIM.legal_positions(at, Roll(6, 1))
    legal = MOULTEZIM.check_play(at, Roll(6, 1), parse_play("13/7 8/7"))

    assert len(found) == 32
    assert mover_points(MOULTEZIM, legal) == {24: 9, 11: 1, 10: 1, 9: 1, 7: 2, 3: 1}
    for written in ("13/7 24/23", "13/7 3/2", "13/12 24/18"):
        with pytest.raises(IllegalPlayError):
            MOULTEZIM.check_play(at, Roll(6, 1), parse_play(written))


def test_only_the_first_checker_moves_until_it_passes_the_opponents_start() -> None:
    # From the start, 6-5: one checker 24/18/13 or 24/19/13 (Y's 24 is X's 12); two
    # checkers off the 24 point is illegal.
    found = MOULTEZIM.legal_positions(MOULTEZIM.initial(), Roll(6, 5))

    assert [mover_points(MOULTEZIM, p) for p in found] == [{24: 14, 13: 1}]
    with pytest.raises(IllegalPlayError):
        MOULTEZIM.check_play(MOULTEZIM.initial(), Roll(6, 5), parse_play("24/18 24/19"))


def test_moultezim_scores_one_or_two_with_no_cube() -> None:
    won = position(MOULTEZIM, side({}), side({3: 15}))

    assert MOULTEZIM.winning_level(won) == Level.GAMMON
    assert (MOULTEZIM.levels(), MOULTEZIM.uses_cube()) == ((Level.SINGLE, Level.GAMMON), False)


def test_rules_legal_and_show_from_the_moultezim_start() -> None:
    # 3-1: one checker, 24/21/20 or 24/23/20.
    result = CliRunner().invoke(cli, ["rules", "legal", "--variant", "moultezim", "--json",
                                      "start", "31"])
    shown = CliRunner().invoke(cli, ["rules", "show", "--variant", "moultezim", "start"])

    assert (result.exit_code, shown.exit_code) == (0, 0)
    assert [json.loads(line)["x"]["points"] for line in result.stdout.splitlines()] == [
        {"20": 1, "24": 14}]
    assert "Position ID" in shown.stdout
