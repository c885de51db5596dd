"""The score sheet prints the flight's clock: time per player from the match length."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from exports_builders import pdf_text
from sqlalchemy.engine import Engine

from tourney.exports.pdf import render_scoresheets_pdf
from tourney.store import draws
from tourney.store.db import read_session, transaction
from tourney.store.event_documents import event_document

if TYPE_CHECKING:
    from conftest import BuiltEvent


def test_score_sheets_print_each_flights_clock(
    engine: Engine, build_event: Callable[..., BuiltEvent], tmp_path: Path
) -> None:
    """Main to 7 on the default clock: 7 x 2 min = 14 min each, 12 s delay. The side
    flight to 5 on 1.5 minutes a point and a 10 s delay: 7.5 min each."""
    built = build_event(
        ["Ann", "Bob"],
        [
            {"name": "Main", "format": "knockout", "match_length": 7},
            {
                "name": "Side",
                "format": "roundrobin",
                "match_length": 5,
                "clock_seconds_per_point": 90,
                "clock_delay_seconds": 10,
            },
        ],
    )
    actor = built.director.actor
    with transaction(engine) as session:
        for flight in ("Main", "Side"):
            draws.make_draw(session, actor=actor, flight_id=built.flights[flight])
    with read_session(engine) as session:
        doc = event_document(session, str(built.event_id))

    text = " ".join(pdf_text(render_scoresheets_pdf(doc).content, tmp_path).split())

    assert "Clock: 14 min each + 12 s delay a move" in text
    assert "Clock: 7.5 min each + 10 s delay a move" in text
