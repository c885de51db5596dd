"""check_play: legal plays accepted as written, illegal ones refused with the rule."""

from __future__ import annotations

import pytest

from tourney.rules import (
    IllegalPlayError,
    NotationError,
    PlayRule,
    Position,
    Roll,
    check_play,
    legal_positions,
    parse_play,
)

OPENING = Position.initial()


def refusal(position: Position, roll: Roll, text: str) -> IllegalPlayError:
    with pytest.raises(IllegalPlayError) as raised:
        check_play(position, roll, parse_play(text))
    return raised.value


@pytest.mark.parametrize(
    "text",
    ["8/5 6/5", "6/5 8/5", "8/5, 6/5", "24/21 21/20", "24/20", "13/9", "24/23 13/10"],
)
def test_legal_opening_3_1_is_accepted_in_any_notation(text: str) -> None:
    result = check_play(OPENING, Roll(3, 1), parse_play(text))
    assert result in legal_positions(OPENING, Roll(3, 1))


def test_notation_variants_reach_the_same_position() -> None:
    # 6-6 from the opening: 24/18(2) 13/7(2) written four ways.
    expected = check_play(OPENING, Roll(6, 6), parse_play("24/18 24/18 13/7 13/7"))
    for text in ("24/18(2) 13/7(2)", "24/18(2), 13/7(2)", "13/7(2) 24/18(2)"):
        assert check_play(OPENING, Roll(6, 6), parse_play(text)) == expected


def test_consolidated_move_with_intermediate_hit() -> None:
    # An opponent blot on the mover's 7 point (its 18): 13/7*/4 with 6-3.
    position = Position.from_points({13: 5, 8: 3, 6: 5, 24: 2}, {18: 1, 6: 5, 8: 3, 13: 4, 24: 2})
    result = check_play(position, Roll(6, 3), parse_play("13/7*/4"))
    assert result.mover[4] == 1
    assert result.opponent[25] == 1


def test_bar_and_off_words_and_numbers_are_the_same() -> None:
    position = Position.from_points({25: 1, 6: 14}, {12: 15})
    by_words = check_play(position, Roll(6, 5), parse_play("bar/19 19/14"))
    assert check_play(position, Roll(6, 5), parse_play("25/19 19/14")) == by_words
    assert check_play(position, Roll(6, 5), parse_play("bar/14")) == by_words


def test_no_checker_on_the_starting_point() -> None:
    error = refusal(OPENING, Roll(3, 1), "7/4 6/5")
    assert error.rule is PlayRule.NO_CHECKER
    assert str(error) == "there is no checker on the 7 point to move"


def test_blocked_point_names_the_count() -> None:
    # From the opening, 6/1 lands on the opponent's 24 point: two checkers.
    error = refusal(OPENING, Roll(5, 2), "6/1 6/4")
    assert error.rule is PlayRule.BLOCKED
    assert str(error) == "the 1 point is blocked (2 checkers)"


def test_checker_on_bar_must_enter_first() -> None:
    position = Position.from_points({25: 1, 13: 14}, {6: 2, 11: 13})
    error = refusal(position, Roll(6, 1), "13/7 13/12")
    assert error.rule is PlayRule.BAR_FIRST
    assert str(error) == "13/7 moves while a checker is on the bar: it must enter first"


def test_cannot_bear_off_with_a_checker_outside() -> None:
    position = Position.from_points({7: 1, 6: 1, 5: 1}, {6: 8, 5: 7})
    error = refusal(position, Roll(6, 5), "6/off 5/off")
    assert error.rule is PlayRule.NOT_ALL_HOME
    assert str(error) == (
        "6/0 bears off while a checker stands on the 7 point, outside the home board"
    )


def test_hit_checker_must_come_home_before_bearing_off() -> None:
    position = Position.from_points({25: 1, 6: 14}, {12: 15})
    error = refusal(position, Roll(6, 5), "bar/19 6/off")
    assert error.rule is PlayRule.NOT_ALL_HOME


def test_higher_number_bears_off_only_from_the_highest_point() -> None:
    # Checkers on 5 and 3: a 4 cannot bear off the 3 while the 5 point is occupied.
    position = Position.from_points({5: 1, 3: 1}, {6: 8, 5: 7})
    error = refusal(position, Roll(4, 4), "3/off")
    assert error.rule is PlayRule.HIGHER_POINT_OCCUPIED
    assert str(error) == (
        "3/0 bears off with a 4 from the 3 point while a checker stands on the higher 5 point"
    )


