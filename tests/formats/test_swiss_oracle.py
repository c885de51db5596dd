"""Swiss pairing against a brute-force optimum on every random history of up to 12 players.

The oracle enumerates every perfect matching (and, for odd fields, every bye choice) and
scores each with the objective written out here from DESIGN §4, independently of the
module: rematches, bye to a player who already had one, score of the bye player,
out-of-group players, sum of record distances, bye player's place from the bottom.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import tourney.formats.swiss as swiss
from tourney.formats.swiss import SwissEntrant, SwissRound, pair_round

Cost = tuple[int, int, int, int, int, int]
Case = tuple[list[SwissEntrant], set[frozenset[int]], str, str]


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
    floaters = sum(2 for a, b in pairs if score[a] != score[b])
    distance = sum(abs(score[a] - score[b]) for a, b in pairs)
    if bye is None:
        return (rematches, 0, 0, floaters, distance, 0)
    place = [e.id for e in field].index(bye)
    had = next(e.had_bye for e in field if e.id == bye)
    return (
        rematches,
        int(had),
        score[bye] - min(score.values()),
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


def run_oracle(cases: int, seed: int, max_n: int) -> dict[str, int]:
    """Pair ``cases`` random histories and count agreement with the brute force."""
    rng = random.Random(seed)
    counts = {"cases": 0, "agree": 0, "proved": 0, "proved_wrong": 0}
    for k in range(cases):
        n = rng.randint(2, max_n)
        field, played, record, order = random_case(rng, n)
        result = pair_round(field, played, seed=k, order=order, record=record)
        assert_valid(field, result)
        best = brute_force(field, played, record)
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


def test_pair_round_matches_brute_force_on_small_fields() -> None:
    counts = run_oracle(cases=300, seed=2024, max_n=10)
    assert counts == {"cases": 300, "agree": 300, "proved": 300, "proved_wrong": 0}


def test_pair_round_matches_brute_force_on_eleven_and_twelve() -> None:
    rng = random.Random(11)
    for k in range(16):
        field, played, record, order = random_case(rng, 11 + k % 2)
        result = pair_round(field, played, seed=k, order=order, record=record)
        mine = objective(field, played, record, list(result.pairings), result.bye)
        assert mine == brute_force(field, played, record)


def test_window_repair_never_claims_a_wrong_optimum(monkeypatch: pytest.MonkeyPatch) -> None:
    # Force the large-field path (windows instead of the complete graph) on small fields:
    # it may miss the optimum, but whenever it says "optimal" it must be right.
    monkeypatch.setattr(swiss, "EXACT_LIMIT", 0)
    counts = run_oracle(cases=200, seed=7, max_n=10)
    assert counts["proved_wrong"] == 0
    assert counts["agree"] >= counts["proved"]


@pytest.mark.slow
def test_pair_round_matches_brute_force_thousands() -> None:
    counts = run_oracle(cases=3000, seed=99, max_n=12)
    assert counts["agree"] == counts["cases"] == counts["proved"] == 3000


@pytest.mark.slow
def test_window_repair_never_claims_a_wrong_optimum_thousands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(swiss, "EXACT_LIMIT", 0)
    counts = run_oracle(cases=2000, seed=123, max_n=12)
    assert counts["proved_wrong"] == 0
