"""FIBS ratings (DESIGN §8): the formula's worked examples, the replay order, the list's
order, and agreement with a second implementation written here from the formula alone."""

from __future__ import annotations

import doctest
import math
import random
from datetime import UTC, datetime, timedelta

import pytest

import tourney.formats.ratings as ratings_module
from tourney.formats.errors import FormatUserError
from tourney.formats.ratings import (
    PlayerRating,
    RatedMatch,
    compute_ratings,
    k_factor,
    rating_change,
)

T0 = datetime(2024, 3, 1, 19, 0, tzinfo=UTC)
EXPERIENCED = 400
"""Experience at which K has fallen to 1."""


def match(minutes: int, a: str, b: str, length: int, winner: str) -> RatedMatch:
    return RatedMatch(T0 + timedelta(minutes=minutes), a, b, length, winner)


def by_player(rows: tuple[PlayerRating, ...]) -> dict[str, PlayerRating]:
    return {row.player: row for row in rows}


# --- the worked examples ------------------------------------------------------------------


def test_rating_change_favourite_1600_beats_1500_in_7_points_gains_4_49() -> None:
    gain, loss = rating_change(
        1600.0, 1500.0, 7, winner_experience=EXPERIENCED, loser_experience=EXPERIENCED
    )

    assert (round(gain, 2), round(loss, 2)) == (4.49, 4.49)


def test_rating_change_underdog_1500_beats_1600_in_7_points_gains_6_09() -> None:
    gain, loss = rating_change(
        1500.0, 1600.0, 7, winner_experience=EXPERIENCED, loser_experience=EXPERIENCED
    )

    assert (round(gain, 2), round(loss, 2)) == (6.09, 6.09)


def test_rating_change_newcomer_beats_equal_experienced_player_gains_26_46_loser_loses_5_29() -> (
    None
):
    gain, loss = rating_change(1500.0, 1500.0, 7, winner_experience=0,
                               loser_experience=EXPERIENCED)

    assert (round(gain, 2), round(loss, 2)) == (26.46, 5.29)


def test_compute_ratings_newcomer_beating_a_newcomer_gains_26_46() -> None:
    rows = compute_ratings([match(0, "Ann", "Ben", 7, "Ann")])

    assert [(r.player, round(r.rating, 2), r.experience, r.matches) for r in rows] == [
        ("Ann", 1526.46, 7, 1),
        ("Ben", 1473.54, 7, 1),
    ]


def test_compute_ratings_experience_counts_before_the_match_for_k() -> None:
    # 400 one-point matches against a crowd of newcomers give Ann experience 400: in the
    # next match her K is 1, the newcomer's 5.
    history = [match(n, "Ann", f"New {n}", 1, "Ann") for n in range(400)]
    ann_before = by_player(compute_ratings(history))["Ann"]

    after = by_player(compute_ratings([*history, match(500, "Ann", "Zoe", 7, "Zoe")]))

    gain, loss = rating_change(
        1500.0, ann_before.rating, 7, winner_experience=0, loser_experience=400
    )
    assert ann_before.experience == 400
    assert after["Zoe"].rating == pytest.approx(1500.0 + gain, abs=1e-9)
    assert after["Ann"].rating == pytest.approx(ann_before.rating - loss, abs=1e-9)
    assert (after["Ann"].experience, after["Ann"].matches) == (407, 401)


# --- the formula's pieces -----------------------------------------------------------------


def test_k_factor_falls_from_5_to_1_over_400_points() -> None:
    assert [k_factor(x) for x in (0, 1, 99, 100, 350, 399, 400, 401, 5000)] == pytest.approx(
        [5.0, 4.99, 4.01, 4.0, 1.5, 1.01, 1.0, 1.0, 1.0], abs=1e-12
    )


def test_rating_change_equal_ratings_is_the_same_whoever_is_called_favourite() -> None:
    # D = 0: P_upset = 1/2, so P = P_upset = 1 - P_upset.
    gain, loss = rating_change(1500.0, 1500.0, 5, winner_experience=30, loser_experience=30)

    assert gain == loss == 4 * k_factor(30) * math.sqrt(5) * 0.5


