"""The director's flight and entry pages on a club night: check-in before the draw,
withdrawal with its consequences."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.store import services
from tourney.store.db import transaction

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"
MAIN = {"name": "Main", "format": "knockout", "match_length": 3}


def log_in(client: FlaskClient, built: BuiltEvent) -> None:
    response = client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    assert response.status_code == 302


def test_flight_page_names_the_players_a_draw_would_leave_out(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob", "Cy", "Di"], [MAIN])
    with transaction(engine) as session:
        for name in ("Ann", "Cy"):
            services.check_in(session, actor=built.director.actor, entry_id=built.entries[name])
    log_in(client, built)

    page = client.get(f"/director/flights/{built.flights['Main']}").get_data(as_text=True)

    assert "Not checked in, left out of the draw: Bob, Di" in page
