"""The worked examples of VARIANTS.md section 18 for Russian backgammon, and the rules
CLI from its start (every checker in the pool)."""

from __future__ import annotations

import json

from click.testing import CliRunner
from tables_builders import mover_points, position, side

from tourney.cli import cli
from tourney.rules import Level, Roll, parse_play
from tourney.rules.variants import RUSSIAN


def layouts(at: object, dice: str) -> list[tuple[dict[int, int], int, int]]:
    """(points, pool, off) of the mover after each legal turn, sorted."""
    found = RUSSIAN.legal_positions(at, Roll.parse(dice))  # type: ignore[arg-type]
    read = [(mover_points(RUSSIAN, after), RUSSIAN.position_layout(after).mover.pool,
             RUSSIAN.position_layout(after).mover.off) for after in found]
    return sorted(read, key=lambda item: (sorted(item[0].items()), item[1], item[2]))


def test_a_doublet_plays_its_opposite_and_an_incomplete_stage_ends_the_turn() -> None:
    # E-RU-1: X {20:1, 10:1}, 13 off; Y {14:2, 4:2, 22:11} (same numbering). 1-1: four
    # 1s end on (20,6), (19,7), (18,8), (17,9) or (16,10); then four 6s:
    # (20,6): none -> turn ends; (19,7): 19/13/7 7/1 7/1 -> {1:2};
    # (18,8): 18/12/6 8/2 6/off -> {2:1}; (17,9): 17/11/5 9/3 5/off -> {3:1};
    # (16,10): 16/10, then 10/4 is blocked -> {10:2}, turn ends.
    at = position(RUSSIAN, side({20: 1, 10: 1}), side({14: 2, 4: 2, 22: 11}))

    assert layouts(at, "11") == [
        ({1: 2}, 0, 13), ({2: 1}, 0, 14), ({3: 1}, 0, 14), ({6: 1, 20: 1}, 0, 13),
        ({10: 2}, 0, 13)]


def test_checkers_in_the_pool_enter_before_any_board_checker_moves() -> None:
    # E-RU-2: X with 5 in the pool; 6-4 with 19 and 21 open: enter/19 enter/21 only.
    at = position(RUSSIAN, side({13: 5, 8: 5}, pool=5), side({}, pool=15))

    assert layouts(at, "64") == [({8: 5, 13: 5, 19: 1, 21: 1}, 3, 0)]


def test_a_doublet_while_entering_has_no_opposite() -> None:
    # E-RU-3: X with 5 in the pool, 3-3, 22 open: four enter/22, no four 4s.
    at = position(RUSSIAN, side({13: 10}, pool=5), side({}, pool=15))

    assert layouts(at, "33") == [({13: 10, 22: 4}, 1, 0)]


def test_a_hit_checker_enters_from_the_bar_first() -> None:
    # Y's 24/20 with the 4 hits X's blot on 20 (shared track: Y's 20 is X's 20); 24/23/19
    # does not. X then enters first with 5-2: bar/20* (hitting back) then 20/18 or 6/4*,
    # or bar/23 then 23/18 or 6/1; its 6s never move both dice.
    at = position(RUSSIAN, side({24: 1, 5: 14}), side({20: 1, 6: 14}))

    hit = RUSSIAN.check_play(at, Roll(4, 1), parse_play("24/20* 5/4"))
    on_bar = {RUSSIAN.position_layout(p).opponent.bar for p in RUSSIAN.legal_positions(
        at, Roll(4, 1))}
    entered = layouts(hit.turned(), "52")

    assert on_bar == {0, 1}
    assert entered == [({1: 1, 6: 13, 23: 1}, 0, 0), ({4: 1, 6: 13, 20: 1}, 0, 0),
                       ({6: 14, 18: 1}, 0, 0), ({6: 14, 18: 1}, 0, 0)]


def test_russian_scores_a_checker_still_in_the_pool_as_a_backgammon() -> None:
    won = position(RUSSIAN, side({}), side({6: 14}, pool=1))

    assert RUSSIAN.winning_level(won) == Level.BACKGAMMON
    assert (RUSSIAN.level_points(Level.BACKGAMMON), RUSSIAN.uses_cube()) == (3, False)


def test_rules_legal_from_the_russian_start_enters_two_checkers() -> None:
    result = CliRunner().invoke(cli, ["rules", "legal", "--variant", "russian", "--json",
                                      "start", "31"])

    assert result.exit_code == 0
    assert [json.loads(line)["x"] for line in result.stdout.splitlines()] == [
        {"bar": 0, "off": 0, "points": {"22": 1, "24": 1}, "pool": 13}]
