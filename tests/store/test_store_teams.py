"""Team events in the store: teams in board order, fixtures of ordinary board matches,
a fixture decided on boards or board points, team standings, pairs, line-ups."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.store import draws, results, teams
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.teams import FixtureView, TeamFlightView
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

Build = Callable[..., "BuiltEvent"]

SQUADS = {
    "Alpha": ["Ann", "Al", "Amy"],
    "Bravo": ["Ben", "Bo", "Bea"],
    "Charlie": ["Cy", "Cal", "Cat"],
    "Delta": ["Dan", "Di", "Dot"],
}


def team_event(
    build_event: Build,
    engine: Engine,
    squads: dict[str, list[str]],
    *,
    boards: int = 3,
    event_format: str = "roundrobin",
    match_length: int = 1,
    **flight: object,
) -> BuiltEvent:
    # Two single players entered first: entry ids and the team flight's flight entry ids
    # then differ, as they do in a real event.
    built = build_event(
        ["Solo One", "Solo Two"],
        [
            {
                "name": "Teams",
                "format": event_format,
                "match_length": match_length,
                "boards": boards,
                **flight,
            }
        ],
    )
    with transaction(engine) as session:
        for seed, (name, members) in enumerate(squads.items(), start=1):
            teams.add_team(
                session,
                actor=built.director.actor,
                event_id=built.event_id,
                name=name,
                members=[tuple(m.split(" & ")) for m in members],
                seed=seed,
            )
    return built


def draw_round(engine: Engine, built: BuiltEvent) -> int:
    with transaction(engine) as session:
        return teams.draw_team_round(
            session, actor=built.director.actor, flight_id=built.flights["Teams"], seed=3
        )


def view(engine: Engine, built: BuiltEvent) -> TeamFlightView:
    with Session(engine) as session:
        return teams.team_flight_view(session, built.flights["Teams"])


def fixture_of(engine: Engine, built: BuiltEvent, a: str, b: str) -> FixtureView:
    found = [f for rnd in view(engine, built).rounds for f in rnd.fixtures if {f.a, f.b} == {a, b}]
    assert len(found) == 1
    return found[0]


def enter_boards(
    engine: Engine, built: BuiltEvent, fixture: FixtureView, scores: list[str]
) -> None:
    """Final scores board by board, written from team a's side as ``"5-3"``."""
    for board, score in zip(fixture.boards, scores, strict=True):
        a, b = (int(x) for x in score.split("-"))
        with transaction(engine) as session:
            results.record_final_score(
                session, actor=built.director.actor, match_id=board.match_id, score_a=a, score_b=b
            )


def test_team_lists_its_players_in_board_order(build_event: Build, engine: Engine) -> None:
    built = team_event(build_event, engine, {"Alpha": ["Ann", "Al & Amy", "Ada"]})

    with Session(engine) as session:
        (alpha,) = teams.team_views(session, built.event_id)

    assert [(m.board, m.name) for m in alpha.members] == [
        (1, "Ann"),
        (2, "Al & Amy"),
        (3, "Ada"),
    ]
    assert len(alpha.members[1].player_ids) == 2


def test_fixture_has_one_board_match_per_board_in_board_order(
    build_event: Build, engine: Engine
) -> None:
    built = team_event(build_event, engine, {"Alpha": SQUADS["Alpha"], "Bravo": SQUADS["Bravo"]})

    draw_round(engine, built)

    fixture = fixture_of(engine, built, "Alpha", "Bravo")
    pairs = [(board.board, {board.a, board.b}) for board in fixture.boards]
    assert pairs == [(1, {"Ann", "Ben"}), (2, {"Al", "Bo"}), (3, {"Amy", "Bea"})]
    assert fixture.score == "0–0"
    assert fixture.status == "ready"


def test_two_boards_to_one_wins_the_fixture(build_event: Build, engine: Engine) -> None:
    built = team_event(
        build_event,
        engine,
        {"Alpha": SQUADS["Alpha"], "Bravo": SQUADS["Bravo"]},
        match_length=5,
    )
    draw_round(engine, built)
    fixture = fixture_of(engine, built, "Alpha", "Bravo")
    # Written from the fixture's team a: a wins boards 1 and 3 narrowly, loses board 2
    # heavily; 2-1 on boards wins although b has more board points (5+0+5 v 4+5+4).
    enter_boards(engine, built, fixture, ["5-4", "0-5", "5-4"])

    done = fixture_of(engine, built, "Alpha", "Bravo")

    assert done.score == "2–1"
    assert done.winner == fixture.a
    assert done.decided_by == "on boards"
    assert done.status == "finished"
    assert [board.score for board in done.boards] == ["5–4", "0–5", "5–4"]


