"""A season's table worked by hand: points by place with shared places split, best-N."""

from __future__ import annotations

import pytest

from tourney.formats.errors import FormatUserError
from tourney.formats.seasons import place_points, season_table

TABLE = [10, 6, 4, 2]


def test_shared_places_split_the_points_of_the_places_they_fill() -> None:
    # A knockout of eight: the winner 1st, the finalist 2nd, two semifinal losers =3 (places
    # 3 and 4: (4 + 2) / 2 = 3 each), four quarterfinal losers =5 (places 5-8: nothing).
    places = {1: 1, 2: 2, 3: 3, 4: 3, 5: 5, 6: 5, 7: 5, 8: 5}

    assert place_points(places, TABLE) == {
        1: 10.0, 2: 6.0, 3: 3.0, 4: 3.0, 5: 0.0, 6: 0.0, 7: 0.0, 8: 0.0
    }


def test_a_three_way_tie_shares_three_places() -> None:
    # Places 2, 3 and 4 shared by three: (6 + 4 + 2) / 3 = 4 each.
    assert place_points({1: 1, 2: 2, 3: 2, 4: 2}, TABLE) == {1: 10.0, 2: 4.0, 3: 4.0, 4: 4.0}


def test_best_two_of_three_events_count() -> None:
    events = [{1: 10.0, 2: 6.0}, {1: 2.0, 2: 10.0, 3: 6.0}, {1: 6.0, 3: 10.0}]
    # Player 1: 10, 2, 6 -> best two 16. Player 2: 6, 10 -> 16. Player 3: 6, 10 -> 16.
    # All three tie at 16; with every event counted player 1 has 18 and leads.
    best_two = season_table(events, best=2)
    every = season_table(events)

    assert [(r.display_rank, r.player, r.total) for r in best_two] == [
        ("=1", 1, 16.0), ("=1", 2, 16.0), ("=1", 3, 16.0)
    ]
    assert best_two[0].counted == (True, False, True)
    assert [(r.display_rank, r.player, r.total) for r in every] == [
        ("1", 1, 18.0), ("=2", 2, 16.0), ("=2", 3, 16.0)
    ]
    assert every[2].points == (None, 6.0, 10.0) and every[2].events_played == 2


def test_refusals() -> None:
    with pytest.raises(FormatUserError):
        season_table([{1: 1.0}], best=0)
    with pytest.raises(FormatUserError):
        place_points({1: 0}, TABLE)
