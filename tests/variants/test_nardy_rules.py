"""Long nardy's rules, each with a hand-worked position; expected plays are worked out in
the comments (points in each side's own numbering: my point p is the opponent's p - 12
for p > 12, else p + 12)."""

from __future__ import annotations

import pytest

from tourney.rules import IllegalPlayError, Level, PlayRule, Roll, parse_play
from tourney.rules.nardy import (
    NardyPosition,
    NardyRules,
    check_nardy_play,
    legal_nardy_plays,
    legal_nardy_positions,
    nardy_level_points,
    nardy_winning_level,
)

START = NardyPosition.initial()


def _plays(position: NardyPosition, roll: Roll, **kwargs: object) -> list[str]:
    return sorted(str(p) for p in legal_nardy_plays(position, roll, **kwargs))  # type: ignore[arg-type]


def _after(position: NardyPosition, dice: str, play: str) -> NardyPosition:
    return check_nardy_play(position, Roll.parse(dice), parse_play(play)).turned()


def test_opening_non_doublet_moves_one_checker_from_the_head() -> None:
    # 6-5: only one checker may leave the head, so it plays both dice: 24/18/13.
    assert _plays(START, Roll(6, 5)) == ["24/18 18/13"]


def test_opening_six_six_takes_two_checkers_off_the_head() -> None:
    # One checker stops on 18 (12 is the opponent's head): the exception lets a second
    # leave; the other two sixes are lost. 24/18(2).
    assert _plays(START, Roll(6, 6)) == ["24/18 24/18"]


def test_opening_four_four_plays_two_checkers_to_sixteen() -> None:
    # 24/20/16 then 12 is the head: a second checker plays the other two fours.
    assert [sorted(p.mover[13:25]) for p in legal_nardy_positions(START, Roll(4, 4))] == [
        sorted([0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 13])
    ]


def test_opening_three_three_has_two_plays() -> None:
    # Two checkers leave the head with 12 pips between them in threes, none reaching 12:
    # 24/15 24/21 or 24/18 24/18.
    results = {tuple(p.mover[15:25]) for p in legal_nardy_positions(START, Roll(3, 3))}
    assert results == {
        (1, 0, 0, 0, 0, 0, 1, 0, 0, 13),
        (0, 0, 0, 2, 0, 0, 0, 0, 0, 13),
    }


def test_opening_five_five_takes_one_checker_all_the_way() -> None:
    # 5-5 is no exception: one checker 24/19/14/9/4.
    assert _plays(START, Roll(5, 5)) == ["24/19 19/14 14/9 9/4"]


def test_seed_example_black_four_four_after_white_five_five() -> None:
    # White 24/4 stands on Black's 16: Black's checker stops on 20, stopped by White's
    # checker rather than the head, so no second checker: one four, 24/20.
    black = _after(START, "55", "24/4")

    assert _plays(black, Roll(4, 4)) == ["24/20"]


def test_seed_example_black_five_five_after_white_two_two() -> None:
    # White 24/16 stands on Black's 4: Black's checker plays 24/19/14/9 and the fourth
    # five is lost.
    black = _after(START, "22", "24/16")

    assert _plays(black, Roll(5, 5)) == ["24/19 19/14 14/9"]


def test_second_checker_from_the_head_is_refused_with_the_rule() -> None:
    with pytest.raises(IllegalPlayError) as caught:
        check_nardy_play(START, Roll(6, 5), parse_play("24/18 24/19"))

    assert str(caught.value) == "24/19: only one checker may leave the head this turn"
    assert caught.value.rule is PlayRule.HEAD_RULE


def test_exception_refused_when_not_the_head_stops_the_checker() -> None:
    black = _after(START, "55", "24/4")

    with pytest.raises(IllegalPlayError) as caught:
        check_nardy_play(black, Roll(4, 4), parse_play("24/20 24/20"))

    assert caught.value.rule is PlayRule.HEAD_RULE
    assert "applies only when the opponent's head stops a single checker" in str(caught.value)


