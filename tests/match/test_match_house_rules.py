"""Handicap starts, first-to-N-games matches and draw scoring, worked by hand."""

from __future__ import annotations

import pytest
from match_builders import O, X, drop, gammon, single

from tourney.match import (
    DrawScoring,
    GameEntry,
    GameKind,
    MatchEntryError,
    MatchRules,
    add_game,
    format_half_points,
    score_match,
)
from tourney.rules.match_forms import GAMES
from tourney.rules.variants import LONG_NARDY, VariantOptions


def test_seven_point_match_from_one_nil_has_its_crawford_game_at_six() -> None:
    # Start 1-0. X gammon on a 2-cube: 4 more, 5-0. O single: 5-1. X single: 6-1, so
    # X is at N-1 = 6 and game 4 is the Crawford game. O wins it single: 6-2; game 5 is
    # post-Crawford.
    state = score_match(MatchRules(7), [gammon(X, 2), single(O), single(X), single(O)],
                        start=(1, 0))

    assert [game.score_after for game in state.games] == [(5, 0), (5, 1), (6, 1), (6, 2)]
    assert state.crawford_game == 4
    assert [game.kind for game in state.games] == [
        GameKind.NORMAL, GameKind.NORMAL, GameKind.NORMAL, GameKind.CRAWFORD]
    assert state.next_kind is GameKind.POST_CRAWFORD


def test_handicap_start_moves_the_crawford_game_forward() -> None:
    # From 0-0 the same three games leave X at 5-1, one short of the Crawford game.
    from_zero = score_match(MatchRules(7), [gammon(X, 2), single(O), single(X)])

    assert from_zero.score == (5, 1)
    assert from_zero.next_kind is GameKind.NORMAL


def test_crawford_game_refuses_a_double_after_a_handicap_start() -> None:
    state = score_match(MatchRules(7), [gammon(X, 2), single(O), single(X)], start=(1, 0))

    with pytest.raises(MatchEntryError) as refused:
        add_game(state, drop(O))

    assert refused.value.game_number == 4
    assert "Crawford game" in refused.value.message


def test_first_to_three_games_counts_each_game_one() -> None:
    # Best of five: first to win three games. X, O, O, X, X: 3-2 to X after game 5.
    rules = MatchRules(3, form=GAMES)
    state = score_match(rules, [single(X), single(O), single(O), single(X), single(X)])

    assert state.score == (3, 2)
    assert state.winner is X
    assert [game.points for game in state.games] == [1, 1, 1, 1, 1]


def test_first_to_n_games_has_no_cube_and_no_gammons() -> None:
    rules = MatchRules(3, form=GAMES)
    start = score_match(rules, [])

    assert not rules.uses_cube
    assert not rules.uses_crawford
    with pytest.raises(MatchEntryError) as cubed:
        add_game(start, single(X, 2))
    with pytest.raises(MatchEntryError) as gammoned:
        add_game(start, gammon(X))
    assert cubed.value.message == ("In a match of games every game counts 1, so in game 1 "
                                   "the cube must stay at 1.")
    assert gammoned.value.message == ("Game 1 is entered as a gammon, but in a match of "
                                      "games every game counts 1: enter it as a win.")


def test_games_form_words_its_length() -> None:
    assert GAMES.length_words(3) == "first to 3 games"


LAST_ROLL = VariantOptions(last_roll_draw=True)


def test_half_point_draws_are_kept_in_half_points() -> None:
    # 5-point long nardy, draws ½-½: draw (½-½), X oin (1½-½), draw (2-1).
    rules = MatchRules(5, variant=LONG_NARDY, options=LAST_ROLL,
                       draw_scoring=DrawScoring.HALF)
    state = score_match(rules, [GameEntry.drawn()])
    assert state.half_score == (1, 1)
    assert state.score == (0, 0)

    state = add_game(state, single(X))
    assert state.half_score == (3, 1)
    state = add_game(state, GameEntry.drawn())
    assert state.half_score == (4, 2)
    assert state.score == (2, 1)
    assert [format_half_points(h) for h in state.half_score] == ["2", "1"]


def test_whole_point_draws_and_nothing_draws() -> None:
    one = MatchRules(5, variant=LONG_NARDY, options=LAST_ROLL, draw_scoring=DrawScoring.ONE)
    nothing = MatchRules(5, variant=LONG_NARDY, options=LAST_ROLL)

    assert score_match(one, [GameEntry.drawn(), single(O)]).score == (1, 2)
    assert score_match(nothing, [GameEntry.drawn(), single(O)]).score == (0, 1)


def test_a_draw_never_decides_a_match() -> None:
    # 3-point match at 2-2 (1-1 draws): a draw would take both to 3, so it scores nothing.
    one = MatchRules(3, variant=LONG_NARDY, options=LAST_ROLL, draw_scoring=DrawScoring.ONE)
    state = score_match(one, [single(X), single(O), GameEntry.drawn()])
    assert state.score == (2, 2)

    after = add_game(state, GameEntry.drawn())
    assert after.score == (2, 2)
    assert not after.is_over
