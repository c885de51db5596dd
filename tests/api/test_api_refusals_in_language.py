"""The API answers a refused change in the language the client asks for (``?lang=`` or
``Accept-Language``), as the pages do; without one, in English as before.

The German sentence is the German core catalogue's own."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from test_api_v1 import _drawn, _token

if TYPE_CHECKING:
    from conftest import BuiltEvent

GERMAN = "Ein Endstand von 1-0 beendet kein Match auf 3 Punkte: ein Spieler muss 3 erreichen."
ENGLISH = "A final score of 1-0 does not finish a 3-point match: one player must reach 3."


def test_a_refused_score_is_answered_in_the_language_asked_for(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    """1-0 does not finish a 3-point match: a player must reach 3."""
    built, match_id = _drawn(engine, build_event)
    auth = _token(engine, built.director)
    body = {"score_a": 1, "score_b": 0}

    # English first: a ``?lang=`` choice is remembered in a cookie for the next requests.
    plain = client.post(f"/api/v1/matches/{match_id}/score", json=body, headers=auth)
    by_header = client.post(f"/api/v1/matches/{match_id}/score", json=body,
                            headers={**auth, "Accept-Language": "de"})
    by_query = client.post(f"/api/v1/matches/{match_id}/score?lang=de", json=body, headers=auth)

    assert by_query.status_code == 400
    assert by_query.get_json()["error"] == {"status": 400, "field": "score", "message": GERMAN}
    assert by_header.get_json()["error"]["message"] == GERMAN
    assert plain.get_json()["error"]["message"] == ENGLISH
