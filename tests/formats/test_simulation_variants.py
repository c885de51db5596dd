"""Simulated events in each variant score their matches by that variant's rules."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.cli import cli
from tourney.formats.errors import FormatUserError
from tourney.formats.simulation import (
    SimulationOptions,
    match_rules,
    simulate,
    simulate_match,
)
from tourney.rules.variants import HYPERGAMMON, LONG_NARDY

VARIANT_NAMES = ("standard", "nackgammon", "hypergammon", "long")


def games(document: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every game of every match of a simulated event."""
    for flight in document["flights"]:
        for round_ in flight["rounds"]:
            for match in round_:
                yield from match["games"]


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["simulate", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_simulate_long_nardy_scores_oin_one_and_mars_two_without_cube():
    options = SimulationOptions("roundrobin", 6, match_length=7, seed=3, variant="long")

    document = simulate(options)
    played = list(games(document))

    assert document["variant"] == "long-nardy"
    assert {(g["level"], g["cube"], g["end"] != "dropped", g["points"]) for g in played} == {
        ("single", 1, True, 1), ("gammon", 1, True, 2)}
    assert {g["kind"] for g in played} == {"normal"}


def test_simulate_hypergammon_scores_every_win_single_times_the_cube():
    options = SimulationOptions("swiss", 8, match_length=5, seed=11, variant="hypergammon")

    played = list(games(simulate(options)))

    assert {g["level"] for g in played if g["end"] != "dropped"} == {"single"}
    assert [g["points"] for g in played] == [g["cube"] for g in played]
    # The cube and the Crawford rule stay in hypergammon.
    assert {g["kind"] for g in played} >= {"crawford"}
    assert max(g["cube"] for g in played) > 1


def test_simulate_nackgammon_scores_exactly_like_standard():
    # Same scoring, same random choices: the same event apart from the variant's name.
    standard = simulate(SimulationOptions("knockout", 9, seed=5))
    nack = simulate(SimulationOptions("knockout", 9, seed=5, variant="nackgammon"))

    assert (standard["variant"], nack["variant"]) == ("standard", "nackgammon")
    assert nack["flights"] == standard["flights"]


def test_simulate_long_nardy_differs_from_standard_for_the_same_seed():
    standard = simulate(SimulationOptions("knockout", 9, seed=5))
    nardy = simulate(SimulationOptions("knockout", 9, seed=5, variant="long"))

    assert nardy["flights"] != standard["flights"]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_simulate_cli_same_seed_same_document(variant: str):
    args = ("--format", "knockout", "--players", "12", "--consolation",
            "--seed", "42", "--variant", variant, "--json")

    first = run(*args)

    assert run(*args) == first
    assert json.loads(first)["variant"] == {"long": "long-nardy"}.get(variant, variant)


def test_simulate_cli_text_names_a_non_standard_variant():
    output = run("--format", "knockout", "--players", "4", "--seed", "1", "--variant", "long")

    assert output.splitlines()[:2] == ["seed 1", "variant long-nardy"]


def test_simulate_cli_refuses_an_unknown_variant():
    result = CliRunner().invoke(cli, ["simulate", "--format", "swiss", "--players", "4",
                                      "--variant", "chess"])

    assert result.exit_code == 2


def test_simulate_refuses_an_unknown_variant_with_a_sentence():
    with pytest.raises(FormatUserError) as caught:
        simulate(SimulationOptions("swiss", 4, variant="chess"))

    message = str(caught.value)
    assert message.startswith("Unknown variant 'chess'; choose one of standard, ")
    offered = message.removeprefix("Unknown variant 'chess'; choose one of ").rstrip(".")
    # Every game a director can simulate is offered; the list grows with the registry.
    assert {"standard", "nackgammon", "hypergammon", "long-nardy", "portes", "plakoto",
            "fevga"} <= set(offered.split(", "))


def test_simulate_match_long_nardy_one_point_match_is_one_game():
    for seed in range(30):
        state = simulate_match(match_rules(1, LONG_NARDY), random.Random(seed))

        assert [g.entry.cube for g in state.games] == [1]


@settings(max_examples=60, deadline=None)
@given(length=st.integers(1, 9), seed=st.integers(0, 10**6),
       variant=st.sampled_from((LONG_NARDY, HYPERGAMMON)))
def test_simulate_match_points_follow_the_variant(length, seed, variant):
    state = simulate_match(match_rules(length, variant), random.Random(seed))

    for game in state.games:
        level_points = 1 if game.entry.level is None else variant.level_points(game.entry.level)
        assert game.points == game.entry.cube * level_points
    assert max(state.score) >= length


def _matches(document: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for flight in document["flights"]:
        for round_ in flight["rounds"]:
            for match in round_:
                if match["games"]:
                    yield match


def test_simulate_tavli_plays_without_the_cube_and_scores_one_or_two_a_game():
    document = simulate(SimulationOptions("swiss", 8, match_length=5, seed=11,
                                          match_form="tavli"))

    played = list(_matches(document))
    assert document["match_form"] == "tavli" and played
    # Portes, Plakoto and Fevga score 1 or 2 a game (a backgammon counts as a gammon),
    # never on a turned cube; the winner ends on 5 or 6 (2 from 4).
    assert {g["cube"] for m in played for g in m["games"]} == {1}
    assert {g["points"] for m in played for g in m["games"]} <= {1, 2}
    assert {max(m["score"]) for m in played} <= {5, 6}


def test_simulate_mixed_match_plays_three_games_and_a_decider_only_on_a_tie():
    document = simulate(SimulationOptions("roundrobin", 6, match_length=3, seed=5,
                                          match_form="mixed"))

    for match in _matches(document):
        games = match["games"]
        after_three = games[2]["score"]
        assert len(games) == (4 if after_three[0] == after_three[1] else 3)


def test_simulate_cli_names_the_match_form_and_refuses_an_unknown_one():
    shown = run("--format", "knockout", "--players", "4", "--seed", "2", "--match-form", "tabla")
    refused = CliRunner().invoke(cli, ["simulate", "--format", "swiss", "--players", "4",
                                       "--match-form", "chouette"])

    assert shown.splitlines()[:2] == ["seed 2", "match form tabla"]
    assert refused.exit_code == 2
    assert "Unknown match form 'chouette'; choose one of single, tavli" in refused.output
