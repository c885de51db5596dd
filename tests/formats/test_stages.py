"""Stages: pool qualifiers crossed into a knockout, Swiss qualifiers seeded by place, and
the cut under the K-th place with its ties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.formats.errors import FormatUserError
from tourney.formats.model import EntrantId, Standing
from tourney.formats.roundrobin import pools_schedule, split_pools
from tourney.formats.stages import (
    CutTies,
    Qualifier,
    StageLink,
    check_stage_link,
    cut_table,
    pool_label,
    pool_positions,
    swiss_positions,
)


def qualifiers(pools: int, per_pool: int) -> list[list[Qualifier]]:
    """Pool p's place k is entrant 100·p + k (pools from 0, places from 1)."""
    return [
        [Qualifier(EntrantId(100 * p + k), k, p) for k in range(1, per_pool + 1)]
        for p in range(pools)
    ]


def first_round(positions: tuple[EntrantId | None, ...]) -> list[tuple[str, str]]:
    def origin(e: EntrantId | None) -> str:
        return "bye" if e is None else f"{pool_label(e // 100)}{e % 100}"

    return [(origin(positions[i]), origin(positions[i + 1])) for i in range(0, len(positions), 2)]


def test_four_pools_of_two_cross_over_a1_b2_b1_a2() -> None:
    positions = pool_positions(qualifiers(4, 2))

    assert first_round(positions) == [("A1", "B2"), ("D1", "C2"), ("B1", "A2"), ("C1", "D2")]


def test_eight_pools_of_two_pair_partner_pools() -> None:
    positions = pool_positions(qualifiers(8, 2))

    assert sorted(first_round(positions)) == [
        ("A1", "B2"),
        ("B1", "A2"),
        ("C1", "D2"),
        ("D1", "C2"),
        ("E1", "F2"),
        ("F1", "E2"),
        ("G1", "H2"),
        ("H1", "G2"),
    ]


def test_three_pools_of_two_give_the_winners_byes() -> None:
    positions = pool_positions(qualifiers(3, 2))

    assert first_round(positions) == [("A1", "bye"), ("C2", "B2"), ("B1", "bye"), ("C1", "A2")]


def test_one_table_top_four_seeded_by_place() -> None:
    positions = pool_positions(qualifiers(1, 4))

    assert first_round(positions) == [("A1", "A4"), ("A2", "A3")]


def test_swiss_qualifiers_seeded_by_finishing_place() -> None:
    top = [Qualifier(EntrantId(e), place) for place, e in enumerate([7, 3, 9, 1, 4], start=1)]

    positions = swiss_positions(top)

    assert positions == (7, None, 1, 4, 3, None, 9, None)
    assert [q.origin for q in top[:4]] == ["Swiss 1st", "Swiss 2nd", "Swiss 3rd", "Swiss 4th"]


@given(st.integers(min_value=2, max_value=24), st.integers(min_value=1, max_value=5))
def test_pool_placement_everyone_once_no_pool_meets_itself(pools: int, per_pool: int) -> None:
    field = qualifiers(pools, per_pool)

    positions = pool_positions(field)

    placed = [e for e in positions if e is not None]
    assert sorted(placed) == sorted(q.entrant for pool in field for q in pool)
    for a, b in zip(positions[::2], positions[1::2], strict=True):
        if a is not None and b is not None:
            assert a // 100 != b // 100, first_round(positions)


@given(st.integers(min_value=1, max_value=6))
def test_pool_winners_meet_runners_up_of_other_pools(power: int) -> None:
    field = qualifiers(2**power, 2)

    positions = pool_positions(field)

    for a, b in zip(positions[::2], positions[1::2], strict=True):
        assert a is not None and b is not None
        winner, runner_up = (a, b) if a % 100 == 1 else (b, a)
        assert (winner % 100, runner_up % 100) == (1, 2)
        assert winner // 100 != runner_up // 100


