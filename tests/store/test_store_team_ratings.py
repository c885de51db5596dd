"""Pair consultations in the club's rating list and in ``tourney ratings compute``: both
players of a pair get the board's result."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.exports.event_json import dump_event
from tourney.formats.ratings import compute_ratings
from tourney.store import events, results, teams
from tourney.store.db import transaction
from tourney.store.event_json import export_event
from tourney.store.rating_lists import club_rating_list
from tourney.store.rating_sources import read_event_export
from tourney.store.tables import Event

if TYPE_CHECKING:
    from conftest import BuiltEvent

LEAGUE = {"name": "League", "format": "roundrobin", "match_length": 1, "boards": 2}


def pair_event(engine: Engine, build_event: Callable[..., BuiltEvent]) -> tuple[BuiltEvent, int]:
    """North (Ann & Al on board 1, Amy on board 2) v South (Ben, Bo): the pair beats Ben
    on board 1, Bo beats Amy on board 2."""
    built = build_event([], [LEAGUE])
    actor = built.director.actor
    with transaction(engine) as session:
        club = events.create_club(session, actor=actor, name="Harbour BG").id
        event = session.get(Event, built.event_id)
        assert event is not None
        event.club_id = club
        teams.add_team(
            session,
            actor=actor,
            event_id=built.event_id,
            name="North",
            members=[("Ann", "Al"), ("Amy",)],
            seed=1,
        )
        teams.add_team(
            session,
            actor=actor,
            event_id=built.event_id,
            name="South",
            members=[("Ben",), ("Bo",)],
            seed=2,
        )
        teams.draw_team_round(session, actor=actor, flight_id=built.flights["League"], seed=1)
    with Session(engine) as session:
        fixture = teams.team_flight_view(session, built.flights["League"]).rounds[0].fixtures[0]
    north_is_a = fixture.a == "North"
    for board, north_wins in zip(fixture.boards, (True, False), strict=True):
        a_wins = north_wins == north_is_a
        with transaction(engine) as session:
            results.record_final_score(
                session,
                actor=actor,
                match_id=board.match_id,
                score_a=int(a_wins),
                score_b=int(not a_wins),
            )
    return built, club


def test_both_players_of_a_pair_get_the_result_on_the_club_list(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    _, club = pair_event(engine, build_event)

    with Session(engine) as session:
        rows = club_rating_list(session, club).rows

    # Board 1 counts as Ann v Ben, then Al v Ben (Ben rated twice); board 2 Bo v Amy.
    # Ann v Ben at 1500 each, 1 point: P = 1/2, K = 5: Ann 1510, Ben 1490.
    # Al (1500) v Ben (1490, experience 1): P_upset = 1 / (10^(10/2000) + 1) = 0.497122;
    # Al gains 4 * 5 * 0.497122 = 9.94; Ben loses 4 * 4.99 * 0.497122 = 9.92.
    assert [(r.name, round(r.rating, 2), r.matches) for r in rows] == [
        ("Ann", 1510.0, 1),
        ("Bo", 1510.0, 1),
        ("Al", 1509.94, 1),
        ("Amy", 1490.0, 1),
        ("Ben", 1480.08, 2),
    ]


def test_ratings_compute_reads_a_pair_from_an_event_export(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = pair_event(engine, build_event)
    with Session(engine) as session:
        data = dump_event(export_event(session, built.event_id))

    rated = read_event_export("league.json", data)

    assert sorted((m.player_a, m.player_b, m.winner) for m in rated) == [
        ("Al", "Ben", "Al"),
        ("Amy", "Bo", "Bo"),
        ("Ann", "Ben", "Ann"),
    ]
    assert {r.player: r.matches for r in compute_ratings(rated)} == {
        "Al": 1,
        "Amy": 1,
        "Ann": 1,
        "Ben": 2,
        "Bo": 1,
    }
