"""The API of a tavli event: the event names its match form, each game its variant, and
a turned cube is refused in the words of the form."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from test_api_token_scopes import _bearer

from tourney.store import draws
from tourney.store.db import transaction

if TYPE_CHECKING:
    from conftest import BuiltEvent


def test_a_tavli_match_through_the_api(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Anna", "Bert"],
                        [{"name": "Main", "format": "knockout", "match_length": 5}],
                        is_public=True, match_form="tavli")
    with transaction(engine) as session:
        actor, main = built.director.actor, built.flights["Main"]
        draws.draw_flight(session, actor=actor, flight_id=main, method="seeded")
        draws.publish_flight(session, actor=actor, flight_id=main)
    headers = _bearer(engine, built, "results desk", "results")
    match_id = client.get(f"/api/v1/events/{built.event_id}/pairings").get_json()
    match_id = match_id["flights"][0]["rounds"][0]["matches"][0]["id"]
    game = {"winner": "a", "end": "played", "cube": 1, "level": "gammon"}

    for _ in range(2):
        version = client.get(f"/api/v1/matches/{match_id}").get_json()["match"]["version"]
        done = client.post(f"/api/v1/matches/{match_id}/games",
                           json={**game, "expected_version": version}, headers=headers)
        assert done.status_code in (200, 201), done.get_json()
    version = client.get(f"/api/v1/matches/{match_id}").get_json()["match"]["version"]
    turned = client.post(f"/api/v1/matches/{match_id}/games",
                         json={**game, "cube": 2, "expected_version": version}, headers=headers)
    event = client.get(f"/api/v1/events/{built.event_id}").get_json()
    match = client.get(f"/api/v1/matches/{match_id}").get_json()

    assert event["match_form"] == "tavli"
    # Portes gammon 2, Plakoto gammon (a mother pin or a gammon) 2: 4-0.
    assert [(g["variant"], g["points"]) for g in match["games"]] == [
        ("portes", 2), ("plakoto", 2)]
    assert match["match"]["score"] == [4, 0]
    assert turned.status_code == 400
    assert "This tavli event is played without the doubling cube" in (
        turned.get_json()["error"]["message"])
