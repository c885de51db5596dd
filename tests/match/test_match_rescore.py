"""Corrections and deletions recompute everything after them (issue 4, "Match scoring")."""

from __future__ import annotations

import pytest
from match_builders import O, X, drop, gammon, single

from tourney.match import (
    GameKind,
    MatchRules,
    Rejection,
    correct_game,
    delete_game,
    rescore,
    score_match,
)


def test_rescore_valid_games_match_score_match():
    rules = MatchRules(5)
    games = [single(X, 2), single(O), single(X, 2), single(O)]

    result = rescore(rules, games)

    assert result.state == score_match(rules, games)
    assert result.rejected == ()
    assert result.is_clean is True


def test_correct_game_moves_crawford_game_later():
    # 5-point, as entered: X 2 (2-0), X 2 (4-0), Crawford game 3 to O (4-1), O 1 (4-2).
    rules = MatchRules(5)
    state = score_match(rules, [single(X, 2), single(X, 2), single(O), single(O)])
    assert state.crawford_game == 3

    # Correction: game 2 was a single on 1: 2 + 1 = 3-0, then O 1 (3-1) and O 1 (3-2).
    # Nobody reaches N-1 = 4, so there is no Crawford game any more.
    result = correct_game(state, 2, single(X))

    assert result.rejected == ()
    assert result.state.crawford_game is None
    assert result.state.score == (3, 2)
    assert [game.kind for game in result.state.games] == [GameKind.NORMAL] * 4


def test_correct_game_moves_crawford_game_earlier():
    # 7-point as entered: X 2 (2-0), X 2 (4-0), X 1 (5-0), X 1 (6-0): Crawford game 5.
    rules = MatchRules(7)
    state = score_match(rules, [single(X, 2), single(X, 2), single(X), single(X)])
    assert state.crawford_game == 5

    # Correction: game 3 was a gammon on 1: 4 + 2 = 6-0, so game 4 becomes the Crawford
    # game; X's single there -> 7-0 ends the match.
    result = correct_game(state, 3, gammon(X))

    assert result.state.crawford_game == 4
    assert result.state.games[3].kind == GameKind.CRAWFORD
    assert result.state.score == (7, 0)
    assert result.state.winner == X


def test_correct_game_reports_later_game_that_became_impossible():
    # 5-point as entered: X 2 (2-0), X 1 (3-0), O 2 on a 2-cube (3-2), X 2 (5-2).
    rules = MatchRules(5)
    state = score_match(rules, [single(X, 2), single(X), single(O, 2), single(X, 2)])

    # Correction: game 2 was on a 2-cube: 2 + 2 = 4-0, so game 3 is the Crawford game and
    # its 2-cube is impossible; game 4 cannot be kept after it.
    result = correct_game(state, 2, single(X, 2))

    assert result.state.score == (4, 0)
    assert len(result.state.games) == 2
    assert result.state.next_kind == GameKind.CRAWFORD
    assert result.rejected == (
        Rejection(
            3,
            "Game 3 is the Crawford game: no doubling is allowed, so the cube must stay at 1.",
        ),
        Rejection(
            4,
            "Game 4 was not kept because game 3 before it is no longer possible; "
            "enter it again once game 3 is corrected.",
        ),
    )


def test_rescore_reports_games_after_match_now_decided():
    # 3-point: game 1 corrected to a gammon on 2 = 4 -> 4-0, so games 2 and 3 come after
    # the match was decided.
    result = rescore(MatchRules(3), [gammon(X, 2), single(O), single(X)])

    assert result.state.score == (4, 0)
    assert result.rejected == (
        Rejection(2, "Game 2 cannot be entered: the match was already decided 4-0 in game 1."),
        Rejection(3, "Game 3 cannot be entered: the match was already decided 4-0 in game 1."),
    )


def test_delete_game_renumbers_and_rescores():
    # 5-point: X 2 (2-0), O drop on 2 = 2 (2-2), X 2 (4-2). Delete game 2: X 2, X 2 ->
    # 4-0, and the Crawford game is now game 3.
    state = score_match(MatchRules(5), [single(X, 2), drop(O, 2), single(X, 2)])

    result = delete_game(state, 2)

    assert result.rejected == ()
    assert result.state.score == (4, 0)
    assert [game.number for game in result.state.games] == [1, 2]
    assert result.state.crawford_game == 3


def test_delete_game_can_make_a_later_game_impossible():
    # 5-point: X 2 (2-0), X 1 (3-0), X 1 (4-0), Crawford game 4 to O (4-1), O 1 x 2 on a
    # 2-cube post-Crawford (4-3). Deleting game 4 leaves 4-0 with the 2-cube game now
    # game 4, the Crawford game, where a 2-cube is impossible.
    state = score_match(
        MatchRules(5), [single(X, 2), single(X), single(X), single(O), single(O, 2)]
    )

    result = delete_game(state, 4)

    assert result.state.score == (4, 0)
    assert result.rejected == (
        Rejection(
            4,
            "Game 4 is the Crawford game: no doubling is allowed, so the cube must stay at 1.",
        ),
    )


def test_rescore_keeps_start_and_after_crawford():
    state = score_match(MatchRules(5), [single(O, 2)], start=(4, 1), after_crawford=True)

    result = correct_game(state, 1, single(O))

    assert result.state.start == (4, 1)
    assert result.state.games[0].kind == GameKind.POST_CRAWFORD
    assert result.state.score == (4, 2)


@pytest.mark.parametrize("number", [0, 3])
def test_correct_game_refuses_missing_game_number(number: int):
    state = score_match(MatchRules(5), [single(X), single(O)])

    with pytest.raises(IndexError):
        correct_game(state, number, single(X))


def test_delete_game_refuses_missing_game_number():
    state = score_match(MatchRules(5), [single(X)])

    with pytest.raises(IndexError):
        delete_game(state, 2)
