"""Entries the match rules make impossible are refused with a sentence a director can act on."""

from __future__ import annotations

import pytest
from match_builders import O, X, drop, gammon, single

from tourney.match import GameEntry, MatchEntryError, MatchRules, add_game, score_match
from tourney.rules import GameEnd, Level


def refusal(
    rules: MatchRules,
    games: list[GameEntry],
    start: tuple[int, int] = (0, 0),
    after_crawford: bool = False,
) -> MatchEntryError:
    """The error scoring ``games`` raises (the test fails if none is raised)."""
    with pytest.raises(MatchEntryError) as caught:
        score_match(rules, games, start=start, after_crawford=after_crawford)
    return caught.value


def test_score_match_refuses_doubled_cube_in_crawford_game():
    # 5-point: 2 + 2 = 4-0, so game 3 is the Crawford game and a 2-cube is impossible.
    error = refusal(MatchRules(5), [single(X, 2), single(X, 2), single(O, 2)])

    assert error.game_number == 3
    assert str(error) == (
        "Game 3 is the Crawford game: no doubling is allowed, so the cube must stay at 1."
    )


def test_score_match_refuses_drop_in_crawford_game():
    # 7-point: X wins 4 singles then a gammon on 1: 4 + 1 x 2 = 6-0, X at N-1 = 6, so
    # game 6 is the Crawford game and O cannot have dropped a double there.
    games = [single(X)] * 4 + [gammon(X)] + [drop(O)]

    error = refusal(MatchRules(7), games)

    assert error.game_number == 6
    assert str(error) == (
        "Game 6 is the Crawford game: no doubling is allowed, so no double can have been "
        "dropped."
    )


def test_score_match_refuses_cube_in_one_point_match():
    error = refusal(MatchRules(1), [single(X, 2)])

    assert error.game_number == 1
    assert str(error) == (
        "The cube is not used in a 1-point match, so in game 1 the cube must stay at 1."
    )


def test_score_match_refuses_drop_in_one_point_match():
    error = refusal(MatchRules(1), [drop(O)])

    assert str(error) == (
        "The cube is not used in a 1-point match, so in game 1 no double can have been dropped."
    )


@pytest.mark.parametrize("cube", [3, 6, 12, 24])
def test_score_match_refuses_cube_not_power_of_two(cube: int):
    error = refusal(MatchRules(7), [single(X, cube)])

    assert error.game_number == 1
    assert str(error) == (
        f"Game 1 has the cube at {cube}, which a cube cannot show: "
        "a cube value is 1, 2, 4, 8, 16 or another doubling."
    )


@pytest.mark.parametrize("cube", [0, -2])
def test_score_match_refuses_cube_below_one(cube: int):
    error = refusal(MatchRules(7), [single(X), single(O, cube)])

    assert error.game_number == 2
    assert str(error) == (
        f"Game 2 has the cube at {cube}; the cube starts at 1 and only doubles."
    )


def test_score_match_refuses_cube_above_limit():
    error = refusal(MatchRules(11, cube_limit=8), [single(X, 16)])

    assert str(error) == "Game 1 has the cube at 16, above this event's cube limit of 8."


def test_score_match_accepts_cube_at_limit():
    # 11-point, limit 8: a single on 8 = 8 -> 8-0.
    state = score_match(MatchRules(11, cube_limit=8), [single(X, 8)])

    assert state.score == (8, 0)


def test_score_match_refuses_drop_with_cube_already_at_limit():
    # Limit 8: a drop "at 8" would mean a refused double to 16, which the limit forbids.
    error = refusal(MatchRules(11, cube_limit=8), [drop(X, 8)])

    assert error.game_number == 1
    assert str(error) == (
        "Game 1 is entered as a dropped double with the cube at 8, but 8 is this event's "
        "cube limit, so it could not be doubled again. For a drop, enter the cube value "
        "before the refused double."
    )


def test_score_match_refuses_any_double_with_cube_limit_one():
    error = refusal(MatchRules(7, cube_limit=1), [drop(O)])

    assert str(error) == (
        "This event's cube limit is 1: no doubling is allowed, so in game 1 no double can have "
        "been dropped."
    )


def test_score_match_refuses_level_on_dropped_double():
    entry = GameEntry(X, GameEnd.DROPPED, 2, Level.GAMMON)

    error = refusal(MatchRules(7), [entry])

    assert str(error) == (
        "Game 1 ended with a dropped double, which scores the cube value only, "
        "so it cannot also be a gammon."
    )


@pytest.mark.parametrize(
    ("end", "said"), [(GameEnd.PLAYED, "was played out"), (GameEnd.RESIGNED, "was resigned")]
)
def test_score_match_refuses_played_or_resigned_game_without_level(end: GameEnd, said: str):
    error = refusal(MatchRules(7), [GameEntry(O, end, 1, None)])

    assert str(error) == f"Game 1 {said}, so it needs a result: single, gammon or backgammon."


def test_score_match_refuses_game_after_match_decided():
    # 3-point: X single on 4 = 4 -> 4-0, over after game 1; game 2 is impossible.
    error = refusal(MatchRules(3), [single(X, 4), single(O)])

    assert error.game_number == 2
    assert str(error) == (
        "Game 2 cannot be entered: the match was already decided 4-0 in game 1."
    )


def test_score_match_reports_first_impossible_game_only():
    error = refusal(MatchRules(7), [single(X), single(O, 3), single(X, 5)])

    assert error.game_number == 2


def test_add_game_refuses_after_match_decided():
    state = score_match(MatchRules(1), [single(O)])

    with pytest.raises(MatchEntryError) as caught:
        add_game(state, single(X))

    assert caught.value.game_number == 2


@pytest.mark.parametrize("start", [(5, 0), (0, 7), (5, 5)])
def test_score_match_refuses_start_at_or_above_length(start: tuple[int, int]):
    error = refusal(MatchRules(5), [], start=start)

    assert error.game_number is None
    assert str(error) == (
        f"The starting score {start[0]}-{start[1]} must be below 5 for both players in a "
        "5-point match, or the match would already be over."
    )


def test_score_match_refuses_negative_start():
    error = refusal(MatchRules(5), [], start=(-1, 0))

    assert str(error) == "The starting score cannot be negative, but it was -1 and 0."


def test_score_match_refuses_after_crawford_below_n_minus_one():
    # 5-point: the Crawford game follows the first 4; at 3-2 it cannot have been played.
    error = refusal(MatchRules(5), [], start=(3, 2), after_crawford=True)

    assert str(error) == (
        "The Crawford game cannot have been played before a starting score of 3-2: "
        "it follows the first time a player reaches 4."
    )


def test_score_match_accepts_start_as_list():
    state = score_match(MatchRules(5), [], start=[1, 0])

    assert state.start == (1, 0)


@pytest.mark.parametrize("length", [0, -3])
def test_match_rules_refuses_length_below_one(length: int):
    with pytest.raises(ValueError, match="at least 1 point"):
        MatchRules(length)


@pytest.mark.parametrize("limit", [0, 3, 12])
def test_match_rules_refuses_cube_limit_not_a_cube_value(limit: int):
    with pytest.raises(ValueError, match="cube limit must be a cube value"):
        MatchRules(7, cube_limit=limit)