def test_compute_ratings_equal_ratings_mirror_whichever_side_wins() -> None:
    a_wins = by_player(compute_ratings([match(0, "Ann", "Ben", 5, "Ann")]))
    b_wins = by_player(compute_ratings([match(0, "Ann", "Ben", 5, "Ben")]))

    assert (a_wins["Ann"].rating, a_wins["Ben"].rating) == (
        b_wins["Ben"].rating,
        b_wins["Ann"].rating,
    )


def test_rating_change_gain_plus_underdog_gain_is_the_full_stake() -> None:
    favourite, _ = rating_change(1700.0, 1450.0, 9, winner_experience=500, loser_experience=500)
    underdog, _ = rating_change(1450.0, 1700.0, 9, winner_experience=500, loser_experience=500)

    assert favourite + underdog == pytest.approx(4 * math.sqrt(9))


# --- order --------------------------------------------------------------------------------


def test_compute_ratings_replays_by_finishing_time_not_list_order() -> None:
    early, late = match(0, "Ann", "Ben", 7, "Ann"), match(60, "Ben", "Cas", 3, "Ben")

    assert compute_ratings([late, early]) == compute_ratings([early, late])


def test_compute_ratings_equal_times_keep_the_given_order() -> None:
    first, second = match(0, "Ann", "Ben", 7, "Ann"), match(0, "Ben", "Cas", 3, "Ben")

    in_order = by_player(compute_ratings([first, second]))
    swapped = by_player(compute_ratings([second, first]))

    # Ben loses 26.46 first, then beats a newcomer as an underdog with K = 4.93 ...
    underdog_gain, _ = rating_change(1473.5424868893541, 1500.0, 3, winner_experience=7,
                                     loser_experience=0)
    assert in_order["Ben"].rating == pytest.approx(1473.5424868893541 + underdog_gain, abs=1e-9)
    # ... and the other way round he beats Cas at K = 5 from 1500 first.
    assert in_order["Ben"].rating != swapped["Ben"].rating


def test_compute_ratings_highest_first_equal_ratings_by_name() -> None:
    rows = compute_ratings([
        match(0, "Zed", "Yan", 3, "Zed"),
        match(1, "Bob", "Abe", 3, "Abe"),
        match(2, "Cy", "Di", 5, "Di"),
    ])

    assert [r.player for r in rows] == ["Di", "Abe", "Zed", "Bob", "Yan", "Cy"]


def test_compute_ratings_uses_the_start_rating() -> None:
    rows = compute_ratings([match(0, "Ann", "Ben", 1, "Ben")], start=1000.0)

    assert [(r.player, r.rating) for r in rows] == [("Ben", 1010.0), ("Ann", 990.0)]


def test_compute_ratings_no_matches_is_an_empty_list() -> None:
    assert compute_ratings([]) == ()


# --- refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "length", "winner", "message"),
    [
        ("Ann", "Ben", 7, "Cas", "The winner 'Cas' is neither 'Ann' nor 'Ben'."),
        ("Ann", "Ann", 7, "Ann", "'Ann' cannot play a rated match against themselves."),
        ("Ann", "Ben", 0, "Ann", "The match length must be a whole number of points from 1: 0."),
    ],
)
def test_rated_match_refuses_an_impossible_match(
    a: str, b: str, length: int, winner: str, message: str
) -> None:
    with pytest.raises(FormatUserError) as raised:
        RatedMatch(T0, a, b, length, winner)

    assert str(raised.value) == message


def test_ratings_module_doctests_pass() -> None:
    assert doctest.testmod(ratings_module).failed == 0


# --- a second implementation, from the formula alone -------------------------------------