@given(st.integers(min_value=2, max_value=80))
def test_a_pool_winner_without_a_bye_meets_another_pools_runner_up(pools: int) -> None:
    positions = pool_positions(qualifiers(pools, 2))

    for a, b in zip(positions[::2], positions[1::2], strict=True):
        if a is not None and b is not None and 1 in (a % 100, b % 100):
            winner, runner_up = (a, b) if a % 100 == 1 else (b, a)
            assert (runner_up % 100, runner_up // 100 != winner // 100) == (2, True)


@given(st.integers(min_value=2, max_value=24), st.integers(min_value=2, max_value=5))
def test_pool_winners_never_meet_in_the_first_round(pools: int, per_pool: int) -> None:
    positions = pool_positions(qualifiers(pools, per_pool))

    for a, b in zip(positions[::2], positions[1::2], strict=True):
        assert not (a is not None and b is not None and a % 100 == 1 and b % 100 == 1)


def table(*rows: tuple[int, int]) -> list[Standing]:
    """Rows of (entrant, rank) best first; a shared rank marks a tie."""
    ranks = [rank for _, rank in rows]
    return [Standing(EntrantId(e), rank, ranks.count(rank) > 1, (("wins", 0),)) for e, rank in rows]


def test_cut_by_tiebreaks_takes_a_shared_place_in_table_order() -> None:
    cut = cut_table(table((5, 1), (6, 2), (7, 2), (8, 4)), 2)

    assert ([q.entrant for q in cut.qualifiers], cut.tie) == ([5, 6], None)


def test_cut_for_the_director_waits_until_enough_are_picked() -> None:
    rows = table((5, 1), (6, 2), (7, 2), (8, 2))

    waiting = cut_table(rows, 2, ties=CutTies.DIRECTOR, pool=1)
    decided = cut_table(rows, 2, ties=CutTies.DIRECTOR, picks={EntrantId(8)}, pool=1)

    assert waiting.tie is not None
    assert ([q.entrant for q in waiting.qualifiers], waiting.tie.tied, waiting.tie.places) == (
        [5],
        (6, 7, 8),
        1,
    )
    assert waiting.tie.where == "Pool B"
    assert ([q.origin for q in decided.qualifiers], decided.tie) == (["B1", "B2"], None)


def test_cut_for_the_director_without_a_tie_needs_no_pick() -> None:
    cut = cut_table(table((5, 1), (6, 2), (7, 3)), 2, ties=CutTies.DIRECTOR)

    assert ([q.entrant for q in cut.qualifiers], cut.tie) == ([5, 6], None)


def test_cut_of_a_pool_smaller_than_k_refused() -> None:
    with pytest.raises(FormatUserError, match=r"^Pool C has 1 player; 2 cannot qualify"):
        cut_table(table((5, 1)), 2, pool=2)


@pytest.mark.parametrize(
    ("link", "message"),
    [
        (StageLink(8, 0), "At least one player must qualify from each pool."),
        (StageLink(1, 1), "1 qualifier cannot make a knockout: at least 2 must qualify."),
    ],
)
def test_stage_link_that_cannot_make_a_knockout_refused(link: StageLink, message: str) -> None:
    with pytest.raises(FormatUserError) as refused:
        check_stage_link(link)

    assert str(refused.value) == message


def test_split_pools_snake_then_schedule_side_by_side() -> None:
    field = [EntrantId(n) for n in range(1, 11)]

    pools = split_pools(field, 3)
    rounds = pools_schedule(pools)

    assert pools == ((1, 6, 7), (2, 5, 8), (3, 4, 9, 10))
    assert len(rounds) == 3
    assert [len(r) for r in rounds] == [2 + 2 + 2, 6, 6]


def test_split_pools_at_random_is_repeatable_from_the_seed() -> None:
    field = [EntrantId(n) for n in range(1, 33)]

    assert split_pools(field, 8, shuffle_seed=5) == split_pools(field, 8, shuffle_seed=5)
    assert sorted(len(p) for p in split_pools(field, 8, shuffle_seed=5)) == [4] * 8


@pytest.mark.parametrize(("index", "label"), [(0, "A"), (7, "H"), (25, "Z"), (26, "AA")])
def test_pool_labels(index: int, label: str) -> None:
    assert pool_label(index) == label