def test_two_boards_all_is_decided_by_board_points(build_event: Build, engine: Engine) -> None:
    squads = {"Alpha": [*SQUADS["Alpha"], "Ada"], "Bravo": [*SQUADS["Bravo"], "Bill"]}
    built = team_event(build_event, engine, squads, boards=4, match_length=5)
    draw_round(engine, built)
    fixture = fixture_of(engine, built, "Alpha", "Bravo")
    # a: 5 + 5 + 3 + 1 = 14 board points; b: 2 + 4 + 5 + 5 = 16: b wins 2-2 on points.
    enter_boards(engine, built, fixture, ["5-2", "5-4", "3-5", "1-5"])

    done = fixture_of(engine, built, "Alpha", "Bravo")

    assert done.score == "2–2 (14–16)"
    assert done.winner == fixture.b
    assert done.decided_by == "on board points"


def test_fixture_stays_open_until_every_board_is_played(build_event: Build, engine: Engine) -> None:
    built = team_event(build_event, engine, {"Alpha": SQUADS["Alpha"], "Bravo": SQUADS["Bravo"]})
    draw_round(engine, built)
    fixture = fixture_of(engine, built, "Alpha", "Bravo")
    first_two = fixture.boards[:2]
    for board in first_two:
        with transaction(engine) as session:
            results.record_final_score(
                session, actor=built.director.actor, match_id=board.match_id, score_a=1, score_b=0
            )

    shown = fixture_of(engine, built, "Alpha", "Bravo")

    assert shown.score == "2–0"
    assert shown.winner is None
    assert shown.status == "playing"


def test_board_is_an_ordinary_match_entered_game_by_game(
    build_event: Build, engine: Engine
) -> None:
    built = team_event(
        build_event,
        engine,
        {"Alpha": SQUADS["Alpha"], "Bravo": SQUADS["Bravo"]},
        match_length=3,
    )
    draw_round(engine, built)
    board = fixture_of(engine, built, "Alpha", "Bravo").boards[0]
    actor = built.director.actor

    with transaction(engine) as session:
        results.record_game(
            session,
            actor=actor,
            match_id=board.match_id,
            game=results.GameFields("a", "played", 1, "gammon"),
        )
    with transaction(engine) as session:
        results.record_game(
            session,
            actor=actor,
            match_id=board.match_id,
            game=results.GameFields("a", "resigned", 1, "single"),
        )

    shown = fixture_of(engine, built, "Alpha", "Bravo").boards[0]
    assert shown.score == "3–0"
    assert shown.winner == "a"


def test_standings_count_fixture_wins_then_board_wins(build_event: Build, engine: Engine) -> None:
    # Round robin of four, 3 boards of 1 point (board points = boards won).
    outcome = {
        frozenset({"Alpha", "Bravo"}): ("Alpha", 2),
        frozenset({"Alpha", "Charlie"}): ("Charlie", 3),
        frozenset({"Alpha", "Delta"}): ("Alpha", 3),
        frozenset({"Bravo", "Charlie"}): ("Bravo", 2),
        frozenset({"Bravo", "Delta"}): ("Bravo", 3),
        frozenset({"Charlie", "Delta"}): ("Delta", 2),
    }
    built = team_event(build_event, engine, SQUADS)
    for _ in range(3):
        draw_round(engine, built)
        for fixture in view(engine, built).rounds[-1].fixtures:
            assert fixture.b is not None
            winner, boards = outcome[frozenset({fixture.a, fixture.b})]
            won = "1-0" if winner == fixture.a else "0-1"
            lost = "0-1" if winner == fixture.a else "1-0"
            enter_boards(engine, built, fixture, [won] * boards + [lost] * (3 - boards))

    table = view(engine, built)

    # Fixture wins: Alpha 2, Bravo 2, Charlie 1, Delta 1.
    # Board wins: Alpha 2+0+3 = 5, Bravo 1+2+3 = 6, Charlie 3+1+1 = 5, Delta 0+0+2 = 2.
    # Bravo is ahead of Alpha on board wins although Alpha beat Bravo.
    assert [
        (row.display_rank, row.team, row.fixture_wins, row.board_wins) for row in table.standings
    ] == [
        ("1", "Bravo", 2, 6),
        ("2", "Alpha", 2, 5),
        ("3", "Charlie", 1, 5),
        ("4", "Delta", 1, 2),
    ]
    assert table.status == "finished"
    assert table.next_round == "Every team has met every other: the round robin is over."