def test_no_landing_on_an_opposing_checker() -> None:
    # Mover: 14 on the head, one on 18. Opponent: one checker on its 20 = my 8... and
    # one on its 1 = my 13. 18/13 with a 5 would land on it.
    position = NardyPosition.from_points({24: 14, 18: 1}, {24: 13, 1: 1, 20: 1})

    with pytest.raises(IllegalPlayError) as caught:
        check_nardy_play(position, Roll(5, 1), parse_play("18/13 24/23"))

    assert caught.value.rule is PlayRule.BLOCKED
    assert "holds the opponent's checkers" in str(caught.value)


def test_a_single_opposing_checker_blocks_a_point_and_is_never_hit() -> None:
    # My 13 holds one opposing checker (its 1 point): 18/13 is impossible, so with 5-1
    # the five must come from the head (24/19) and the one from 18 or 19 or the head is
    # already used: plays 24/19 19/18, 24/19 18/17, 24/23 ... (5 cannot be played by
    # 23 since only one checker leaves the head). Legal: 24/19 19/18, 24/19 18/17.
    position = NardyPosition.from_points({24: 14, 18: 1}, {24: 13, 1: 1, 20: 1})

    assert _plays(position, Roll(5, 1)) == ["24/19 18/17", "24/19 19/18"]


def test_larger_die_when_only_one_can_be_played() -> None:
    # Mover: one checker on 8, the rest borne off... must be 15 in all: 14 off.
    # Opponent checkers on my 2 (its 14) and my 5 (its 17): with 6-3, 8/2 is blocked and
    # 8/5 is blocked, and both ways on are blocked; nothing moves. With 6-4: 8/2 blocked,
    # 8/4 possible, then 4/off with the 6 (all home): both dice. With 6-1 where my 7 and
    # my 2 are held: 8/7 blocked, 8/2 blocked: dance.
    position = NardyPosition.from_points({8: 1}, {14: 1, 17: 1, 24: 13})

    assert _plays(position, Roll(6, 3)) == [""]
    assert _plays(position, Roll(6, 4)) == ["8/4 4/0"]


def test_last_checker_home_plays_the_smaller_die_and_the_larger_is_lost() -> None:
    # Mover: 14 checkers on 6, one on 9. Opponent on my 4 (its 16) and my 1 (its 13).
    # 5-2: 9/4 is held, so the last checker plays the 2 (9/7) - not home - and then the
    # 5: 7/2 is open. Make 7/2 held too (opponent on my 2 = its 14): then after 9/7 no
    # five: 6/1 held, 7/2 held. The 5 first: 9/4 held, 6/1 held. So only the 2: 9/7, and
    # the larger is lost.
    position = NardyPosition.from_points({6: 14, 9: 1}, {16: 1, 13: 1, 14: 1, 24: 12})

    assert _plays(position, Roll(5, 2)) == ["9/7"]


def test_six_block_with_no_opposing_checker_ahead_is_refused() -> None:
    # Mover holds 13-17 (five points) and has a checker on 19; 19/18 with the 1 would
    # make 18-13 six in a row in front of the opponent, whose checkers are all on its
    # head (its 24 = my 12) and behind the block. Opponent's numbering: my 18..13 are its
    # 6..1, so the block is its 1-6; nobody has passed it.
    position = NardyPosition.from_points(
        {13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 19: 1, 24: 9}, {24: 15})

    with pytest.raises(IllegalPlayError) as caught:
        check_nardy_play(position, Roll(2, 1), parse_play("19/18 24/22"))

    assert caught.value.rule is PlayRule.SIX_BLOCK
    assert str(caught.value) == ("this play would complete a six-point block (the 18 to 13 "
                                 "points) with no opposing checker ahead of it")


def test_six_block_allowed_with_an_opposing_checker_past_it() -> None:
    # Same, but one opposing checker has been borne off: it is past the block.
    position = NardyPosition.from_points(
        {13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 19: 1, 24: 9}, {24: 14})

    after = check_nardy_play(position, Roll(2, 1), parse_play("19/18 24/22"))

    assert after.mover[18] == 1


