"""The cube's transitions and what a finished game is worth (DESIGN §2)."""

from __future__ import annotations

import pytest

from tourney.rules import (
    CubeActionError,
    CubeState,
    GameEnd,
    Level,
    Position,
    Side,
    game_points,
    winning_level,
)


def test_centred_cube_may_be_doubled_by_either_side() -> None:
    cube = CubeState()
    assert cube.may_double(Side.X) is None
    assert cube.may_double(Side.O) is None


def test_take_doubles_the_cube_and_gives_it_to_the_taker() -> None:
    cube = CubeState().offer(Side.X).take(Side.O)
    assert cube == CubeState(2, Side.O, None)
    # Only the owner may redouble: X may not, O may (to 4).
    assert cube.may_double(Side.X) == "the cube is owned by the other side"
    assert cube.offer(Side.O).take(Side.X) == CubeState(4, Side.X, None)


def test_drop_loses_the_value_before_the_double() -> None:
    # A refused initial double scores 1; a refused redouble to 4 scores 2.
    assert CubeState().offer(Side.X).drop(Side.O) == 1
    assert CubeState(2, Side.X).offer(Side.X).drop(Side.O) == 2


def test_double_by_the_non_owner_is_refused() -> None:
    with pytest.raises(CubeActionError, match="owned by the other side"):
        CubeState(2, Side.O).offer(Side.X)


def test_take_or_drop_without_a_double_is_refused() -> None:
    with pytest.raises(CubeActionError, match="take without a double"):
        CubeState().take(Side.O)
    with pytest.raises(CubeActionError, match="drop without a double"):
        CubeState().drop(Side.O)


def test_the_doubler_cannot_answer_its_own_double() -> None:
    with pytest.raises(CubeActionError):
        CubeState().offer(Side.X).take(Side.X)


def test_match_restriction_forbids_doubling() -> None:
    with pytest.raises(CubeActionError, match="this is the Crawford game"):
        CubeState().offer(Side.X, restriction="this is the Crawford game")


def test_single_when_the_loser_has_borne_off() -> None:
    # The mover has borne everything off; the loser has 1 checker off.
    assert winning_level(Position.from_points({}, {6: 14})) is Level.SINGLE


def test_gammon_when_the_loser_has_borne_off_nothing() -> None:
    assert winning_level(Position.from_points({}, {6: 10, 12: 5})) is Level.GAMMON


def test_backgammon_with_a_loser_checker_on_the_bar() -> None:
    assert winning_level(Position.from_points({}, {25: 1, 6: 14})) is Level.BACKGAMMON


def test_backgammon_with_a_loser_checker_in_the_winners_home_board() -> None:
    # The loser's 19 point is the winner's 6 point.
    assert winning_level(Position.from_points({}, {19: 1, 6: 14})) is Level.BACKGAMMON


def test_no_level_while_the_mover_still_has_checkers() -> None:
    assert winning_level(Position.from_points({1: 1}, {6: 15})) is None


@pytest.mark.parametrize(
    ("end", "cube", "level", "points"),
    [
        (GameEnd.PLAYED, 1, Level.SINGLE, 1),
        (GameEnd.PLAYED, 2, Level.GAMMON, 4),
        (GameEnd.PLAYED, 4, Level.BACKGAMMON, 12),
        (GameEnd.RESIGNED, 2, Level.GAMMON, 4),
        (GameEnd.DROPPED, 1, None, 1),
        (GameEnd.DROPPED, 8, None, 8),
    ],
)
def test_game_points_are_cube_times_level(
    end: GameEnd, cube: int, level: Level | None, points: int
) -> None:
    assert game_points(end, cube, level) == points


def test_a_drop_with_a_level_is_refused() -> None:
    with pytest.raises(ValueError, match="no result level"):
        game_points(GameEnd.DROPPED, 2, Level.GAMMON)
