"""When the cube may be turned: the match-level restriction and the Holland rule."""

from __future__ import annotations

import pytest
from match_builders import O, X, single

from tourney.match import (
    GameKind,
    MatchRules,
    doubling_restriction,
    holland_allows_double,
    score_match,
)
from tourney.rules import CubeActionError, CubeState


def test_doubling_restriction_crawford_game():
    # 5-point: 2 + 2 = 4-0, so game 3 is the Crawford game.
    state = score_match(MatchRules(5), [single(X, 2), single(X, 2)])

    assert doubling_restriction(state) == "this is the Crawford game"


def test_doubling_restriction_post_crawford_is_free():
    # 5-point: 4-0, Crawford game to O (4-1): game 4 is post-Crawford, cube free.
    state = score_match(MatchRules(5), [single(X, 2), single(X, 2), single(O)])

    assert doubling_restriction(state) is None


def test_doubling_restriction_one_point_match():
    assert doubling_restriction(score_match(MatchRules(1), [])) == (
        "the cube is not used in a 1-point match"
    )


def test_doubling_restriction_cube_limit_one():
    assert doubling_restriction(score_match(MatchRules(7, cube_limit=1), [])) == (
        "this event's cube limit is 1"
    )


def test_doubling_restriction_match_over():
    state = score_match(MatchRules(3), [single(O, 4)])

    assert doubling_restriction(state) == "the match is over"


def test_doubling_restriction_double_match_point_allows_doubling():
    # DMP: doubling is legal though meaningless (DESIGN §3).
    state = score_match(MatchRules(3), [], start=(2, 2))

    assert doubling_restriction(state) is None


def test_doubling_restriction_crawford_off_at_n_minus_one_is_free():
    state = score_match(MatchRules(5, crawford=False), [], start=(4, 0))

    assert doubling_restriction(state) is None


def test_doubling_restriction_feeds_cube_state():
    state = score_match(MatchRules(5), [], start=(0, 4))
    restriction = doubling_restriction(state)

    with pytest.raises(CubeActionError, match="may not double: this is the Crawford game"):
        CubeState().offer(X, restriction=restriction)


HOLLAND = MatchRules(5, holland=True)


@pytest.mark.parametrize(
    ("by_doubler", "by_opponent", "allowed"),
    [
        (0, 0, False),  # before the first roll
        (1, 1, False),
        (2, 1, False),  # the doubler has played two rolls, the opponent only one
        (1, 2, False),
        (2, 2, True),  # each side has played two rolls
        (5, 3, True),
    ],
)
def test_holland_allows_double_post_crawford_after_two_rolls_each(
    by_doubler: int, by_opponent: int, allowed: bool
):
    assert holland_allows_double(GameKind.POST_CRAWFORD, by_doubler, by_opponent, HOLLAND) is (
        allowed
    )


@pytest.mark.parametrize("kind", [GameKind.NORMAL, GameKind.CRAWFORD])
def test_holland_allows_double_ignores_other_games(kind: GameKind):
    # Holland restricts post-Crawford games only; the Crawford game's own ban is
    # doubling_restriction's job.
    assert holland_allows_double(kind, 0, 0, HOLLAND) is True


def test_holland_allows_double_without_holland_rule():
    assert holland_allows_double(GameKind.POST_CRAWFORD, 0, 0, MatchRules(5)) is True


def test_holland_allows_double_refuses_negative_rolls():
    with pytest.raises(ValueError, match="cannot be negative"):
        holland_allows_double(GameKind.POST_CRAWFORD, -1, 2, HOLLAND)


def test_holland_next_game_kind_from_state():
    # 5-point with Holland: 4-0, Crawford game to O (4-1). Game 4 is post-Crawford, so
    # O (the trailer) may double only once both sides have played two rolls.
    state = score_match(HOLLAND, [single(X, 2), single(X, 2), single(O)])
    assert state.next_kind is GameKind.POST_CRAWFORD

    assert holland_allows_double(state.next_kind, 1, 2, state.rules) is False
    assert holland_allows_double(state.next_kind, 2, 2, state.rules) is True
