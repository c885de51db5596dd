"""Standings and tiebreaks, on small hand-worked score sheets."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.formats import tiebreaks
from tourney.formats.model import EntrantId, MatchOutcome
from tourney.formats.standings import compute_standings, places_within
from tourney.formats.tiebreaks import TIEBREAKS, Tiebreak, build_records, head_to_head

NAMES = "abcdefghij"


def pid(name: str) -> EntrantId:
    return EntrantId(NAMES.index(name) + 1)


def outcome(round_number: int, a: str, b: str | None, score: str = "7-0") -> MatchOutcome:
    """A 7-point match ``a`` against ``b`` with the score "a-b"; ``b`` None is a bye."""
    if b is None:
        return MatchOutcome(round_number, pid(a), None, pid(a), (0, 0), 7)
    x, y = (int(part) for part in score.split("-"))
    winner = pid(a) if x > y else pid(b)
    return MatchOutcome(round_number, pid(a), pid(b), winner, (x, y), 7)


def table(rows: object) -> list[tuple[str, str]]:
    return [(NAMES[r.entrant - 1], r.display_rank) for r in rows]  # type: ignore[attr-defined]


def test_standings_match_wins_come_first() -> None:
    # a beats b and c; b beats c: 2, 1, 0 wins, no tiebreak needed.
    outcomes = [outcome(1, "a", "b", "7-3"), outcome(2, "a", "c", "7-5"), outcome(3, "b", "c")]
    rows = compute_standings(outcomes, [tiebreaks.BUCHHOLZ])
    assert table(rows) == [("a", "1"), ("b", "2"), ("c", "3")]
    assert [r.reason for r in rows] == [None, None, None]


def test_standings_buchholz_breaks_tie_with_reason() -> None:
    # Round 1: a-b a wins, c-d c wins. Round 2: a-c c wins, b-d b wins.
    # Wins: a 1, b 1, c 2, d 0. a met b (1) and c (2): Buchholz 3. b met a (1), d (0): 1.
    outcomes = [
        outcome(1, "a", "b", "7-2"),
        outcome(1, "c", "d", "7-2"),
        outcome(2, "a", "c", "3-7"),
        outcome(2, "b", "d", "7-6"),
    ]
    rows = compute_standings(outcomes, [tiebreaks.BUCHHOLZ])
    assert table(rows) == [("c", "1"), ("a", "2"), ("b", "3"), ("d", "4")]
    assert rows[1].reason == "ahead on Buchholz 3 to 1"
    assert rows[1].metrics == (("wins", 1), ("buchholz", 3))


def test_standings_unbroken_tie_is_shared_rank() -> None:
    # a and b each beat an opponent with no wins and nothing else: every metric equal.
    outcomes = [outcome(1, "a", "c", "7-1"), outcome(1, "b", "d", "7-1")]
    rows = compute_standings(outcomes, [tiebreaks.BUCHHOLZ, tiebreaks.NET_GAME_POINTS])
    assert table(rows) == [("a", "=1"), ("b", "=1"), ("c", "=3"), ("d", "=3")]
    assert [r.tied for r in rows] == [True, True, True, True]


def test_head_to_head_used_only_when_decisive() -> None:
    # a, b, c are tied on 1 win each in a three-way cycle (a>b, b>c, c>a): the mini table
    # is 1-1-1, not decisive, so net game points decide: a +4-2=+2... worked out below.
    # a: beat b 7-3 (+4), lost to c 5-7 (-2): +2. b: lost 3-7 (-4), beat c 7-6 (+1): -3.
    # c: lost 6-7 (-1), beat a 7-5 (+2): +1.
    outcomes = [
        outcome(1, "a", "b", "7-3"),
        outcome(2, "b", "c", "7-6"),
        outcome(3, "c", "a", "7-5"),
    ]
    rows = compute_standings(outcomes, [tiebreaks.HEAD_TO_HEAD, tiebreaks.NET_GAME_POINTS])
    assert table(rows) == [("a", "1"), ("c", "2"), ("b", "3")]
    assert rows[0].reason == "ahead on net game points 2 to 1"


def test_head_to_head_decides_two_who_met() -> None:
    # Round 1: b beats a 7-6, c beats d 7-0. Round 2: a beats d 7-0, c beats b 7-0.
    # Wins: c 2, a 1, b 1, d 0. a and b met and b won, so b is ahead of a although a has
    # more net game points (a: -1 + 7 = +6, b: +1 - 7 = -6).
    outcomes = [
        outcome(1, "a", "b", "6-7"),
        outcome(1, "c", "d", "7-0"),
        outcome(2, "a", "d", "7-0"),
        outcome(2, "b", "c", "0-7"),
    ]
    rows = compute_standings(outcomes, [tiebreaks.HEAD_TO_HEAD, tiebreaks.NET_GAME_POINTS])
    assert table(rows) == [("c", "1"), ("b", "2"), ("a", "3"), ("d", "4")]
    assert rows[1].reason == "ahead on head-to-head 1 to 0"


def test_head_to_head_is_none_when_someone_did_not_meet() -> None:
    records = build_records([outcome(1, "a", "b", "7-1"), outcome(1, "c", "d", "7-1")])
    assert head_to_head([pid("a"), pid("c")], records) is None


def test_net_game_points_cap_each_match_at_its_length() -> None:
    # a wins 9-3 in a 7-point match (a gammon on 2 from 5-3): capped, +7-3 = +4, not +6.
    records = build_records([outcome(1, "a", "b", "9-3")])
    assert records[pid("a")].net_points == 4
    assert records[pid("b")].net_points == -4


def test_median_buchholz_and_minus_worst() -> None:
    # a plays b, c, d; their wins are 0, 1 and 2 (c beats e; d beats e and f).
    outcomes = [
        outcome(1, "a", "b"),
        outcome(2, "a", "c"),
        outcome(3, "a", "d"),
        outcome(1, "c", "e"),
        outcome(1, "d", "e"),
        outcome(2, "d", "f"),
    ]
    rows = {
        r.entrant: r
        for r in compute_standings(
            outcomes,
            [
                tiebreaks.BUCHHOLZ,
                tiebreaks.MEDIAN_BUCHHOLZ,
                tiebreaks.BUCHHOLZ_MINUS_WORST,
                tiebreaks.SONNEBORN_BERGER,
            ],
        )
    }
    a = rows[pid("a")]
    assert a.metric("buchholz") == 0 + 1 + 2
    assert a.metric("median-buchholz") == 1  # without best (2) and worst (0)
    assert a.metric("buchholz-minus-worst") == 3  # without worst (0)
    assert a.metric("sonneborn-berger") == 3  # beat all three: 0 + 1 + 2


def test_bye_counts_as_win_by_default_and_can_count_nothing() -> None:
    outcomes = [outcome(1, "a", None), outcome(1, "b", "c", "7-2")]
    assert compute_standings(outcomes)[0].metrics == (("wins", 1),)
    rows = compute_standings(outcomes, bye_is_win=False)
    assert table(rows)[0] == ("b", "1")
    assert rows[1].metric("wins") == 0


def test_entrants_without_outcomes_are_listed() -> None:
    rows = compute_standings([], entrants=[pid("a"), pid("b")])
    assert table(rows) == [("a", "=1"), ("b", "=1")]


def _random_outcomes(seed: int, players: int, rounds: int) -> list[MatchOutcome]:
    rng = random.Random(seed)
    out: list[MatchOutcome] = []
    for r in range(1, rounds + 1):
        ids = [EntrantId(i) for i in range(1, players + 1)]
        rng.shuffle(ids)
        for i in range(0, len(ids) - 1, 2):
            a, b = ids[i], ids[i + 1]
            x, y = rng.randint(0, 9), rng.randint(0, 9)
            winner = a if rng.random() < 0.5 else b
            out.append(MatchOutcome(r, a, b, winner, (x, y), 7))
        if len(ids) % 2:
            out.append(MatchOutcome(r, ids[-1], None, ids[-1], (0, 0), 7))
    return out


CHAINS = st.lists(st.sampled_from(TIEBREAKS), unique=True, max_size=4)


def _check_total_order(seed: int, players: int, rounds: int, chain: list[Tiebreak]) -> None:
    outcomes = _random_outcomes(seed, players, rounds)
    rows = compute_standings(outcomes, chain)
    records = build_records(outcomes)
    assert sorted(r.entrant for r in rows) == sorted(records)
    for i, row in enumerate(rows):
        # A rank is 1 + the number of rows strictly ahead, and tied means shared.
        assert row.rank == 1 + sum(1 for other in rows if other.rank < row.rank)
        assert row.tied == (sum(1 for other in rows if other.rank == row.rank) > 1)
        if i + 1 < len(rows):
            below = rows[i + 1]
            assert (row.metric("wins"), row.metrics) >= (below.metric("wins"), ())
            if row.rank == below.rank:
                # A shared rank only where every metric of the chain is equal.
                assert row.metrics == below.metrics
            elif row.metric("wins") == below.metric("wins"):
                assert row.reason is not None
                assert row.reason.startswith("ahead on ")


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 12), st.integers(1, 6), CHAINS)
def test_standings_are_a_total_order_with_explained_breaks(
    seed: int, players: int, rounds: int, chain: list[Tiebreak]
) -> None:
    _check_total_order(seed, players, rounds, chain)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 30), st.integers(1, 8), CHAINS)
def test_standings_total_order_many(
    seed: int, players: int, rounds: int, chain: list[Tiebreak]
) -> None:
    _check_total_order(seed, players, rounds, chain)


@pytest.mark.parametrize(
    ("overall", "places"),
    [
        # One division's rows of a table 1, =2, =2, =2, 5, 6 holding the =2s of
        # another division too: a tie with other divisions' players is no tie here.
        ([1, 2, 5], [(1, False), (2, False), (3, False)]),
        # Two of the division share the overall =2 (a third of the tie is elsewhere).
        ([2, 2, 5, 6], [(1, True), (1, True), (3, False), (4, False)]),
        # A shared last place stays shared, the places below it counted past it.
        ([1, 4, 4], [(1, False), (2, True), (2, True)]),
        ([], []),
    ],
)
def test_places_within_a_division_keep_the_overall_order_and_its_ties(
    overall: list[int], places: list[tuple[int, bool]]
) -> None:
    assert list(places_within(overall)) == places
