"""Fixtures decided from their boards, and team standings, worked by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.formats.errors import FormatUserError
from tourney.formats.model import EntrantId
from tourney.formats.teams import (
    BoardResult,
    DecidedBy,
    FixtureOutcome,
    FixtureResult,
    check_lineup,
    check_team_size,
    decide_fixture,
    fixed_lineup,
    is_decided,
    team_standings,
)
from tourney.formats.tiebreaks import BUCHHOLZ, NET_GAME_POINTS


def board(number: int, score: str, length: int = 5) -> BoardResult:
    """A board result from its score as ``"5-3"`` (team a's player first)."""
    a, b = (int(part) for part in score.split("-"))
    return BoardResult(number, a > b, (a, b), length)


def fixture(round_number: int, a: int, b: int, boards: str, points: str) -> FixtureOutcome:
    """A finished fixture from its board count ``"2-1"`` and board points ``"13-9"``."""
    won = tuple(int(part) for part in boards.split("-"))
    pts = tuple(int(part) for part in points.split("-"))
    a_won = won[0] > won[1] or (won[0] == won[1] and pts[0] > pts[1])
    result = FixtureResult((won[0], won[1]), (pts[0], pts[1]), a_won, DecidedBy.BOARDS)
    return FixtureOutcome(round_number, EntrantId(a), EntrantId(b), result)


def test_fixture_two_boards_to_one_goes_to_the_majority() -> None:
    # Team a wins boards 1 and 3, loses board 2: 2-1 although b scored more points.
    results = [board(1, "5-4"), board(2, "0-5"), board(3, "5-4")]

    outcome = decide_fixture(results, 3)

    assert outcome == FixtureResult((2, 1), (10, 13), True, DecidedBy.BOARDS)
    assert outcome.score_label == "2–1"


def test_fixture_two_all_goes_to_board_points() -> None:
    # 4 boards, 2-2: a scores 5+5+3+1 = 14, b 2+4+5+5 = 16, so b wins on board points.
    results = [board(1, "5-2"), board(2, "5-4"), board(3, "3-5"), board(4, "1-5")]

    outcome = decide_fixture(results, 4)

    assert outcome == FixtureResult((2, 2), (14, 16), False, DecidedBy.BOARD_POINTS)
    assert outcome.score_label == "2–2 (14–16)"


def test_board_points_count_at_most_the_match_length() -> None:
    # Board 1 ends 7-4 in a match to 5: a counts 5, not 7; 5+3 = 8 against 4+5 = 9.
    results = [board(1, "7-4"), board(2, "3-5")]

    outcome = decide_fixture(results, 2)

    assert outcome == FixtureResult((1, 1), (8, 9), False, DecidedBy.BOARD_POINTS)


def test_level_boards_and_points_go_to_the_top_board() -> None:
    results = [board(1, "5-3"), board(2, "3-5")]

    outcome = decide_fixture(results, 2)

    assert outcome == FixtureResult((1, 1), (8, 8), True, DecidedBy.TOP_BOARD)


def test_fixture_with_a_board_missing_is_refused() -> None:
    with pytest.raises(FormatUserError, match="one result for each board"):
        decide_fixture([board(1, "5-3"), board(3, "5-3")], 3)


def test_fixture_is_decided_once_a_team_has_the_majority() -> None:
    assert is_decided((2, 0), 3) is True
    assert is_decided((1, 1), 3) is False
    assert is_decided((2, 1), 4) is False
    assert is_decided((3, 0), 4) is True


def test_team_standings_count_fixture_wins_then_board_wins_then_the_chain() -> None:
    # Four teams, two rounds.
    # Round 1: 1 beats 2 3-0 (15-6); 3 beats 4 2-1 (12-10).
    # Round 2: 1 beats 3 2-1 (11-10); 4 beats 2 2-1 (13-12).
    # Fixture wins: 1 -> 2, 3 -> 1, 4 -> 1, 2 -> 0.
    # Board wins: 1 -> 5, 3 -> 3, 4 -> 3, 2 -> 1: teams 3 and 4 are level on both.
    # Buchholz: 3 met 4 (1) and 1 (2) = 3; 4 met 3 (1) and 2 (0) = 1: team 3 ahead.
    # (Team 1 met 2 (0) and 3 (1) = 1; team 2 met 1 (2) and 4 (1) = 3.)
    # Net board points: 1: 9 + 1 = 10; 3: 2 - 1 = 1; 4: -2 + 1 = -1; 2: -9 - 1 = -10.
    outcomes = [
        fixture(1, 1, 2, "3-0", "15-6"),
        fixture(1, 3, 4, "2-1", "12-10"),
        fixture(2, 1, 3, "2-1", "11-10"),
        fixture(2, 4, 2, "2-1", "13-12"),
    ]

    table = team_standings(outcomes, (BUCHHOLZ, NET_GAME_POINTS))

    assert [(row.entrant, row.display_rank) for row in table] == [
        (1, "1"),
        (3, "2"),
        (4, "3"),
        (2, "4"),
    ]
    assert [row.metrics for row in table] == [
        (("wins", 2), ("board-wins", 5), ("buchholz", 1), ("net-game-points", 10)),
        (("wins", 1), ("board-wins", 3), ("buchholz", 3), ("net-game-points", 1)),
        (("wins", 1), ("board-wins", 3), ("buchholz", 1), ("net-game-points", -1)),
        (("wins", 0), ("board-wins", 1), ("buchholz", 3), ("net-game-points", -10)),
    ]
    assert table[1].reason == "ahead on Buchholz 3 to 1"


def test_board_wins_separate_teams_level_on_fixture_wins() -> None:
    # 1 beats 2 3-0, 3 beats 4 2-1: 1 and 3 have one fixture win each, 1 won 3 boards.
    outcomes = [fixture(1, 1, 2, "3-0", "15-3"), fixture(1, 3, 4, "2-1", "14-12")]

    table = team_standings(outcomes)

    assert [(row.entrant, row.display_rank) for row in table] == [
        (1, "1"),
        (3, "2"),
        (4, "3"),
        (2, "4"),
    ]
    assert table[0].reason == "ahead on board wins 3 to 2"


def test_a_bye_wins_a_fixture_but_no_board() -> None:
    table = team_standings([FixtureOutcome(1, EntrantId(5), None, None)])

    assert [row.metrics for row in table] == [(("wins", 1), ("board-wins", 0))]


def test_fixed_lineup_fields_the_first_players_in_board_order() -> None:
    assert fixed_lineup([11, 12, 13, 14], 3) == (11, 12, 13)


def test_team_sizes_and_lineups_are_checked() -> None:
    with pytest.raises(FormatUserError, match="a team needs 2 to 7"):
        check_team_size("Solo", 1)
    with pytest.raises(FormatUserError, match="a team needs 3 to 7"):
        check_team_size("Pair", 2, boards=3)
    with pytest.raises(FormatUserError, match="only one board"):
        check_lineup([1, 2, 3], [1, 1, 2], 3)
    with pytest.raises(FormatUserError, match="member of the team"):
        check_lineup([1, 2, 3], [1, 2, 9], 3)


@st.composite
def finished_boards(draw: st.DrawFn) -> tuple[int, list[BoardResult]]:
    """N finished board matches: each won by one side, the winner reaching the length
    (perhaps overshooting it), the loser short of it."""
    count = draw(st.integers(1, 7))
    results = []
    for number in range(1, count + 1):
        length = draw(st.integers(1, 11))
        a_won = draw(st.booleans())
        winner = draw(st.integers(length, length + 3))
        loser = draw(st.integers(0, length - 1))
        score = (winner, loser) if a_won else (loser, winner)
        results.append(BoardResult(number, a_won, score, length))
    return count, draw(st.permutations(results))


@given(finished_boards())
def test_fixture_goes_to_the_majority_then_board_points_then_the_top_board(
    case: tuple[int, list[BoardResult]],
) -> None:
    count, results = case

    outcome = decide_fixture(results, count)

    won_a = sum(r.a_won for r in results)
    points_a = sum(min(r.score[0], r.length) for r in results)
    points_b = sum(min(r.score[1], r.length) for r in results)
    assert outcome.boards == (won_a, count - won_a)
    assert outcome.points == (points_a, points_b)
    if won_a * 2 != count:
        assert outcome.a_won == (won_a * 2 > count)
        assert outcome.decided_by is DecidedBy.BOARDS
    elif points_a != points_b:
        assert outcome.a_won == (points_a > points_b)
        assert outcome.decided_by is DecidedBy.BOARD_POINTS
    else:
        top = next(r for r in results if r.board == 1)
        assert outcome.a_won == top.a_won
        assert outcome.decided_by is DecidedBy.TOP_BOARD
