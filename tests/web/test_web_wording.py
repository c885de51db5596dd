"""Numbers read as words do: a round of 1-point matches says "1 point", not "1 points"."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.store import draws
from tourney.store.db import transaction

if TYPE_CHECKING:
    from conftest import BuiltEvent


def test_a_round_of_one_point_matches_says_one_point(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob", "Cid", "Dee"],
                        [{"name": "Main", "format": "swiss", "match_length": 1, "swiss_rounds": 2}],
                        is_public=True, slug="short-night")
    main = built.flights["Main"]
    with transaction(engine) as session:
        draws.draw_flight(session, actor=built.director.actor, flight_id=main, seed=1)
        draws.publish_flight(session, actor=built.director.actor, flight_id=main)
    client.post("/login", data={"email": built.director.email,
                                "password": "correct horse battery staple"})

    staff = client.get(f"/director/flights/{main}").get_data(as_text=True)
    public = client.get(f"/events/short-night/flights/{main}").get_data(as_text=True)

    assert "<small>1 point</small>" in staff and "1 points" not in staff
    assert "to 1 point ·" in public and "1 points" not in public
