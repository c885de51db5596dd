"""Whole simulated events and the ``tourney simulate`` command."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.cli import cli
from tourney.formats.simulation import SimulationOptions, simulate, simulate_match
from tourney.match import MatchRules


def run(*args: str) -> Any:
    result = CliRunner().invoke(cli, ["simulate", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_simulate_knockout_with_consolation_and_last_chance() -> None:
    args = ["--format", "knockout", "--players", "37", "--consolation", "--last-chance"]
    document = run(*args, "--seed", "7", "--json")
    assert document["seed"] == 7
    assert [f["name"] for f in document["flights"]] == ["main", "consolation", "last-chance"]
    main = document["flights"][0]
    # 37 players: a bracket of 64, so 6 rounds and 27 byes in round 1.
    assert len(main["rounds"]) == 6
    assert sum(m["b"] is None for m in main["rounds"][0]) == 27
    assert sorted(row["player"] for row in main["standings"]) == list(range(1, 38))
    assert len(main["eliminated_to"]) == 36
    assert run(*args, "--seed", "7", "--json") == document


def test_simulate_lives_swiss() -> None:
    args = ["--format", "swiss", "--players", "101", "--lives", "3", "--seed", "7", "--json"]
    document = run(*args)
    (flight,) = document["flights"]
    assert flight["format"] == "swiss"
    # The event runs until at most one player has lives left.
    assert len(flight["eliminated_to"]) >= 100
    assert run(*args) == document


def test_simulate_without_seed_prints_the_seed_it_used() -> None:
    document = run("--format", "roundrobin", "--players", "5", "--json")
    again = run(
        "--format", "roundrobin", "--players", "5", "--seed", str(document["seed"]), "--json"
    )
    assert again == document


def test_simulate_user_error_exits_2() -> None:
    result = CliRunner().invoke(
        cli, ["simulate", "--format", "swiss", "--players", "8", "--consolation", "--json"]
    )
    assert result.exit_code == 2
    assert "need --format knockout" in result.output


def test_simulate_text_summary() -> None:
    result = CliRunner().invoke(
        cli, ["simulate", "--format", "knockout", "--players", "4", "--seed", "1"]
    )
    assert result.exit_code == 0
    assert result.output.startswith("seed 1\nmain: 2 rounds;")


def test_one_point_match_never_uses_the_cube() -> None:
    for seed in range(50):
        state = simulate_match(MatchRules(1), random.Random(seed))
        assert [g.entry.cube for g in state.games] == [1]
        assert max(state.score) >= 1


def _check_document(document: dict[str, Any], options: SimulationOptions) -> None:
    for flight in document["flights"]:
        seen_out = flight["eliminated_to"]
        assert len(seen_out) == len(set(seen_out))
        for round_ in flight["rounds"]:
            for match in round_:
                if match["b"] is None:
                    assert match["winner"] == match["a"] and match["games"] == []
                    continue
                assert match["winner"] in (match["a"], match["b"])
                # Scores never decrease, and the match ends when its winner reaches N.
                before = [0, 0]
                for game in match["games"]:
                    assert game["score"][0] >= before[0] and game["score"][1] >= before[1]
                    assert sum(game["score"]) - sum(before) == game["points"]
                    if game["kind"] == "crawford" or match["length"] == 1:
                        assert game["cube"] == 1 and game["end"] != "dropped"
                    before = game["score"]
                    if max(before) >= match["length"]:
                        assert game is match["games"][-1]
                winner_side = 0 if match["winner"] == match["a"] else 1
                assert match["score"] == before
                assert match["score"][winner_side] >= match["length"]
                assert match["score"][1 - winner_side] < match["length"]
        ranks = [row["rank"] for row in flight["standings"]]
        assert ranks == sorted(ranks)
    if options.format == "swiss" and options.lives is None:
        rounds = document["flights"][0]["rounds"]
        pairs = [frozenset((m["a"], m["b"])) for r in rounds for m in r if m["b"] is not None]
        if options.players >= 2 * len(rounds):
            assert len(pairs) == len(set(pairs))  # enough players: never a rematch


OPTIONS = st.one_of(
    st.builds(
        SimulationOptions,
        format=st.just("knockout"),
        players=st.integers(2, 40),
        consolation=st.booleans(),
        last_chance=st.booleans(),
        match_length=st.integers(1, 9),
        seed=st.integers(0, 10**6),
    ),
    st.builds(
        SimulationOptions,
        format=st.just("knockout"),
        players=st.integers(2, 40),
        double_elimination=st.just(True),
        match_length=st.integers(1, 7),
        seed=st.integers(0, 10**6),
    ),
    st.builds(
        SimulationOptions,
        format=st.just("swiss"),
        players=st.integers(2, 40),
        lives=st.one_of(st.none(), st.integers(1, 3)),
        match_length=st.integers(1, 7),
        seed=st.integers(0, 10**6),
    ),
    st.builds(
        SimulationOptions,
        format=st.just("roundrobin"),
        players=st.integers(2, 10),
        match_length=st.integers(1, 7),
        seed=st.integers(0, 10**6),
    ),
)


@settings(max_examples=150, deadline=None)
@given(OPTIONS)
def test_simulated_events_are_valid(options: SimulationOptions) -> None:
    _check_document(simulate(options), options)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(OPTIONS)
def test_simulated_events_are_valid_many(options: SimulationOptions) -> None:
    _check_document(simulate(options), options)
