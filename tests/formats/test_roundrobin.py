"""Round-robin schedules and pools."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.formats.errors import FormatUserError
from tourney.formats.model import Bye, EntrantId, Pairing
from tourney.formats.roundrobin import berger_schedule, snake_pools


def ids(n: int) -> list[EntrantId]:
    return [EntrantId(i) for i in range(1, n + 1)]


def as_pairs(rounds: object) -> list[list[tuple[int, int] | int]]:
    return [
        [(p.a, p.b) if isinstance(p, Pairing) else p.entrant for p in round_]  # type: ignore[attr-defined]
        for round_ in rounds  # type: ignore[attr-defined]
    ]


def test_berger_table_for_four_matches_the_published_one() -> None:
    # The published Berger table for 4: 1-4 2-3 / 4-3 1-2 / 2-4 3-1.
    assert as_pairs(berger_schedule(ids(4))) == [
        [(1, 4), (2, 3)],
        [(4, 3), (1, 2)],
        [(2, 4), (3, 1)],
    ]


def test_berger_table_for_six_matches_the_published_one() -> None:
    assert as_pairs(berger_schedule(ids(6))) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_odd_field_gives_one_bye_per_round() -> None:
    # 3 players: the table for 4 with player 4 missing; whoever meets 4 has the bye.
    assert as_pairs(berger_schedule(ids(3))) == [[1, (2, 3)], [3, (1, 2)], [2, (3, 1)]]


@given(st.integers(2, 24))
def test_everyone_meets_everyone_exactly_once(n: int) -> None:
    rounds = berger_schedule(ids(n))
    assert len(rounds) == (n if n % 2 else n - 1)
    met = [frozenset((p.a, p.b)) for r in rounds for p in r if isinstance(p, Pairing)]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(c) for c in itertools.combinations(ids(n), 2)), key=sorted
    )
    for r in rounds:
        seen = [x for p in r for x in ((p.a, p.b) if isinstance(p, Pairing) else (p.entrant,))]
        assert sorted(seen) == ids(n)
        assert sum(isinstance(p, Bye) for p in r) == n % 2


def test_round_robin_needs_two_players() -> None:
    with pytest.raises(FormatUserError, match="at least 2"):
        berger_schedule(ids(1))


def test_snake_pools() -> None:
    # 8 players, 3 pools: 1 2 3 | 6 5 4 | 7 8 -> pools (1,6,7) (2,5,8) (3,4).
    assert snake_pools(ids(8), 3) == ((1, 6, 7), (2, 5, 8), (3, 4))
