"""Public-page fixtures: the sample events loaded into the test database."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select

from tourney.store.db import read_session, transaction
from tourney.store.demo import load_demo
from tourney.store.passwords import make_hasher
from tourney.store.tables import Event, Flight

SAMPLE_EVENTS = Path(__file__).resolve().parents[2] / "sample_events"


@dataclass(frozen=True)
class Demo:
    """The sample events: ids by slug, and each event's flight ids by name."""

    events: dict[str, int]
    flights: dict[str, dict[str, int]]


@pytest.fixture
def demo(engine: Engine) -> Demo:
    """The sample events (a finished knockout with consolation, a Swiss under way)."""
    with transaction(engine) as session:
        load_demo(session, directory=SAMPLE_EVENTS, hasher=make_hasher("fast"))
    with read_session(engine) as session:
        events = {e.slug: e.id or 0 for e in session.exec(select(Event))}
        flights: dict[str, dict[str, int]] = {}
        for slug, event_id in events.items():
            rows = session.exec(select(Flight).where(Flight.event_id == event_id))
            flights[slug] = {f.name: f.id or 0 for f in rows}
    return Demo(events, flights)
