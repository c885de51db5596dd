"""Swiss pairing: hand-checked rounds, byes, ratings, lives Swiss and errors."""

from __future__ import annotations

import pytest

from tourney.formats.errors import FormatUserError
from tourney.formats.swiss import (
    PairingCost,
    SwissEntrant,
    alive_entrants,
    default_round_count,
    is_alive,
    is_round_due,
    pair_round,
    pairing_cost,
)


def entrant(pid: int, wins: int = 0, losses: int = 0, **kw: object) -> SwissEntrant:
    return SwissEntrant(pid, wins, losses, **kw)  # type: ignore[arg-type]


def met(*pairs: tuple[int, int]) -> set[frozenset[int]]:
    return {frozenset(p) for p in pairs}


def test_default_round_count_is_ceil_log2() -> None:
    # 2 -> 1, 8 -> 3 (exact power), 9 -> 4, 100 -> 7 (64 < 100 <= 128).
    assert [default_round_count(n) for n in (2, 8, 9, 100)] == [1, 3, 4, 7]


def test_default_round_count_one_player_raises() -> None:
    with pytest.raises(FormatUserError):
        default_round_count(1)


def test_pair_round_single_player_raises() -> None:
    with pytest.raises(FormatUserError, match="at least two"):
        pair_round([entrant(1)], set(), seed=1)


def test_pair_round_unknown_order_raises() -> None:
    with pytest.raises(FormatUserError, match="order"):
        pair_round([entrant(1), entrant(2)], set(), seed=1, order="alphabetical")


def test_pair_round_fresh_groups_pair_inside_their_group() -> None:
    # 1 and 2 have one win, 3 and 4 none; nobody has met: 1-2 and 3-4, no floaters.
    field = [entrant(1, 1, 0), entrant(2, 1, 0), entrant(3, 0, 1), entrant(4, 0, 1)]
    result = pair_round(field, met((1, 3), (2, 4)), seed=5)
    assert result.pairings == ((1, 2), (3, 4))
    assert (result.bye, result.rematches, result.floaters, result.optimal) == (None, 0, 0, True)


def test_pair_round_avoids_rematch_by_floating() -> None:
    # Both groups already met inside (1-2, 3-4): the only rematch-free rounds cross the
    # groups, so all four players float; 1-3 and 2-4 were round 1, which leaves 1-4, 2-3.
    field = [entrant(1, 2, 0), entrant(2, 2, 0), entrant(3, 1, 1), entrant(4, 1, 1)]
    result = pair_round(field, met((1, 2), (3, 4), (1, 3), (2, 4)), seed=0)
    assert result.pairings == ((1, 4), (2, 3))
    assert (result.rematches, result.floaters, result.record_distance) == (0, 4, 2)


def test_pair_round_lone_leader_meets_free_two_one_player() -> None:
    # 1 is alone at 3-0; 2 and 3 are 2-1; 4, 5 and 6 are 1-2. 1 has met 2, so 1 meets 3
    # (one win apart) rather than a 1-2 player (two apart), although that floats four
    # players instead of two. 2 passes on down to the one 1-2 player it has not met.
    field = [entrant(1, 3, 0), entrant(2, 2, 1), entrant(3, 2, 1)]
    field += [entrant(4, 1, 2), entrant(5, 1, 2), entrant(6, 1, 2)]
    result = pair_round(field, met((1, 2), (2, 4), (2, 5)), seed=4)
    assert result.pairings == ((1, 3), (2, 6), (4, 5))
    assert (result.squared_distance, result.floaters, result.record_distance) == (2, 4, 2)


def test_pair_round_groups_of_one_two_one_cross_twice_to_adjacent_groups() -> None:
    # 1 (2-0) alone, 2 and 3 at 1-1, 4 (0-2) alone: 1 meets a 1-1 player and the other
    # meets 4, squares 1 + 1, not 1-4 (square 4) with 2-3. 1 has met 2, so 1-3 and 2-4.
    field = [entrant(1, 2, 0), entrant(2, 1, 1), entrant(3, 1, 1), entrant(4, 0, 2)]
    result = pair_round(field, met((1, 2)), seed=8)
    assert result.pairings == ((1, 3), (2, 4))
    assert (result.squared_distance, result.floaters, result.optimal) == (2, 4, True)