def test_both_dice_could_have_been_played() -> None:
    error = refusal(OPENING, Roll(3, 1), "8/5")
    assert error.rule is PlayRule.MORE_DICE_PLAYABLE
    assert str(error).startswith("both dice could have been played, and the play uses 1")


def test_larger_die_could_have_been_played() -> None:
    # The runner on 20 can play the 6 or the 5 but not both; 20/15 uses the smaller.
    position = Position.from_points({20: 1, 2: 14}, {24: 2, 16: 2, 12: 11})
    error = refusal(position, Roll(6, 5), "20/15")
    assert error.rule is PlayRule.LARGER_DIE
    assert str(error) == (
        "only one die can be played, so it must be the larger: the 6 can be played "
        "(for example 20/14)"
    )


def test_dance_written_when_a_play_exists() -> None:
    error = refusal(OPENING, Roll(6, 5), "")
    assert error.rule is PlayRule.MORE_DICE_PLAYABLE
    assert "so the roll may not be passed" in str(error)


def test_dance_accepted_against_a_closed_board() -> None:
    closed = Position.from_points({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3})
    assert check_play(closed, Roll(6, 5), parse_play("")) == closed


def test_too_many_moves_for_the_roll() -> None:
    error = refusal(OPENING, Roll(3, 1), "8/5 6/5 6/5")
    assert error.rule is PlayRule.TOO_MANY_MOVES
    assert str(error) == "3-1 gives 2 moves, and the play makes 3"


def test_move_that_matches_no_die() -> None:
    error = refusal(OPENING, Roll(6, 5), "13/7 13/7")
    assert error.rule is PlayRule.DIE_MISMATCH
    assert str(error) == "13/7 moves 6 pips, which the dice left (5) cannot make"


def test_move_no_number_of_the_roll_makes_is_named_before_a_blocked_landing_point() -> None:
    # 24/17 is seven pips: a 6-2 moves one checker 6, 2 or 8, whatever the board. That
    # the 17 point (the opponent's 8 point, three checkers) is also held is beside it.
    error = refusal(OPENING, Roll(6, 2), "24/17 13/11")
    assert error.rule is PlayRule.DIE_MISMATCH
    assert str(error) == "24/17 moves 7 pips; a 6-2 moves a checker 6, 2 or 8"


def test_move_no_number_of_a_doublet_makes_lists_every_multiple() -> None:
    # 3-3 moves one checker 3, 6, 9 or 12 pips; 24/17 is seven.
    error = refusal(OPENING, Roll(3, 3), "24/17 13/10 13/10")
    assert error.rule is PlayRule.DIE_MISMATCH
    assert str(error) == "24/17 moves 7 pips; a 3-3 moves a checker 3, 6, 9 or 12"


def test_move_no_number_of_the_roll_makes_is_named_before_an_earlier_written_fault() -> None:
    # 6/1 lands on the opponent's 24 point (two checkers) with the 5 of 6-5, but 24/17 is
    # wrong for any 6-5 on any board: that is the fault to report.
    error = refusal(OPENING, Roll(6, 5), "6/1 24/17")
    assert error.rule is PlayRule.DIE_MISMATCH
    assert str(error) == "24/17 moves 7 pips; a 6-5 moves a checker 6, 5 or 11"


def test_bear_off_no_number_of_the_roll_reaches() -> None:
    # All home; the 6 point checker needs six pips or more to bear off, a 2-1 gives 3 at most.
    position = Position.from_points({6: 1, 2: 14}, {24: 15})
    error = refusal(position, Roll(2, 1), "6/off")
    assert error.rule is PlayRule.DIE_MISMATCH
    assert str(error) == "6/0 moves 6 pips; a 2-1 moves a checker 2, 1 or 3"


def test_doublet_with_fewer_moves_than_possible() -> None:
    error = refusal(OPENING, Roll(2, 2), "13/11 13/11")
    assert error.rule is PlayRule.MORE_DICE_PLAYABLE
    assert str(error).startswith("4 of the four 2s could have been played, and the play uses 2")


@pytest.mark.parametrize("text", ["13-7", "13/7/", "x/3", "26/20", "5/7", "off/3", "6/4(5)"])
def test_unreadable_play_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_play(text)


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        check_play(OPENING, Roll(3, 1), parse_play("7/4 6/5"))