def fibs_by_hand(
    rows: list[tuple[datetime, str, str, int, str]], start: float
) -> list[tuple[str, float, int, int]]:
    """DESIGN §8 read literally, with plain loops and nothing shared with the package."""
    order = list(range(len(rows)))
    # Insertion sort on (time, position in the list): equal times keep the list's order.
    for i in range(1, len(order)):
        j = i
        while j > 0 and (rows[order[j - 1]][0], order[j - 1]) > (rows[order[j]][0], order[j]):
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    table: dict[str, list[float]] = {}
    for index in order:
        _, a, b, n, winner = rows[index]
        for name in (a, b):
            if name not in table:
                table[name] = [start, 0, 0]
        loser = b if winner == a else a
        r1, r2 = table[winner][0], table[loser][0]
        d = abs(r1 - r2)
        p_upset = 1 / (10 ** (d * n ** 0.5 / 2000) + 1)
        favourite_won = r1 > r2 or r1 == r2
        p = p_upset if favourite_won else 1 - p_upset
        k_w = max(1, 5 - table[winner][1] / 100)
        k_l = max(1, 5 - table[loser][1] / 100)
        table[winner][0] = r1 + 4 * k_w * n ** 0.5 * p
        table[loser][0] = r2 - 4 * k_l * n ** 0.5 * p
        for name in (winner, loser):
            table[name][1] += n
            table[name][2] += 1
    listed = [(name, v[0], int(v[1]), int(v[2])) for name, v in table.items()]
    listed.sort(key=lambda row: row[0])
    listed.sort(key=lambda row: row[1], reverse=True)
    return listed


def random_results(seed: int, count: int) -> list[tuple[datetime, str, str, int, str]]:
    rng = random.Random(seed)
    names = [f"Player {n}" for n in range(14)]
    rows = []
    for _ in range(count):
        a, b = rng.sample(names, 2)
        # Few distinct times, so many matches share one and the list order decides.
        when = T0 + timedelta(hours=rng.randrange(60))
        rows.append((when, a, b, rng.choice([1, 1, 3, 5, 7, 9, 11, 13, 17, 25]),
                     rng.choice([a, b])))
    return rows


@pytest.mark.parametrize(("seed", "start"), [(1, 1500.0), (2, 1500.0), (3, 1234.5)])
def test_compute_ratings_agrees_with_a_second_implementation(seed: int, start: float) -> None:
    rows = random_results(seed, 400)

    ours = compute_ratings([RatedMatch(*row) for row in rows], start=start)
    theirs = fibs_by_hand(rows, start)

    assert [(r.player, r.experience, r.matches) for r in ours] == [
        (name, experience, played) for name, _, experience, played in theirs
    ]
    assert max(abs(r.rating - t[1]) for r, t in zip(ours, theirs, strict=True)) < 1e-9


def test_compute_ratings_carried_in_experience_sets_the_first_k() -> None:
    # Ann comes in at 1600 with 450 experience and 30 matches; Ben at 1500 with none.
    # Ann, favourite by D = 100, wins a 7-pointer: P_upset = 1 / (10^(100 * sqrt(7) /
    # 2000) + 1) = 0.424433; her K = max(1, 5 - 4.5) = 1: +4 * 1 * sqrt(7) * 0.424433 =
    # +4.4918; Ben's K = 5: -4 * 5 * sqrt(7) * 0.424433 = -22.4589.
    rows = by_player(compute_ratings(
        [match(0, "Ann", "Ben", 7, "Ann")],
        starts={"Ann": 1600.0},
        experiences={"Ann": 450},
        matches_before={"Ann": 30},
    ))

    assert (round(rows["Ann"].rating, 2), rows["Ann"].experience, rows["Ann"].matches) == (
        1604.49, 457, 31)
    assert (round(rows["Ben"].rating, 2), rows["Ben"].experience, rows["Ben"].matches) == (
        1477.54, 7, 1)


def test_compute_ratings_lists_only_players_with_a_match_here() -> None:
    rows = compute_ratings([match(0, "Ann", "Ben", 1, "Ben")],
                           experiences={"Cid": 900}, matches_before={"Cid": 60})

    assert sorted(r.player for r in rows) == ["Ann", "Ben"]
