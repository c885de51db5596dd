"""``tourney simulate --pools P --qualifiers K``: 32 players in 8 pools of 4, the top 2
of each into a 16-player knockout, the same event from the same seed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.cli import cli

POOLS_32 = ["--players", "32", "--pools", "8", "--qualifiers", "2", "--match-length", "3"]


def run(*args: str) -> Any:
    result = CliRunner().invoke(cli, ["simulate", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def check_invariants(document: Any, pools: int, per_pool: int) -> None:
    """What every pools-into-knockout event must satisfy, whatever the results."""
    stage, knockout = document["flights"]
    players = sorted(p for pool in stage["pools"] for p in pool["players"])
    # Everyone plays in exactly one pool, and plays everyone else in it exactly once.
    assert players == list(range(1, len(players) + 1))
    for pool in stage["pools"]:
        size = len(pool["players"])
        met = {
            frozenset((m["a"], m["b"]))
            for rnd in stage["rounds"]
            for m in rnd
            if m["b"] is not None and m["a"] in pool["players"]
        }
        assert len(met) == size * (size - 1) // 2
    # The qualifiers are exactly the top K of each pool's table, each once.
    expected = sorted(
        row["player"] for pool in stage["pools"] for row in pool["standings"][:per_pool]
    )
    qualified = [q["player"] for q in knockout["qualifiers"]]
    assert sorted(qualified) == expected
    assert len(set(qualified)) == pools * per_pool
    origin = {q["player"]: q["origin"] for q in knockout["qualifiers"]}
    # No first-round match between two players of one pool.
    for m in knockout["rounds"][0]:
        if m["b"] is not None:
            assert origin[m["a"]][0] != origin[m["b"]][0], (origin[m["a"]], origin[m["b"]])
    # Everyone in the knockout is a qualifier; it has one winner.
    assert sorted(row["player"] for row in knockout["standings"]) == sorted(qualified)
    assert [row["rank"] for row in knockout["standings"]].count(1) == 1


def test_simulate_eight_pools_into_a_sixteen_player_knockout() -> None:
    document = run(*POOLS_32, "--seed", "11", "--json")

    stage, knockout = document["flights"]
    assert [f["name"] for f in document["flights"]] == ["pools", "knockout"]
    assert [p["name"] for p in stage["pools"]] == list("ABCDEFGH")
    # Snake seeding by player number: pool A has 1, 16, 17, 32; pool H has 8, 9, 24, 25.
    assert stage["pools"][0]["players"] == [1, 16, 17, 32]
    assert stage["pools"][7]["players"] == [8, 9, 24, 25]
    assert [len(r) for r in stage["rounds"]] == [16, 16, 16]
    assert len(knockout["qualifiers"]) == 16
    assert [len(r) for r in knockout["rounds"]] == [8, 4, 2, 1]
    # Each first-round match is a pool winner against a runner-up of the partner pool.
    pairs = sorted(
        tuple(sorted((origin(knockout, m["a"]), origin(knockout, m["b"]))))
        for m in knockout["rounds"][0]
    )
    assert pairs == [
        ("A1", "B2"),
        ("A2", "B1"),
        ("C1", "D2"),
        ("C2", "D1"),
        ("E1", "F2"),
        ("E2", "F1"),
        ("G1", "H2"),
        ("G2", "H1"),
    ]
    check_invariants(document, 8, 2)


def origin(knockout: Any, player: int) -> str:
    return next(q["origin"] for q in knockout["qualifiers"] if q["player"] == player)


def test_simulate_pools_same_seed_same_event() -> None:
    assert run(*POOLS_32, "--seed", "5", "--json") == run(*POOLS_32, "--seed", "5", "--json")


def test_simulate_pools_text_lists_each_pool() -> None:
    result = CliRunner().invoke(cli, ["simulate", *POOLS_32, "--seed", "5"])

    lines = result.output.splitlines()
    assert result.exit_code == 0
    assert lines[:2] == ["seed 5", "pools: 3 rounds"]
    assert [line.split(":")[0] for line in lines[2:10]] == [f"  pool {p}" for p in "ABCDEFGH"]
    assert lines[10].startswith("knockout: 4 rounds; 1. ")


@settings(max_examples=15, deadline=None)
@given(
    st.integers(min_value=2, max_value=8),
    st.integers(min_value=1, max_value=3),
    st.integers(min_value=0, max_value=3),
    st.integers(min_value=0, max_value=2**31 - 1),
)
def test_simulate_pools_invariants_hold_for_any_field(
    pools: int, per_pool: int, extra: int, seed: int
) -> None:
    players = pools * (per_pool + 1) + extra
    document = run(
        "--players", str(players), "--pools", str(pools), "--qualifiers", str(per_pool),
        "--match-length", "1", "--seed", str(seed), "--json",
    )  # fmt: skip

    check_invariants(document, pools, per_pool)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pools", "8", "--qualifiers", "5"], "Pool A has 4 players; 5 cannot qualify from it."),
        (["--pools", "8", "--qualifiers", "0"], "At least one player must qualify from each pool."),
        (["--format", "swiss", "--pools", "8"], "--pools needs --format roundrobin."),
    ],
)
def test_simulate_pools_refuses_what_cannot_be_played(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["simulate", "--players", "32", *args])

    assert (result.exit_code, result.output.strip().splitlines()[-1]) == (2, f"tourney: {message}")


def test_simulate_swiss_top_four_into_a_knockout_seeded_by_place() -> None:
    document = run(
        "--format", "swiss", "--players", "16", "--qualifiers", "4", "--seed", "3", "--json"
    )

    swiss, knockout = document["flights"]
    top = [row["player"] for row in swiss["standings"][:4]]
    assert knockout["qualifiers"] == [
        {"player": top[0], "origin": "Swiss 1st"},
        {"player": top[1], "origin": "Swiss 2nd"},
        {"player": top[2], "origin": "Swiss 3rd"},
        {"player": top[3], "origin": "Swiss 4th"},
    ]
    assert [(m["a"], m["b"]) for m in knockout["rounds"][0]] == [(top[0], top[3]), (top[1], top[2])]