def test_strict_block_needs_an_opposing_checker_home() -> None:
    # Block on my 7-12 = opponent's 19-24?? No: my 7..12 are its 19..24 (its head area);
    # take my 1-6 instead = its 13-18, with an opposing checker on its 10 (my 22): past the
    # block, so the default allows it; none is in its home (1-6), so strict refuses.
    position = NardyPosition.from_points({1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 8: 1, 24: 9},
                                         {10: 1, 24: 14})

    play = parse_play("8/6 24/23")
    assert check_nardy_play(position, Roll(2, 1), play).mover[6] == 1
    with pytest.raises(IllegalPlayError) as caught:
        check_nardy_play(position, Roll(2, 1), play, rules=NardyRules(strict_block=True))
    assert caught.value.rule is PlayRule.SIX_BLOCK


def test_block_may_close_and_open_within_one_play() -> None:
    # My 13-17 and 19: 19/18 closes six in a row, then 18/16 with the 2 opens it again;
    # only the end counts, so 19/18/16 is legal.
    position = NardyPosition.from_points(
        {13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 19: 1, 24: 9}, {24: 15})

    after = check_nardy_play(position, Roll(2, 1), parse_play("19/18 18/16"))

    assert after.mover[16] == 2


def test_bearing_off_needs_all_fifteen_home() -> None:
    # 6-1 with a checker on 9: 9/8 leaves it outside, so 6/off is refused in any order;
    # the legal plays keep it moving (e.g. 9/3 is 6 then... 9/8 8/2 or 9/3 3/2).
    position = NardyPosition.from_points({6: 14, 9: 1}, {24: 15})

    with pytest.raises(IllegalPlayError) as caught:
        check_nardy_play(position, Roll(6, 1), parse_play("6/0 9/8"))

    assert caught.value.rule is PlayRule.NOT_ALL_HOME
    assert str(caught.value) == ("6/0 bears off while a checker stands on the 9 point, "
                                 "outside the home")


def test_bearing_off_higher_die_only_from_the_highest_point() -> None:
    # Checkers on 5 and 3, roll 6-1: 3/off with the 6 while the 5 (or, after 5/4, the 4)
    # point is occupied is refused; 5/off with the 6 is the way.
    position = NardyPosition.from_points({5: 1, 3: 14}, {24: 15})

    with pytest.raises(IllegalPlayError) as caught:
        check_nardy_play(position, Roll(6, 1), parse_play("3/0 5/4"))

    assert caught.value.rule is PlayRule.HIGHER_POINT_OCCUPIED
    assert check_nardy_play(position, Roll(6, 1), parse_play("5/0 3/2")).mover[0] == 1


def test_moving_inside_home_instead_of_bearing_off() -> None:
    position = NardyPosition.from_points({6: 14, 5: 1}, {24: 15})

    after = check_nardy_play(position, Roll(2, 1), parse_play("6/4 5/4"))

    assert after.mover[4] == 2


@pytest.mark.parametrize(("loser", "koks", "level", "points"), [
    ({3: 14}, False, Level.SINGLE, 1),            # oin: one off
    ({3: 14, 20: 1}, False, Level.GAMMON, 2),     # mars
    ({3: 14, 20: 1}, True, Level.BACKGAMMON, 3),  # koks scored
    ({3: 15}, True, Level.GAMMON, 2),             # mars, nothing in the first quarter
])
def test_game_results_oin_mars_koks(loser: dict[int, int], koks: bool, level: Level,
                                    points: int) -> None:
    # The loser's counts: {3: 14} leaves one borne off; {3: 15} none.
    rules = NardyRules(koks=koks)
    position = NardyPosition.from_points({}, loser)

    won = nardy_winning_level(position, rules)

    assert won is level
    assert nardy_level_points(level, rules) == points


def test_position_id_round_trips_and_rejects_a_bar() -> None:
    position = _after(START, "65", "24/13")

    assert NardyPosition.from_id(position.to_id()) == position
    assert START.to_id() == "AACA/z8AAID/Pw"
