"""Every rule of DESIGN §2 on positions small enough to work out by hand.

Positions are built with ``Position.from_points(mover, opponent)``, each side in its own
numbering (25 = bar); checkers not placed are borne off. Expected results are listed as
the mover's checkers after the play, worked out in the comments.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from tourney.rules import Position, Roll, legal_plays, legal_positions
from tourney.rules.moves import max_dice_playable

# The opponent far away on its own 6 and 5 points (the mover's 19 and 20), out of the way
# of anything the mover does inside its home board.
FAR_OPPONENT = {6: 8, 5: 7}


def checkers_of(position: Position) -> tuple[int, ...]:
    """The mover's checkers as a sorted tuple of points (25 = bar), borne-off omitted."""
    return tuple(sorted(p for p in range(1, 26) for _ in range(position.mover[p])))


def results(position: Position, roll: Roll) -> set[tuple[int, ...]]:
    return {checkers_of(result) for result in legal_positions(position, roll)}


# --- bearing off: checkers on the 1, 2, 4, 5 and 6 points ---------------------------------

HOME = Position.from_points({1: 1, 2: 1, 4: 1, 5: 1, 6: 1}, FAR_OPPONENT)


def test_bear_off_4_3() -> None:
    # The 4 bears off from the 4 point or moves 6/2 or 5/1; the 3 moves 6/3, 5/2 or 4/1
    # (no checker on the 3 point, and higher points are occupied, so the 3 bears off
    # nothing). Both orders give six distinct results:
    #   4/off 6/3 -> 1 2 3 5     4/off 5/2 -> 1 2 2 6     6/2 5/2 -> 1 2 2 2 4
    #   6/2 4/1  -> 1 1 2 2 5    5/1 6/3  -> 1 1 2 3 4    5/1 4/1 -> 1 1 1 2 6
    assert results(HOME, Roll(4, 3)) == {
        (1, 2, 3, 5), (1, 2, 2, 6), (1, 2, 2, 2, 4),
        (1, 1, 2, 2, 5), (1, 1, 2, 3, 4), (1, 1, 1, 2, 6),
    }


def test_bear_off_5_3() -> None:
    # The 5 bears off from the 5 point or moves 6/1; the 3 moves 6/3, 5/2 or 4/1:
    #   5/off 6/3 -> 1 2 3 4     5/off 4/1 -> 1 1 2 6
    #   6/1 5/2  -> 1 1 2 2 4    6/1 4/1  -> 1 1 1 2 5
    assert results(HOME, Roll(5, 3)) == {
        (1, 2, 3, 4), (1, 1, 2, 6), (1, 1, 2, 2, 4), (1, 1, 1, 2, 5),
    }


def test_bear_off_6_6() -> None:
    # 6/off, then each 6 bears off the highest checker left: 5, 4, 2. Only the ace remains.
    assert results(HOME, Roll(6, 6)) == {(1,)}


def test_bear_off_5_5() -> None:
    # 5/off and 6/1 in either order leave 1 1 2 4; then the 5s bear off the highest
    # checker (4, then 2): 1 1.
    assert results(HOME, Roll(5, 5)) == {(1, 1)}


def test_bear_off_4_4() -> None:
    # 4/off, 6/2 and 5/1 in any order leave 1 1 2 2; the last 4 bears off a 2: 1 1 2.
    assert results(HOME, Roll(4, 4)) == {(1, 1, 2)}


def test_bear_off_3_3() -> None:
    # Every order of 6/3, 5/2, 4/1 and 3/off (the checker that came to 3) ends at 1 1 2 2;
    # a 3 never bears off from below while the 4, 5 or 6 point is occupied.
    assert results(HOME, Roll(3, 3)) == {(1, 1, 2, 2)}