def test_pair_round_rematch_forces_float_past_adjacent_group() -> None:
    # 1 (3-0) has met the only 2-1 player (2) and the 1-2 player 3: it meets the other
    # 1-2 player, two wins apart (square 4), and 2 meets 3 (square 1): no rematch.
    field = [entrant(1, 3, 0), entrant(2, 2, 1), entrant(3, 1, 2), entrant(4, 1, 2)]
    result = pair_round(field, met((1, 2), (1, 3)), seed=1)
    assert result.pairings == ((1, 4), (2, 3))
    assert (result.rematches, result.squared_distance, result.record_distance) == (0, 5, 3)


def test_pair_round_rematch_only_when_unavoidable() -> None:
    # Two players who already met must meet again; the round says so.
    result = pair_round([entrant(1, 1, 0), entrant(2, 0, 1)], met((1, 2)), seed=0)
    assert (result.pairings, result.rematches) == (((1, 2),), 1)


def test_pair_round_rematch_refused_when_not_allowed() -> None:
    with pytest.raises(FormatUserError, match="repeats"):
        pair_round([entrant(1, 1, 0), entrant(2, 0, 1)], met((1, 2)), seed=0, allow_rematches=False)


def test_pair_round_bye_to_lowest_placed_without_bye() -> None:
    # Five fresh players with one win or none: 5 is lowest but had a bye, so 4 gets it.
    field = [
        entrant(1, 1, 0),
        entrant(2, 1, 0),
        entrant(3, 0, 1),
        entrant(4, 0, 1),
        entrant(5, 1, 0, had_bye=True),
    ]
    field = [field[0], field[1], field[4], field[2], field[3]]  # standings: 1, 2, 5, 3, 4
    result = pair_round(field, set(), seed=3)
    assert result.bye == 4


def test_pair_round_bye_skips_player_whose_bye_forces_rematch() -> None:
    # 1 (1-0) has met 2 (0-1); bye to 3 (lowest) would force 1-2 again, so 2 gets it.
    field = [entrant(1, 1, 0), entrant(2, 0, 1), entrant(3, 0, 1)]
    result = pair_round(field, met((1, 2)), seed=0)
    assert (result.bye, result.pairings, result.rematches) == (2, ((1, 3),), 0)


def test_pair_round_bye_goes_to_lowest_group_before_avoiding_floaters() -> None:
    # 1, 2, 3 have a win, 4 and 5 none. Bye to 5 leaves 4 to float up (2 floaters),
    # but the bye belongs in the lowest group, so it is taken anyway.
    field = [entrant(i, 1, 0) for i in (1, 2, 3)] + [entrant(i, 0, 1) for i in (4, 5)]
    result = pair_round(field, set(), seed=2)
    assert (result.bye, result.floaters, result.record_distance) == (5, 2, 1)


def test_pair_round_same_seed_same_round() -> None:
    field = [entrant(i) for i in range(1, 21)]
    assert pair_round(field, set(), seed=9) == pair_round(field, set(), seed=9)


def test_pair_round_random_order_varies_with_seed() -> None:
    # Four fresh players in one group have three possible rounds; 30 seeds see them all.
    field = [entrant(i) for i in (1, 2, 3, 4)]
    rounds = {pair_round(field, set(), seed=s).pairings for s in range(30)}
    assert rounds == {((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3))}


def test_pair_round_rating_order_top_half_meets_bottom_half() -> None:
    # Ratings 2000 > 1900 > 1800 > 1700 given in another order: 1st v 3rd, 2nd v 4th.
    ratings = {1: 1800.0, 2: 2000.0, 3: 1700.0, 4: 1900.0}
    field = [entrant(i, rating=r) for i, r in ratings.items()]
    result = pair_round(field, set(), seed=0, order="rating")
    assert result.pairings == ((1, 2), (3, 4))


