"""Event JSON carries stage links: a round robin's pools, a knockout's qualifying stage
with K and the director's choice at a tied cut; the imported event draws the same
knockout from its qualifiers."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest
from event_json_builders import exported
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.exports.event_json import parse_event_json
from tourney.store import draws, results, schema
from tourney.store.audit import Actor
from tourney.store.db import make_engine, transaction
from tourney.store.event_json import import_event
from tourney.store.tables import Flight
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

POOLS = {"name": "Pools", "format": "roundrobin", "match_length": 1, "pools": 2}
KNOCKOUT = {
    "name": "Knockout",
    "format": "knockout",
    "match_length": 3,
    "qualifies_from": "Pools",
    "qualifiers": 2,
    "cut_ties": "director",
}
# P1, P4 and P5 of pool A end on two wins each: a three-way tie for two places.
UPSETS = {("P1", "P4"), ("P4", "P5")}


@pytest.fixture
def target(empty_database_url: str) -> Iterator[Engine]:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    yield engine
    engine.dispose()


def play_pools(engine: Engine, actor: Actor, flight_id: int) -> None:
    with transaction(engine) as session:
        draws.draw_flight(session, actor=actor, flight_id=flight_id, seed=3)
        draws.publish_flight(session, actor=actor, flight_id=flight_id)
    with Session(engine) as session:
        rounds = flight_board(session, actor, flight_id).rounds
    for rnd in rounds:
        for m in rnd.matches:
            if m.a is None or m.b is None:
                continue
            a_wins = int(m.a.name[1:]) < int(m.b.name[1:])
            if (m.a.name, m.b.name) in UPSETS or (m.b.name, m.a.name) in UPSETS:
                a_wins = not a_wins
            with transaction(engine) as session:
                results.record_final_score(
                    session,
                    actor=actor,
                    match_id=m.id,
                    score_a=int(a_wins),
                    score_b=int(not a_wins),
                )


def first_round(engine: Engine, actor: Actor, flight_id: int) -> list[tuple[str, str]]:
    with Session(engine) as session:
        matches = flight_board(session, actor, flight_id).rounds[0].matches
    return [
        (f"{m.a.origin} {m.a.name}" if m.a else "", f"{m.b.origin} {m.b.name}" if m.b else "")
        for m in matches
    ]


def test_event_json_stage_link_and_cut_choice_round_trip(
    engine: Engine, target: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([f"P{n}" for n in range(1, 9)], [POOLS, KNOCKOUT])
    actor = built.director.actor
    play_pools(engine, actor, built.flights["Pools"])
    with Session(engine) as session:
        tie = flight_board(session, actor, built.flights["Knockout"]).cut_ties[0]
    pick = {name: fe_id for fe_id, name in tie.players}
    with transaction(engine) as session:
        draws.decide_cut(
            session,
            actor=actor,
            flight_id=built.flights["Knockout"],
            picks=[pick["P4"], pick["P5"]],
        )
    first = exported(engine, built.event_id)

    with transaction(target) as session:
        new_event = import_event(session, parse_event_json(first)).event_id
    again = exported(target, new_event)
    with Session(target) as session:
        knockout = session.exec(
            select(Flight).where(Flight.event_id == new_event, Flight.name == "Knockout")
        ).one()
    importer = Actor.cli()
    with transaction(target) as session:
        draws.draw_flight(session, actor=importer, flight_id=knockout.id or 0, seed=1)

    flights = json.loads(first)["tables"]["flights"]
    assert again == first
    assert [
        (f["name"], f["pools"], f["qualifies_from_id"], f["qualifiers"], f["cut_ties"])
        for f in flights
    ] == [
        ("Pools", 2, None, None, "tiebreaks"),
        ("Knockout", None, "flights/1", 2, "director"),
    ]
    assert len(flights[1]["cut_picks"]) == 2
    assert first_round(target, importer, knockout.id or 0) == [
        ("A1 P4", "B2 P3"),
        ("B1 P2", "A2 P5"),
    ]
