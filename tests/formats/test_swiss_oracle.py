"""Swiss pairing against a brute-force optimum on random histories of up to 12 players,
and against the complete-graph matching (networkx) on fields of 13 to 25.

The oracle enumerates every perfect matching (and, for odd fields, every bye choice) and
scores each with the objective written out here from DESIGN §4, independently of the
module: rematches, bye to a player who already had one, score of the bye player, sum of
squared record distances, out-of-group players, sum of record distances, bye player's
place from the bottom. Fields too large to enumerate are scored with the same function.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

import tourney.formats.swiss as swiss
from tourney.formats.swiss import SwissEntrant, SwissRound, pair_round, pair_round_exact

Cost = tuple[int, int, int, int, int, int, int]
Case = tuple[list[SwissEntrant], set[frozenset[int]], str, str]
Optimum = Callable[[list[SwissEntrant], set[frozenset[int]], str], Cost]
Pairer = Callable[..., SwissRound]


def perfect_matchings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, partner in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, partner), *tail]


def objective(
    field: list[SwissEntrant],
    played: set[frozenset[int]],
    record: str,
    pairs: list[tuple[int, int]],
    bye: int | None,
) -> Cost:
    score = {e.id: (e.wins if record == "wins" else -e.losses) for e in field}
    rematches = sum(frozenset(p) in played for p in pairs)
    gaps = [abs(score[a] - score[b]) for a, b in pairs]
    squares = sum(gap**2 for gap in gaps)
    floaters = 2 * sum(gap > 0 for gap in gaps)
    distance = sum(gaps)
    if bye is None:
        return (rematches, 0, 0, squares, floaters, distance, 0)
    place = [e.id for e in field].index(bye)
    had = next(e.had_bye for e in field if e.id == bye)
    return (
        rematches,
        int(had),
        score[bye] - min(score.values()),
        squares,
        floaters,
        distance,
        len(field) - 1 - place,
    )


def brute_force(field: list[SwissEntrant], played: set[frozenset[int]], record: str) -> Cost:
    ids = [e.id for e in field]
    byes: list[int | None] = [None] if len(ids) % 2 == 0 else list(ids)
    return min(
        objective(field, played, record, pairs, bye)
        for bye in byes
        for pairs in perfect_matchings([i for i in ids if i != bye])
    )


def random_case(rng: random.Random, n: int) -> Case:
    """A field of ``n`` with a history: arbitrary past rounds, or Swiss-paired ones."""
    record = rng.choice(["wins", "losses"])
    order = rng.choice(["random", "rating"])
    ids = list(range(1, n + 1))
    wins = dict.fromkeys(ids, 0)
    losses = dict.fromkeys(ids, 0)
    had_bye = dict.fromkeys(ids, False)
    ratings = {i: rng.choice([None, rng.uniform(1200, 2000)]) for i in ids}
    played: set[frozenset[int]] = set()
    swiss_history = rng.random() < 0.5
    for r in range(rng.randint(0, n)):
        if swiss_history:
            result = pair_round(standings(ids, wins, losses, had_bye, ratings), played, seed=r)
            pairs, bye = list(result.pairings), result.bye
        else:
            shuffled = ids[:]
            rng.shuffle(shuffled)
            bye = shuffled.pop() if n % 2 else None
            pairs = list(zip(shuffled[::2], shuffled[1::2], strict=True))
        if bye is not None:
            had_bye[bye] = True
            wins[bye] += 1
        for a, b in pairs:
            played.add(frozenset((a, b)))
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            wins[winner] += 1
            losses[loser] += 1
    # Occasionally a late entrant with a director-set record.
    if rng.random() < 0.2:
        late = rng.choice(ids)
        wins[late], losses[late] = rng.randint(0, 2), rng.randint(0, 2)
    return standings(ids, wins, losses, had_bye, ratings), played, record, order


def standings(
    ids: list[int],
    wins: dict[int, int],
    losses: dict[int, int],
    had_bye: dict[int, bool],
    ratings: dict[int, float | None],
) -> list[SwissEntrant]:
    order = sorted(ids, key=lambda i: (-wins[i], losses[i], i))
    return [SwissEntrant(i, wins[i], losses[i], ratings[i], had_bye[i]) for i in order]


def assert_valid(field: list[SwissEntrant], result: SwissRound) -> None:
    seen = [p for pair in result.pairings for p in pair]
    if result.bye is not None:
        seen.append(result.bye)
    assert sorted(seen) == sorted(e.id for e in field)
    assert (result.bye is None) == (len(field) % 2 == 0)


def networkx_optimum(field: list[SwissEntrant], played: set[frozenset[int]], record: str) -> Cost:
    """The objective of the complete-graph matching, for fields too large to enumerate."""
    reference = pair_round_exact(field, played, seed=0, record=record)
    assert_valid(field, reference)
    return objective(field, played, record, list(reference.pairings), reference.bye)


def run_oracle(
    cases: int,
    seed: int,
    max_n: int,
    *,
    min_n: int = 2,
    optimum: Optimum = brute_force,
    pair: Pairer = pair_round,
) -> dict[str, int]:
    """Pair ``cases`` random histories and count agreement with the optimum."""
    rng = random.Random(seed)
    counts = {"cases": 0, "agree": 0, "proved": 0, "proved_wrong": 0}
    for k in range(cases):
        n = rng.randint(min_n, max_n)
        field, played, record, order = random_case(rng, n)
        result = pair(field, played, seed=k, order=order, record=record)
        assert_valid(field, result)
        best = optimum(field, played, record)
        mine = objective(field, played, record, list(result.pairings), result.bye)
        assert mine >= best
        counts["cases"] += 1
        counts["agree"] += mine == best
        counts["proved"] += result.optimal
        counts["proved_wrong"] += result.optimal and mine != best
    return counts


def test_brute_force_counts_every_matching_of_six() -> None:
    # 5 * 3 * 1 = 15 perfect matchings of six players.
    assert len(list(perfect_matchings([1, 2, 3, 4, 5, 6]))) == 15


def test_oracle_objective_puts_two_adjacent_floats_before_one_long_float() -> None:
    # 1 is 3-0, 2 and 3 are 2-1, 4 is 1-2. Chaining 1-2, 3-4 floats four players by one
    # win each (squares 1 + 1); 1-4, 2-3 floats two players by two wins (square 4).
    field = [SwissEntrant(1, 3, 0), SwissEntrant(2, 2, 1), SwissEntrant(3, 2, 1)]
    field.append(SwissEntrant(4, 1, 2))
    chained = objective(field, set(), "wins", [(1, 2), (3, 4)], None)
    long_float = objective(field, set(), "wins", [(1, 4), (2, 3)], None)
    assert (chained, long_float) == ((0, 0, 0, 2, 4, 2, 0), (0, 0, 0, 4, 2, 2, 0))
    assert chained < long_float


def test_pair_round_matches_brute_force_on_small_fields() -> None:
    counts = run_oracle(cases=300, seed=2024, max_n=10)
    assert counts == {"cases": 300, "agree": 300, "proved": 300, "proved_wrong": 0}


def test_pair_round_matches_brute_force_on_nine_to_twelve() -> None:
    counts = run_oracle(cases=40, seed=11, min_n=9, max_n=12)
    assert counts == {"cases": 40, "agree": 40, "proved": 40, "proved_wrong": 0}


def test_pair_round_exact_matches_brute_force_on_small_fields() -> None:
    # The complete-graph weights encode the same objective: the reference for larger fields.
    counts = run_oracle(cases=200, seed=31, max_n=10, pair=pair_round_exact)
    assert counts == {"cases": 200, "agree": 200, "proved": 200, "proved_wrong": 0}


def test_pair_round_matches_networkx_on_thirteen_to_twenty_five() -> None:
    counts = run_oracle(cases=100, seed=13, min_n=13, max_n=25, optimum=networkx_optimum)
    assert counts == {"cases": 100, "agree": 100, "proved": 100, "proved_wrong": 0}


@pytest.mark.parametrize(
    ("cases", "seed", "min_n", "max_n"),
    [
        (200, 7, 2, 10),
        (50, 17, 13, 25),
        pytest.param(2000, 123, 2, 12, marks=pytest.mark.slow),
        pytest.param(2000, 124, 13, 25, marks=pytest.mark.slow),
    ],
)
def test_window_repair_never_claims_a_wrong_optimum(
    monkeypatch: pytest.MonkeyPatch, cases: int, seed: int, min_n: int, max_n: int
) -> None:
    # Force the large-field path (windows instead of the complete graph) on small fields:
    # it may miss the optimum, but whenever it says "optimal" it must be right. Fields
    # beyond 12 are too many to enumerate: the complete-graph matching is the optimum.
    monkeypatch.setattr(swiss, "EXACT_LIMIT", 0)
    optimum = brute_force if max_n <= 12 else networkx_optimum
    counts = run_oracle(cases, seed, max_n, min_n=min_n, optimum=optimum)
    assert counts["proved_wrong"] == 0
    assert counts["agree"] >= counts["proved"]


@pytest.mark.slow
def test_pair_round_matches_brute_force_thousands() -> None:
    counts = run_oracle(cases=3000, seed=99, max_n=12)
    assert counts["agree"] == counts["cases"] == counts["proved"] == 3000


@pytest.mark.slow
def test_pair_round_exact_matches_brute_force_thousands() -> None:
    counts = run_oracle(cases=2000, seed=98, max_n=12, pair=pair_round_exact)
    assert counts["agree"] == counts["cases"] == 2000


@pytest.mark.slow
def test_pair_round_matches_networkx_thousands() -> None:
    counts = run_oracle(cases=3000, seed=97, min_n=13, max_n=25, optimum=networkx_optimum)
    assert counts["agree"] == counts["cases"] == counts["proved"] == 3000