def test_pair_round_rating_order_moves_only_as_far_as_rematches_require() -> None:
    # Slide would be 1v3 and 2v4 (ratings descend with id); 1 met 3, so 1v4 and 2v3.
    field = [entrant(i, rating=2000.0 - 100 * i) for i in (1, 2, 3, 4)]
    result = pair_round(field, met((1, 3)), seed=0, order="rating")
    assert result.pairings == ((1, 4), (2, 3))


def test_pair_round_lives_record_groups_by_losses() -> None:
    # By losses, 1 (3-0) and 2 (1-0, late entry) share a group, as do 3 and 4 (one loss).
    # By wins the groups are 1 (3 wins), 3 and 4 (2 wins), 2 (1 win): 1 meets 4 (1 met 3)
    # and 3 meets 2, each one win apart.
    field = [entrant(1, 3, 0), entrant(2, 1, 0), entrant(3, 2, 1), entrant(4, 2, 1)]
    by_losses = pair_round(field, met((1, 3)), seed=1, record="losses")
    by_wins = pair_round(field, met((1, 3)), seed=1)
    assert (by_losses.pairings, by_losses.floaters) == (((1, 2), (3, 4)), 0)
    assert (by_wins.pairings, by_wins.floaters) == (((1, 4), (2, 3)), 4)


def test_pair_round_ignores_pairs_with_absent_players() -> None:
    # 99 withdrew; what it played does not matter. 1 and 2 have not met each other.
    result = pair_round([entrant(1), entrant(2)], met((1, 99), (2, 99)), seed=0)
    assert (result.pairings, result.rematches) == (((1, 2),), 0)


def test_pairing_cost_counts_each_criterion() -> None:
    # 1-3 is a rematch across groups (distance 1), 2 has a bye, having had one before.
    field = [entrant(1, 1, 0), entrant(2, 1, 0, had_bye=True), entrant(3, 0, 1)]
    cost = pairing_cost(field, met((1, 3)), [(1, 3)], 2)
    assert cost == PairingCost(
        rematches=1,
        repeat_bye=1,
        bye_score=1,
        squared_distance=1,
        floaters=2,
        record_distance=1,
        bye_place=1,
    )


def test_pairing_cost_ranks_two_adjacent_floats_before_one_long_float() -> None:
    # 3-0, 2-1, 2-1, 1-2: chaining 1-2 and 3-4 (squares 1 + 1, four floaters) beats
    # 1-4 and 2-3 (square 4, two floaters).
    field = [entrant(1, 3, 0), entrant(2, 2, 1), entrant(3, 2, 1), entrant(4, 1, 2)]
    chained = pairing_cost(field, set(), [(1, 2), (3, 4)], None)
    long_float = pairing_cost(field, set(), [(1, 4), (2, 3)], None)
    assert (chained.squared_distance, long_float.squared_distance) == (2, 4)
    assert chained < long_float


def test_is_alive_out_after_lives_losses() -> None:
    assert (is_alive(entrant(1, 4, 2), 3), is_alive(entrant(1, 4, 3), 3)) == (True, False)


def test_alive_entrants_keeps_order() -> None:
    field = [entrant(1, 5, 0), entrant(2, 3, 3), entrant(3, 2, 2)]
    assert [e.id for e in alive_entrants(field, 3)] == [1, 3]


def test_is_round_due_while_two_have_lives() -> None:
    two_left = [entrant(1, 5, 1), entrant(2, 4, 2), entrant(3, 3, 3)]
    one_left = [entrant(1, 6, 1), entrant(2, 4, 3), entrant(3, 3, 3)]
    assert (is_round_due(two_left, 3), is_round_due(one_left, 3)) == (True, False)


def test_is_round_due_zero_lives_raises() -> None:
    with pytest.raises(FormatUserError, match="life"):
        is_round_due([entrant(1)], 0)
