"""Drawsheets of a knockout drawn from round-robin pools name where each qualifier
finished (``[A1]``, ``[B2]``) where a seeded draw would print the seed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from exports_builders import pdf_text
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.exports.pdf import render_drawsheets_pdf, render_standings_pdf
from tourney.store import draws, results
from tourney.store.db import transaction
from tourney.store.event_documents import event_document
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

FLIGHTS = [
    {"name": "Pools", "format": "roundrobin", "match_length": 1, "pools": 2},
    {
        "name": "Cup",
        "format": "knockout",
        "match_length": 3,
        "qualifies_from": "Pools",
        "qualifiers": 2,
    },
]


def test_drawsheet_of_a_knockout_from_pools_names_each_qualifier_origin(
    engine: Engine, build_event: Callable[..., BuiltEvent], tmp_path: Path
) -> None:
    # Snake seeding: pool A is P1 P4 P5 P8, pool B P2 P3 P6 P7; the better seed wins.
    built = build_event([f"P{n}" for n in range(1, 9)], FLIGHTS)
    actor = built.director.actor
    with transaction(engine) as session:
        draws.draw_flight(session, actor=actor, flight_id=built.flights["Pools"], seed=2)
        draws.publish_flight(session, actor=actor, flight_id=built.flights["Pools"])
    with Session(engine) as session:
        rounds = flight_board(session, actor, built.flights["Pools"]).rounds
    for rnd in rounds:
        for m in rnd.matches:
            assert m.a is not None and m.b is not None
            a_wins = int(m.a.name[1:]) < int(m.b.name[1:])
            with transaction(engine) as session:
                results.record_final_score(
                    session,
                    actor=actor,
                    match_id=m.id,
                    score_a=int(a_wins),
                    score_b=int(not a_wins),
                )
    with transaction(engine) as session:
        draws.draw_flight(session, actor=actor, flight_id=built.flights["Cup"], seed=2)
    with Session(engine) as session:
        document = event_document(session, str(built.event_id))
    data = render_drawsheets_pdf(document).content
    standings = pdf_text(render_standings_pdf(document).content, tmp_path, "standings")

    text = pdf_text(data, tmp_path)

    assert [line.split() for line in text.splitlines() if "[A" in line or "[B" in line] == [
        ["[A1]", "P1"],
        ["[B2]", "P3"],
        ["[B1]", "P2"],
        ["[A2]", "P4"],
    ]
    assert [line.split() for line in standings.splitlines() if " Pool " in line] == [
        ["1", "P1", "3", "Pool", "A,", "qualifies"],
        ["2", "P4", "2", "Pool", "A,", "qualifies"],
        ["3", "P5", "1", "Pool", "A"],
        ["4", "P8", "0", "Pool", "A"],
        ["1", "P2", "3", "Pool", "B,", "qualifies"],
        ["2", "P3", "2", "Pool", "B,", "qualifies"],
        ["3", "P6", "1", "Pool", "B"],
        ["4", "P7", "0", "Pool", "B"],
    ]
