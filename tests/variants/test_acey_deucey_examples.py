"""The worked examples of VARIANTS.md section 18 for American acey-deucey (E-AD-1,
E-AD-2, E-AD-4), its free entry from the pool, its levels, and the rules CLI from its
start (every checker in the pool)."""

from __future__ import annotations

import pytest
from tables_builders import layouts, pips_moved, position, rules_cli_from_start, side

from tourney.rules import IllegalPlayError, Level, Roll, parse_play
from tourney.rules.variants import ACEY_DEUCEY


def test_a_one_two_plays_the_one_and_the_two_then_four_of_a_named_number() -> None:
    # E-AD-1: from the start the 1 and the 2 move 3 pips (enter/24 enter/23, or one
    # checker enter/23/22 or enter/24/22); on an empty board every named c is played in
    # full, four c more: 3 + 4c pips for c = 1..6, and never fewer.
    found = ACEY_DEUCEY.legal_positions(ACEY_DEUCEY.initial(), Roll(1, 2))

    assert {pips_moved(ACEY_DEUCEY, after) for after in found} == {7, 11, 15, 19, 23, 27}


def test_a_one_two_with_sixes_named_plays_any_four_sixes() -> None:
    # E-AD-1 with c = 6: after enter/24 enter/23, four enter/19 (or moves such as 24/18).
    at = ACEY_DEUCEY.initial()
    entered = ACEY_DEUCEY.check_play(at, Roll(1, 2), parse_play("bar/24 bar/23 bar/19(4)"))
    moved = ACEY_DEUCEY.check_play(at, Roll(2, 1), parse_play("bar/22 bar/19 19/13 bar/19 bar/19"))

    assert layouts(ACEY_DEUCEY, at, "12").count(({19: 4, 23: 1, 24: 1}, 9, 0)) == 1
    assert ACEY_DEUCEY.position_layout(entered).mover.points == {24: 1, 23: 1, 19: 4}
    assert ACEY_DEUCEY.position_layout(moved).mover.points == {22: 1, 19: 2, 13: 1}
    with pytest.raises(IllegalPlayError):  # stopping after the 1 and the 2
        ACEY_DEUCEY.check_play(at, Roll(1, 2), parse_play("bar/24 bar/23"))


def test_a_one_two_that_cannot_be_played_gives_no_named_double() -> None:
    # E-AD-2: X on the bar, Y holds X's 24 and 23 (Y's 1 and 2) with two each: neither
    # the 1 nor the 2 enters, so no number is named (four 3s would enter on X's 22).
    at = position(ACEY_DEUCEY, side({13: 14}, bar=1), side({1: 2, 2: 2, 6: 11}))

    assert layouts(ACEY_DEUCEY, at, "12") == [({13: 14}, 0, 0)]


def test_checkers_in_the_pool_enter_or_board_checkers_move_as_the_player_likes() -> None:
    # Free entry (9.1): X {22:1}, 14 in the pool, 5-4: enter/20 enter/21, enter/20 22/18,
    # enter/21 22/17, enter and on to 16 (either die first), or 22/13 and no entry.
    at = position(ACEY_DEUCEY, side({22: 1}, pool=14), side({}, pool=15))

    assert layouts(ACEY_DEUCEY, at, "54") == [
        ({13: 1}, 14, 0), ({16: 1, 22: 1}, 13, 0), ({17: 1, 21: 1}, 13, 0),
        ({18: 1, 20: 1}, 13, 0), ({20: 1, 21: 1, 22: 1}, 12, 0)]


def test_american_bear_off_takes_the_highest_checker_with_a_larger_die() -> None:
    # E-AD-4, American half: X {4:1, 2:1}, 13 off, 6-5: 6/off from 4, 5/off from 2 -> won.
    at = position(ACEY_DEUCEY, side({4: 1, 2: 1}), side({6: 15}))

    assert layouts(ACEY_DEUCEY, at, "65") == [({}, 0, 15)]


def test_an_ordinary_doublet_plays_four_moves_and_no_opposite() -> None:
    # 9.1: four moves; the complement is European only. X {24:1, 1:1}, 13 off, 3-3: the
    # 1 cannot move, so 24/21/18/15/12.
    at = position(ACEY_DEUCEY, side({24: 1, 1: 1}), side({6: 15}))

    assert layouts(ACEY_DEUCEY, at, "33") == [({1: 1, 12: 1}, 0, 13)]


def test_acey_deucey_levels_count_the_pool_for_a_backgammon_and_have_no_cube() -> None:
    backgammon = position(ACEY_DEUCEY, side({}), side({6: 14}, pool=1))
    gammon = position(ACEY_DEUCEY, side({}), side({6: 15}))

    assert ACEY_DEUCEY.winning_level(backgammon) == Level.BACKGAMMON
    assert ACEY_DEUCEY.winning_level(gammon) == Level.GAMMON
    assert [ACEY_DEUCEY.level_points(level) for level in Level] == [1, 2, 3]
    assert not ACEY_DEUCEY.uses_cube()


def test_rules_cli_from_the_acey_deucey_start_enters_or_runs_one_checker() -> None:
    # 3-1 from the pool: enter/22 enter/24, or one checker enter/22/21 or enter/24/21.
    positions, shown, ids = rules_cli_from_start("acey-deucey", "31")

    assert [found["x"]["points"] for found in positions] == [{"21": 1}, {"22": 1, "24": 1}]
    assert "pool 15" in shown and len(ids) == 2
