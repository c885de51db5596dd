"""A match entered by its final score only: who won, and whether legal games reach it."""

from __future__ import annotations

import pytest

from tourney.match import MatchEntryError, MatchRules, check_final_score
from tourney.rules import Side


def test_check_final_score_names_winner():
    assert check_final_score(MatchRules(7), (7, 4)) == Side.X
    assert check_final_score(MatchRules(7), [4, 7]) == Side.O


def test_check_final_score_accepts_overshoot():
    # 7-point: 5-3 then a gammon on 2 = 4 -> 9-3.
    assert check_final_score(MatchRules(7), (9, 3)) == Side.X


def test_check_final_score_refuses_unfinished_match():
    with pytest.raises(MatchEntryError) as caught:
        check_final_score(MatchRules(5), (4, 2))

    assert str(caught.value) == (
        "A final score of 4-2 does not finish a 5-point match: one player must reach 5."
    )
    assert caught.value.game_number is None


def test_check_final_score_refuses_two_winners():
    with pytest.raises(MatchEntryError) as caught:
        check_final_score(MatchRules(5), (5, 6))

    assert str(caught.value) == (
        "A final score of 5-6 is impossible: the match ends as soon as one player reaches 5, "
        "so only one player can have 5 or more."
    )


def test_check_final_score_refuses_score_below_start():
    with pytest.raises(MatchEntryError, match="below the starting score 2-0"):
        check_final_score(MatchRules(5), (1, 5), start=(2, 0))


@pytest.mark.parametrize(
    ("final", "winner"), [((1, 0), Side.X), ((0, 2), Side.O), ((3, 0), Side.X)]
)
def test_check_final_score_one_point_match_single_gammon_backgammon(
    final: tuple[int, int], winner: Side
):
    # 1-point match, cube unused: one game worth 1, 2 or 3.
    assert check_final_score(MatchRules(1), final) == winner


def test_check_final_score_one_point_match_refuses_four():
    # 1-point match: at most a backgammon on 1 = 3 points.
    with pytest.raises(MatchEntryError) as caught:
        check_final_score(MatchRules(1), (4, 0))

    assert str(caught.value) == (
        "A final score of 4-0 cannot be reached in a 1-point match: no game the rules allow "
        "takes the winner from below 1 to 4."
    )


def test_check_final_score_cube_limit_caps_overshoot():
    # 11-point, limit 2: a game scores at most 2 x 3 = 6. With O on 0, X cannot play a
    # turned cube at 10 (that game is the Crawford game, which X would have to win for at
    # most 3 -> 13), so the most is from 9: 9 + 6 = 15. Once O has won the Crawford game
    # at 10-0 (10-1), X can win 6 from 10 -> 16-1, but never 17.
    rules = MatchRules(11, cube_limit=2)

    assert check_final_score(rules, (15, 0)) == Side.X
    assert check_final_score(rules, (16, 1)) == Side.X
    for impossible in [(16, 0), (17, 1)]:
        with pytest.raises(MatchEntryError, match="cannot be reached"):
            check_final_score(rules, impossible)


def test_check_final_score_crawford_game_limits_leader():
    # 5-point starting 4-0: game 1 is the Crawford game (cube 1). If X wins it, X scores
    # at most 1 x 3 = 3 -> 7-0. 8-0 would need 4 points from 4 with O still at 0, which
    # only a turned cube gives, and O would have had to win the Crawford game first.
    rules = MatchRules(5)

    assert check_final_score(rules, (7, 0), start=(4, 0)) == Side.X
    with pytest.raises(MatchEntryError, match="cannot be reached"):
        check_final_score(rules, (8, 0), start=(4, 0))
    # O wins the Crawford game (4-1), then X a gammon on 2 = 4 -> 8-1.
    assert check_final_score(rules, (8, 1), start=(4, 0)) == Side.X


def test_check_final_score_crawford_off_allows_cube_at_n_minus_one():
    # Same as above without Crawford: from 4-0 a gammon on 2 = 4 -> 8-0.
    assert check_final_score(MatchRules(5, crawford=False), (8, 0), start=(4, 0)) == Side.X


def test_check_final_score_refuses_malformed_score():
    with pytest.raises(MatchEntryError, match="must be two whole numbers"):
        check_final_score(MatchRules(5), (5,))
