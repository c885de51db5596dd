"""``tourney simulate --teams N --boards K``: every fixture has K boards and goes to the
team that won the majority of them (board points, then the top board, on a level count)."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.cli import cli


def run(*args: str) -> Any:
    result = CliRunner().invoke(cli, ["simulate", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def check_fixture(fixture: Any, boards: int) -> None:
    """One fixture: K boards numbered 1..K, each a finished match, the winner right."""
    assert [board["board"] for board in fixture["boards"]] == list(range(1, boards + 1))
    won_a = 0
    points = [0, 0]
    for board in fixture["boards"]:
        a, b = board["score"]
        length = board["length"]
        # A board is an ordinary finished match: exactly one side reached the length.
        assert (a >= length) != (b >= length)
        assert board["winner"] == ("a" if a >= length else "b")
        assert board["a"] == f"{fixture['a']}.{board['board']}"
        assert board["b"] == f"{fixture['b']}.{board['board']}"
        won_a += board["winner"] == "a"
        points[0] += min(a, length)
        points[1] += min(b, length)
    won = [won_a, boards - won_a]
    assert fixture["score"] == won
    assert fixture["board_points"] == points
    a_won = fixture["winner"] == fixture["a"]
    if won[0] != won[1]:
        assert a_won == (won[0] > won[1])
        assert max(won) > boards // 2
        assert fixture["decided_by"] == "boards"
    elif points[0] != points[1]:
        assert a_won == (points[0] > points[1])
        assert fixture["decided_by"] == "board_points"
    else:
        assert a_won == (fixture["boards"][0]["winner"] == "a")
        assert fixture["decided_by"] == "top_board"


def fixtures(document: Any) -> list[Any]:
    return [f for rnd in document["flights"][0]["rounds"] for f in rnd if f["b"] is not None]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), lives=st.integers(1, 3))
def test_twelve_team_lives_swiss_fixtures_have_three_boards_and_a_majority_winner(
    seed: int, lives: int
) -> None:
    document = run(
        "--teams", "12", "--boards", "3", "--format", "swiss", "--lives", str(lives),
        "--match-length", "3", "--seed", str(seed), "--json",
    )  # fmt: skip

    flight = document["flights"][0]
    losses = dict.fromkeys(range(1, 13), 0)
    for rnd in flight["rounds"]:
        # Nobody plays once out of lives, and each team plays at most once a round.
        sides = [team for f in rnd for team in (f["a"], f["b"]) if team is not None]
        assert len(sides) == len(set(sides))
        assert all(losses[team] < lives for team in sides)
        for fixture in rnd:
            if fixture["b"] is None:
                assert fixture["boards"] == []
                continue
            check_fixture(fixture, 3)
            loser = fixture["b"] if fixture["winner"] == fixture["a"] else fixture["a"]
            losses[loser] += 1
    # The Swiss ends when at most one team has lives left; the out teams are listed.
    assert sum(1 for team in losses if losses[team] < lives) <= 1
    assert sorted(int(t) for t in flight["eliminated_to"]) == [
        team for team in losses if losses[team] >= lives
    ]
    ranks = [row["rank"] for row in flight["standings"]]
    assert sorted(row["team"] for row in flight["standings"]) == list(range(1, 13))
    assert ranks == sorted(ranks)


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    boards=st.integers(1, 7),
    event_format=st.sampled_from(["swiss", "knockout", "roundrobin"]),
)
def test_every_fixture_of_any_format_has_its_boards_and_a_rightful_winner(
    seed: int, boards: int, event_format: str
) -> None:
    document = run(
        "--teams", "6", "--boards", str(boards), "--format", event_format,
        "--match-length", "1", "--seed", str(seed), "--json",
    )  # fmt: skip

    played = fixtures(document)
    assert played
    for fixture in played:
        check_fixture(fixture, boards)


def test_even_board_count_can_be_decided_on_board_points() -> None:
    # 8 teams, 2 boards of 3 points, round robin: 28 fixtures, some 1-1.
    document = run(
        "--teams", "8", "--boards", "2", "--format", "roundrobin",
        "--match-length", "3", "--seed", "5", "--json",
    )  # fmt: skip

    decided = {f["decided_by"] for f in fixtures(document)}
    assert len(fixtures(document)) == 28
    assert "board_points" in decided
    for fixture in fixtures(document):
        check_fixture(fixture, 2)


def test_team_standings_rank_fixture_wins_then_board_wins() -> None:
    document = run("--teams", "6", "--format", "roundrobin", "--seed", "9", "--json")

    rows = document["flights"][0]["standings"]
    keys = [(row["wins"], row["board-wins"]) for row in rows]
    assert keys == sorted(keys, reverse=True)
    # Each of the 15 fixtures gives one fixture win and 3 board wins.
    assert sum(row["wins"] for row in rows) == 15
    assert sum(row["board-wins"] for row in rows) == 45


def test_same_seed_gives_the_same_team_event() -> None:
    args = ("--teams", "7", "--format", "knockout", "--boards", "3", "--seed", "42", "--json")

    assert run(*args) == run(*args)
    assert run(*args)["teams"][0] == {"team": 1, "players": ["1.1", "1.2", "1.3"]}


def test_team_options_that_make_no_event_are_refused() -> None:
    runner = CliRunner()

    too_many = runner.invoke(
        cli, ["simulate", "--teams", "4", "--boards", "8", "--format", "swiss"]
    )
    both = runner.invoke(cli, ["simulate", "--teams", "4", "--players", "4", "--format", "swiss"])
    boards_alone = runner.invoke(
        cli, ["simulate", "--players", "4", "--boards", "3", "--format", "swiss"]
    )

    assert too_many.exit_code == 2
    assert "A fixture has 1 to 7 boards" in too_many.output
    assert both.exit_code == 2
    assert "Give --players or --teams, not both." in both.output
    assert boards_alone.exit_code == 2
    assert "--boards needs --teams." in boards_alone.output