def test_bear_off_2_2() -> None:
    # Four 2s from 1 2 4 5 6 (18 pips): each 2 bears off the checker on the 2 point or
    # moves 6/4, 5/3, 4/2 or 3/1; the ace cannot move. Every result has 10 pips, and the
    # reachable ones (worked level by level) are these eight:
    assert results(HOME, Roll(2, 2)) == {
        (1, 2, 3, 4), (1, 1, 4, 4), (1, 4, 5), (1, 2, 2, 5),
        (1, 3, 6), (1, 1, 2, 6), (1, 2, 2, 2, 3), (1, 1, 2, 2, 4),
    }


def test_bear_off_1_1() -> None:
    # Four 1s: each moves a checker down one point or bears off the checker on the ace
    # point, in any order. So the results are every way to take four single steps from the
    # checkers, a checker on point p taking at most p of them.
    start = (1, 2, 4, 5, 6)
    expected = set()
    for steps in product(range(5), repeat=5):
        if sum(steps) == 4 and all(s <= p for s, p in zip(steps, start, strict=True)):
            expected.add(tuple(sorted(p - s for p, s in zip(start, steps, strict=True) if p > s)))
    assert results(HOME, Roll(1, 1)) == expected
    assert len(expected) == 22


def test_bear_off_needs_every_checker_home() -> None:
    # Checkers on 7, 6 and 5: nothing bears off while the 7 point is occupied.
    # 6 first: only 7/1 (6/off is not allowed yet); then all are home and the 5 plays
    #   5/off -> 1 6, or 6/1 -> 1 1 5.
    # 5 first: 7/2, then the 6 bears off from the 6 point -> 2 5; or 6/1, then 7/1 -> 1 1 5.
    position = Position.from_points({7: 1, 6: 1, 5: 1}, FAR_OPPONENT)
    assert results(position, Roll(6, 5)) == {(1, 6), (1, 1, 5), (2, 5)}


def test_checker_hit_during_bear_off_must_come_home_first() -> None:
    # 14 checkers on the 6 point, one on the bar; the opponent holds the mover's 13 point.
    # 6-5: enter with the 6 on 19 then 19/14 with the 5, or enter with the 5 on 20 then
    # 20/14 with the 6 (the same result), or enter on 19 and play 6/1. Nothing bears off:
    # a checker is outside the home board all along.
    position = Position.from_points({25: 1, 6: 14}, {12: 15})
    assert results(position, Roll(6, 5)) == {
        (6,) * 14 + (14,),
        (1,) + (6,) * 13 + (19,),
    }


# --- the bar ----------------------------------------------------------------------------


def test_closed_board_dances_for_every_roll() -> None:
    # The opponent holds its points 1-6 (the mover's 24-19) with 2 checkers each.
    closed = Position.from_points({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3})
    for high in range(1, 7):
        for low in range(1, high + 1):
            assert legal_positions(closed, Roll(high, low)) == {closed}
            assert [str(play) for play in legal_plays(closed, Roll(high, low))] == [""]


def test_checker_on_bar_enters_before_anything_moves() -> None:
    # Entry with a 6 lands on 19 (the opponent's 6 point, held); with a 1 on 24 (open).
    # So 6-1 must enter with the 1 (bar/24), and then the 6 is played by any checker:
    # 24/18, or 13/7 (the opponent's other checkers sit on the mover's 14 point).
    position = Position.from_points({25: 1, 13: 14}, {6: 2, 11: 13})
    assert results(position, Roll(6, 1)) == {
        (13,) * 14 + (18,),
        (7,) + (13,) * 13 + (24,),
    }


def test_second_checker_on_bar_loses_the_rest_of_the_roll() -> None:
    # Two on the bar; only the 21 point (entered with a 4) is open. 4-3: one checker
    # enters with the 4; the other cannot enter with the 3, and nothing else may move.
    position = Position.from_points(
        {25: 2, 13: 13}, {1: 2, 2: 2, 3: 2, 5: 2, 6: 2, 11: 5}
    )
    assert results(position, Roll(4, 3)) == {(13,) * 13 + (21, 25)}
    assert max_dice_playable(position, Roll(4, 3)) == 1


# --- blocks and hits ----------------------------------------------------------------------