def test_next_round_waits_for_every_fixture(build_event: Build, engine: Engine) -> None:
    built = team_event(build_event, engine, SQUADS, event_format="swiss", swiss_rounds=2)
    draw_round(engine, built)

    with pytest.raises(StoreUserError, match="Round 1 is still being played"):
        draw_round(engine, built)


def test_lives_swiss_ends_when_one_team_has_lives_left(build_event: Build, engine: Engine) -> None:
    built = team_event(build_event, engine, SQUADS, event_format="swiss", swiss_lives=1)
    for _ in range(2):
        draw_round(engine, built)
        for fixture in view(engine, built).rounds[-1].fixtures:
            enter_boards(engine, built, fixture, ["1-0", "1-0", "0-1"])

    table = view(engine, built)

    assert [len(rnd.fixtures) for rnd in table.rounds] == [2, 1]
    assert table.status == "finished"
    assert table.next_round == "Only one team has lives left: the Swiss is over."
    assert [row.fixture_wins for row in table.standings] == [2, 1, 0, 0]


def test_knockout_of_three_teams_gives_the_top_seed_a_bye(
    build_event: Build, engine: Engine
) -> None:
    three = {name: SQUADS[name] for name in ("Alpha", "Bravo", "Charlie")}
    built = team_event(build_event, engine, three, event_format="knockout", draw_method="seeded")

    draw_round(engine, built)

    (first,) = view(engine, built).rounds
    assert first.name == "Semifinal"
    assert sorted((f.a, f.b or "bye") for f in first.fixtures) == [
        ("Alpha", "bye"),
        ("Bravo", "Charlie"),
    ]


def test_knockout_winner_goes_on_to_the_final(build_event: Build, engine: Engine) -> None:
    three = {name: SQUADS[name] for name in ("Alpha", "Bravo", "Charlie")}
    built = team_event(build_event, engine, three, event_format="knockout", draw_method="seeded")
    draw_round(engine, built)
    semi = fixture_of(engine, built, "Bravo", "Charlie")
    # Charlie wins two boards of three.
    scores = ["0-1", "0-1", "1-0"] if semi.a == "Bravo" else ["1-0", "1-0", "0-1"]
    enter_boards(engine, built, semi, scores)

    draw_round(engine, built)

    final = view(engine, built).rounds[1]
    assert final.name == "Final"
    assert [{f.a, f.b} for f in final.fixtures] == [{"Alpha", "Charlie"}]


def test_team_refusals_name_the_problem(build_event: Build, engine: Engine) -> None:
    built = team_event(build_event, engine, {"Alpha": SQUADS["Alpha"]})
    actor = built.director.actor

    def add(name: str, members: list[str]) -> str:
        with pytest.raises(StoreUserError) as caught, transaction(engine) as session:
            teams.add_team(
                session,
                actor=actor,
                event_id=built.event_id,
                name=name,
                members=[tuple(m.split(" & ")) for m in members],
            )
        return str(caught.value)

    assert add("Solo", ["Sam"]) == "Team 'Solo' has 1 player(s); a team needs 2 to 7."
    assert add("Alpha", ["Sam", "Sue"]) == "The event has a team called 'Alpha'."
    assert add("Echo", ["Ann", "Eve"]) == "Ann plays for Alpha already."
    assert add("Echo", ["Eve", "Eve"]) == "Eve is in the team twice."
    assert add("Echo", ["Eve & Ed & Em", "Eli"]) == (
        "Each line is one player, or a pair as “Ann Lee & Bob Ray”."
    )
    assert add("", ["Eve", "Eli"]) == "Enter the team's name."


def test_team_flight_refuses_the_single_player_draw(build_event: Build, engine: Engine) -> None:
    built = team_event(build_event, engine, {"Alpha": SQUADS["Alpha"], "Bravo": SQUADS["Bravo"]})

    with pytest.raises(StoreUserError) as caught, transaction(engine) as session:
        draws.draw_flight(session, actor=built.director.actor, flight_id=built.flights["Teams"])

    assert str(caught.value) == (
        "“Teams” is a team flight: draw its rounds of fixtures on its fixtures page."
    )


def test_team_short_of_players_for_the_boards_is_named(build_event: Build, engine: Engine) -> None:
    built = team_event(
        build_event, engine, {"Alpha": SQUADS["Alpha"], "Bravo": ["Ben", "Bo"]}, boards=3
    )

    with pytest.raises(StoreUserError) as caught:
        draw_round(engine, built)

    assert str(caught.value) == (
        "Every team needs at least 3 players for 3 boards: Bravo has fewer."
    )


