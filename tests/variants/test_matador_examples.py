"""The worked examples of VARIANTS.md section 18 for Matador: Jacquet where a 4-3 is played,
then four of a value the roller names; a stage not played in full ends the turn."""

from __future__ import annotations

import json

from click.testing import CliRunner
from tables_builders import mover_points, position, side

from tourney.cli import cli
from tourney.rules import Level, Roll, parse_play
from tourney.rules.variants import MATADOR


def points_after(at: object, dice: str) -> list[dict[int, int]]:
    found = MATADOR.legal_positions(at, Roll.parse(dice))  # type: ignore[arg-type]
    return sorted((mover_points(MATADOR, p) for p in found), key=lambda p: sorted(p.items()))


def test_the_matador_plays_the_named_double_after_the_four_and_three() -> None:
    # E-MAT-1: X {24:14, 20:1 courier}; Y {24:14 (X's 12), 19:1 (X's 7)}. Stage A: only
    # the courier, 20/16/13 or 20/17/13. Stage B by c: 1: 13/12 closed -> {13}; 2:
    # 13/11/9, 9/7 closed -> {9}; 3: 13/10, 10/7 closed -> {10}; 4: 13/9/5 (home), then
    # two 4s by anyone: 24/20 24/20, 24/20/16, or 5/1 24/20; 5: 13/8/3, then 24/19 24/19
    # or 24/19/14; 6: 13/7 closed -> {13}. Eight results.
    at = position(MATADOR, side({24: 14, 20: 1}), side({24: 14, 19: 1}))

    assert points_after(at, "43") == sorted([
        {24: 14, 13: 1}, {24: 14, 9: 1}, {24: 14, 10: 1},
        {24: 12, 20: 2, 5: 1}, {24: 13, 16: 1, 5: 1}, {24: 13, 20: 1, 1: 1},
        {24: 12, 19: 2, 3: 1}, {24: 13, 14: 1, 3: 1}], key=lambda p: sorted(p.items()))
    played = MATADOR.check_play(at, Roll(4, 3), parse_play("20/16/13/8/3 24/19 24/19"))
    assert mover_points(MATADOR, played) == {24: 12, 19: 2, 3: 1}


def test_a_blocked_four_three_ends_the_turn_with_no_named_double() -> None:
    # E-MAT-2: X {24:14, 20:1}; Y single checkers on X's 16 and 17 (Y's 4 and 5): 20/16
    # and 20/17 are closed and the talon is frozen: nothing is played.
    at = position(MATADOR, side({24: 14, 20: 1}), side({24: 13, 4: 1, 5: 1}))

    assert points_after(at, "43") == [{24: 14, 20: 1}]


def test_other_rolls_are_jacquets() -> None:
    # E-JAC-1 in Matador: 5-2 from the start moves the courier only.
    assert points_after(MATADOR.initial(), "52") == [{24: 14, 17: 1}]


def test_matador_scores_one_or_two_with_no_cube() -> None:
    won = position(MATADOR, side({}), side({24: 15}))

    assert MATADOR.winning_level(won) == Level.GAMMON
    assert (MATADOR.levels(), MATADOR.uses_cube()) == ((Level.SINGLE, Level.GAMMON), False)


def test_rules_legal_and_show_from_the_matador_start() -> None:
    # 4-3 from the start: the courier 24/20/17 or 24/21/17, then c: 1s 17/16/15/14/13;
    # 2s 17/15/13/11/9; 3s 17/14/11/8/5 (home at the fourth); 4s 17/13/9/5 then one 4
    # by anyone (24/20 or 5/1); 5s 17/12 is Y's talon -> none; 6s 17/11/5 then two 6s:
    # 24/18 24/18, 24/18/12 is closed, 5 cannot bear off -> 24/18 24/18 only.
    result = CliRunner().invoke(cli, ["rules", "legal", "--variant", "matador", "--json",
                                      "start", "43"])
    shown = CliRunner().invoke(cli, ["rules", "show", "--variant", "matador", "start"])

    assert (result.exit_code, shown.exit_code) == (0, 0)
    found = {tuple(sorted((int(p), n) for p, n in json.loads(line)["x"]["points"].items()))
             for line in result.stdout.splitlines()}
    assert found == {((13, 1), (24, 14)), ((9, 1), (24, 14)), ((5, 1), (24, 14)),
                     ((5, 1), (20, 1), (24, 13)), ((1, 1), (24, 14)), ((17, 1), (24, 14)),
                     ((5, 1), (18, 2), (24, 12))}
    assert "Position ID" in shown.stdout