def test_landing_on_a_blot_hits_it_and_a_held_point_is_blocked() -> None:
    # Mover: one checker on 13. Opponent: two on the mover's 9 point (its 16) and one on
    # the mover's 10 point (its 15). 3-1 for a lone checker: 13/10* hits (then 10/9 is
    # blocked, so the 1 is played first: 13/12/9 is blocked too). Plays: 13/10*/9? no.
    # Legal: 13/12 then 12/9? blocked. 13/10* then 10/9 blocked. 13/9 blocked. So the
    # checker can use only one die: 13/10* (3) or 13/12 (1); the larger must be played.
    position = Position.from_points({13: 1}, {16: 2, 15: 1, 1: 12})
    (after,) = legal_positions(position, Roll(3, 1))
    assert checkers_of(after) == (10,)
    assert after.opponent[25] == 1  # the blot went to the bar
    assert after.opponent[15] == 0


# --- maximum use and the larger die ---------------------------------------------------------


def test_both_dice_must_be_played_when_some_order_allows_it() -> None:
    # Fourteen checkers frozen on the 2 point (the 1 point is held by the opponent and
    # nothing may bear off while the runner is out) and a runner on 24. 6-4: 24/18 is
    # blocked (the opponent holds the mover's 18), so the only way to use both dice is
    # 24/20/14, which must be played; 24/20 alone is not a legal play.
    position = Position.from_points({24: 1, 2: 14}, {24: 2, 7: 2, 12: 11})
    assert results(position, Roll(6, 4)) == {(2,) * 14 + (14,)}


def test_only_one_die_playable_must_be_the_six() -> None:
    # A runner on 20 with the rest frozen on the 2 point (the opponent holds the 1 point).
    # The opponent also holds the mover's 9 point: 20/14 then 14/9 is blocked, 20/15 then
    # 15/9 is blocked. Either die alone can be played, so the six must be: 20/14.
    position = Position.from_points({20: 1, 2: 14}, {24: 2, 16: 2, 12: 11})
    assert results(position, Roll(6, 5)) == {(2,) * 14 + (14,)}
    assert max_dice_playable(position, Roll(6, 5)) == 1


def test_only_the_smaller_die_playable_is_played() -> None:
    # As above but the mover's 14 point is held too: the 6 cannot be played at all, so the
    # 5 is: 20/15.
    position = Position.from_points({20: 1, 2: 14}, {24: 2, 16: 2, 11: 2, 12: 9})
    assert results(position, Roll(6, 5)) == {(2,) * 14 + (15,)}


def test_doublet_plays_as_many_of_the_four_moves_as_it_can() -> None:
    # A runner on 24 and fourteen frozen checkers; the opponent holds the mover's 12 point.
    # 4-4: 24/20/16 and then 16/12 is blocked: two of the four 4s can be played.
    position = Position.from_points({24: 1, 2: 14}, {24: 2, 13: 2, 12: 11})
    assert results(position, Roll(4, 4)) == {(2,) * 14 + (16,)}
    assert max_dice_playable(position, Roll(4, 4)) == 2


@pytest.mark.parametrize(("high", "low"), [(3, 1), (6, 5), (6, 6), (2, 2)])
def test_opening_plays_are_distinct_by_result(high: int, low: int) -> None:
    plays = legal_plays(Position.initial(), Roll(high, low))
    results_reached = Counter(
        checkers_of(p) for p in legal_positions(Position.initial(), Roll(high, low))
    )
    assert len(plays) == len(results_reached)
    assert set(results_reached.values()) == {1}


def test_opening_3_1_has_sixteen_distinct_plays() -> None:
    # From the opening, a 3 can be played from 24, 13, 8 or 6 and a 1 from 24, 8 or 6 (the
    # 13 point's 1 lands on 12: also open; the 6's 1 lands on 5). Counted by hand: 16
    # distinct results, confirmed by OpenSpiel in the agreement test.
    assert len(legal_positions(Position.initial(), Roll(3, 1))) == 16
