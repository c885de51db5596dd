"""Winning chances from a match's score, against gnubg's match equity table.

Expected values are read off the gnubg program's ``show matchequitytable 3`` (the
Kazaross XG2 table): pre-Crawford 2-away v 1-away 32.2640%, 3-away v 2-away 40.0530%;
post-Crawford the trailer at 2-away has 48.8030%, at 3-away 32.2640%.
"""

from __future__ import annotations

import pytest

from tourney.analysis import AnalysisUnavailable, winning_chances
from tourney.match import GameKind


def _percent(chances: tuple[float, float]) -> tuple[float, float]:
    return (round(100 * chances[0], 3), round(100 * chances[1], 3))


def test_double_match_point_is_even() -> None:
    assert _percent(winning_chances((1, 1), GameKind.POST_CRAWFORD)) == (50.0, 50.0)


def test_crawford_game_leader_at_one_away_against_two_away() -> None:
    assert _percent(winning_chances((1, 2), GameKind.CRAWFORD)) == (67.736, 32.264)


def test_post_crawford_trailer_at_two_away_has_the_post_crawford_value() -> None:
    assert _percent(winning_chances((2, 1), GameKind.POST_CRAWFORD)) == (48.803, 51.197)


def test_post_crawford_trailer_at_three_away() -> None:
    assert _percent(winning_chances((1, 3), GameKind.POST_CRAWFORD)) == (67.736, 32.264)


def test_pre_crawford_three_away_against_two_away() -> None:
    assert _percent(winning_chances((3, 2), GameKind.NORMAL)) == (40.053, 59.947)


def test_a_won_match_is_certain() -> None:
    assert winning_chances((0, 4), None) == (1.0, 0.0)


def test_an_impossible_score_is_refused() -> None:
    with pytest.raises(ValueError, match="no match stands"):
        winning_chances((0, 0), None)


def test_without_the_extra_chances_are_unavailable(without_gnubg: None) -> None:
    with pytest.raises(AnalysisUnavailable, match="analysis is not installed"):
        winning_chances((3, 2), GameKind.NORMAL)