def test_pair_plays_one_board_as_one_side(build_event: Build, engine: Engine) -> None:
    built = team_event(
        build_event,
        engine,
        {"Alpha": ["Ann & Al", "Amy"], "Bravo": ["Ben", "Bo & Bea"]},
        boards=2,
    )
    draw_round(engine, built)

    fixture = fixture_of(engine, built, "Alpha", "Bravo")
    with Session(engine) as session:
        (rnd,) = flight_board(session, built.director.actor, built.flights["Teams"]).rounds
    # The board matches are ordinary matches: the flight page names the pair too.
    on_flight_page = [{m.a.name, m.b.name} for m in rnd.matches if m.a and m.b]

    assert [{b.a, b.b} for b in fixture.boards] == [{"Ann & Al", "Ben"}, {"Amy", "Bo & Bea"}]
    assert on_flight_page == [{"Ann & Al", "Ben"}, {"Amy", "Bo & Bea"}]


def test_per_fixture_line_up_puts_the_named_players_on_the_boards(
    build_event: Build, engine: Engine
) -> None:
    squads = {"Alpha": [*SQUADS["Alpha"], "Ada"], "Bravo": SQUADS["Bravo"]}
    built = build_event(
        [],
        [{"name": "Teams", "format": "roundrobin", "match_length": 1, "boards": 3}],
        board_order="per_fixture",
    )
    with transaction(engine) as session:
        for name, members in squads.items():
            teams.add_team(
                session,
                actor=built.director.actor,
                event_id=built.event_id,
                name=name,
                members=[(m,) for m in members],
            )
    draw_round(engine, built)
    fixture = fixture_of(engine, built, "Alpha", "Bravo")
    side = "a" if fixture.a == "Alpha" else "b"
    with Session(engine) as session:
        (alpha, _) = teams.team_views(session, built.event_id)
    by_name = {m.name: m.entry_id for m in alpha.members}

    with transaction(engine) as session:
        teams.set_lineup(
            session,
            actor=built.director.actor,
            fixture_id=fixture.id,
            side=side,
            entry_ids=[by_name["Ada"], by_name["Ann"], by_name["Al"]],
        )

    shown = fixture_of(engine, built, "Alpha", "Bravo")
    alpha_side = [b.a if side == "a" else b.b for b in shown.boards]
    assert alpha_side == ["Ada", "Ann", "Al"]


def test_round_robin_bye_is_the_round_off(build_event: Build, engine: Engine) -> None:
    # Three teams: each round one fixture and one bye; the better seed wins 3-0.
    seeds = {"Alpha": 1, "Bravo": 2, "Charlie": 3}
    built = team_event(build_event, engine, {name: SQUADS[name] for name in seeds})
    for _ in range(3):
        draw_round(engine, built)
        (fixture,) = [f for f in view(engine, built).rounds[-1].fixtures if f.b is not None]
        assert fixture.b is not None
        a_wins = seeds[fixture.a] < seeds[fixture.b]
        enter_boards(engine, built, fixture, ["1-0" if a_wins else "0-1"] * 3)

    table = view(engine, built)

    assert [len(rnd.fixtures) for rnd in table.rounds] == [2, 2, 2]
    assert [(row.team, row.fixture_wins, row.board_wins) for row in table.standings] == [
        ("Alpha", 2, 6),
        ("Bravo", 1, 3),
        ("Charlie", 0, 0),
    ]


def test_a_pair_consultation_event_is_pairs_on_one_board(
    build_event: Build, engine: Engine
) -> None:
    # Two against two on one board: each team is one pair, the flight has one board.
    # Ann & Al beat Ben & Bo 1-0: the fixture and the standings go to the pair.
    built = team_event(
        build_event, engine, {"Aces": ["Ann & Al"], "Bees": ["Ben & Bo"]}, boards=1
    )
    draw_round(engine, built)
    fixture = fixture_of(engine, built, "Aces", "Bees")
    a_is_aces = fixture.a == "Aces"
    enter_boards(engine, built, fixture, ["1-0" if a_is_aces else "0-1"])

    played = fixture_of(engine, built, "Aces", "Bees")
    assert [{b.a, b.b} for b in played.boards] == [{"Ann & Al", "Ben & Bo"}]
    assert played.winner == "Aces"
    assert [(row.team, row.fixture_wins) for row in view(engine, built).standings] == [
        ("Aces", 1), ("Bees", 0)]
