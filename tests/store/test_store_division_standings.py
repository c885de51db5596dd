"""A mixed flight ranked also by division: each division's players in the flight's order,
placed among themselves.

The flight is a round robin of six, so every pair meets and the standings do not depend
on the draw: Open A1, A2, A3 and Novice N1, N2, N3, the player listed first winning each
match except that N3 beats A2. No tiebreaks: equal match wins share a place.

Worked by hand: A1 beats everyone (5 wins); A2 beats A3, N1 and N2 (3); A3 beats N1, N2,
N3 (3); N1 beats N2 and N3 (2); N2 beats N3 (1); N3 beats A2 (1). 15 matches, 15 wins.

    overall  1 A1, =2 A2, =2 A3, 4 N1, =5 N2, =5 N3
    Open     1 A1, =2 A2, =2 A3
    Novice   1 N1, =2 N2, =2 N3      (4 becomes 1, the shared 5 a shared 2)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import divisions, draws, results
from tourney.store.db import transaction
from tourney.store.tables import AuditEntry
from tourney.store.tournament_views import FlightBoard, flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

PLAYERS = ["A1", "A2", "A3", "N1", "N2", "N3"]
DIVISION = {"A1": "Open", "A2": "Open", "A3": "Open",
            "N1": "Novice", "N2": "Novice", "N3": "Novice"}
UPSETS = {frozenset({"N3", "A2"})}
ROUND_ROBIN = {"name": "Mixed", "format": "roundrobin", "match_length": 1}

OVERALL = [("1", "A1"), ("=2", "A2"), ("=2", "A3"), ("4", "N1"), ("=5", "N2"), ("=5", "N3")]
BY_DIVISION = [
    ("Open", [("1", "A1"), ("=2", "A2"), ("=2", "A3")]),
    ("Novice", [("1", "N1"), ("=2", "N2"), ("=2", "N3")]),
]


def build_divided(engine: Engine, build_event: Callable[..., BuiltEvent], *,
                  separately: bool = True) -> BuiltEvent:
    """The round robin above, drawn and played out, ranked by division if ``separately``."""
    built = build_event(PLAYERS, [ROUND_ROBIN])
    actor, flight_id = built.director.actor, built.flights["Mixed"]
    with transaction(engine) as session:
        divisions.set_divisions(session, actor=actor, event_id=built.event_id,
                                text="Open\nNovice")
        divisions.set_entry_divisions(
            session, actor=actor, event_id=built.event_id,
            chosen={built.entries[name]: DIVISION[name] for name in PLAYERS})
        divisions.set_flight_division(session, actor=actor, flight_id=flight_id, division="",
                                      handicap=0, division_standings=separately)
        draws.draw_flight(session, actor=actor, flight_id=flight_id, seed=7)
        draws.publish_flight(session, actor=actor, flight_id=flight_id)
    with Session(engine) as session:
        board = flight_board(session, actor, flight_id)
    for rnd in board.rounds:
        for match in rnd.matches:
            if match.a is None or match.b is None:
                continue
            a_wins = PLAYERS.index(match.a.name) < PLAYERS.index(match.b.name)
            if frozenset({match.a.name, match.b.name}) in UPSETS:
                a_wins = not a_wins
            with transaction(engine) as session:
                results.record_final_score(session, actor=actor, match_id=match.id,
                                           score_a=int(a_wins), score_b=int(not a_wins))
    return built


def board_of(engine: Engine, built: BuiltEvent) -> FlightBoard:
    with Session(engine) as session:
        return flight_board(session, built.director.actor, built.flights["Mixed"])


def test_each_division_is_placed_among_itself_in_the_overall_order(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    board = board_of(engine, build_divided(engine, build_event))

    assert [(r.display_rank, r.player.name) for r in board.standings] == OVERALL
    assert [(t.name, [(r.display_rank, r.player.name) for r in t.rows])
            for t in board.division_tables] == BY_DIVISION


def test_without_the_setting_a_mixed_flight_has_only_its_overall_table(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    board = board_of(engine, build_divided(engine, build_event, separately=False))

    assert [(r.display_rank, r.player.name) for r in board.standings] == OVERALL
    assert board.division_tables == ()


def test_the_setting_is_audited_and_a_one_division_flight_never_keeps_it(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_divided(engine, build_event)
    actor, flight_id = built.director.actor, built.flights["Mixed"]
    with transaction(engine) as session:
        divisions.set_flight_division(session, actor=actor, flight_id=flight_id,
                                      division="Open", handicap=0, division_standings=True)
    with Session(engine) as session:
        page = divisions.divisions_page(session, actor, built.event_id)
        audited = session.exec(select(AuditEntry).where(
            AuditEntry.action == "flight.division")).all()

    assert [(f.division, f.division_standings) for f in page.flights] == [("Open", False)]
    assert [a.after["division_standings"] if a.after else None for a in audited] == [
        True, False]

