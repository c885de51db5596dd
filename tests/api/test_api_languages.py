"""The API answers in the language asked for (``?lang=`` or ``Accept-Language``), like
every page: its own refusals, the store's, and a match record's findings. Without a
choice it answers in English, as it always did.

The German texts are those of the catalogues (``messages.po`` for the API's own words,
``core.po`` for the store's and the records'), filled in by hand with the values of the
request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.store import access, draws
from tourney.store.db import transaction

if TYPE_CHECKING:
    from conftest import BuiltEvent

# Opened with 3-3 by GnubgA: the opening roll is never a doublet.
DOUBLET_OPENING = """ 3 point match

 Game 1
 GnubgA : 0                 GnubgB : 0
  1) 33: 8/5(2) 6/3(2)
  2)                             Wins 1 point
"""


def _drawn_with_token(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> tuple[int, dict[str, str]]:
    built = build_event(
        ["GnubgA", "GnubgB"],
        [{"name": "Main", "format": "knockout", "match_length": 3}],
        is_public=True,
    )
    with transaction(engine) as session:
        draws.make_draw(
            session, actor=built.director.actor, flight_id=built.flights["Main"], method="seeded"
        )
        board = draws.publish_draw(
            session, actor=built.director.actor, flight_id=built.flights["Main"]
        )
        _, secret = access.create_api_token(session, actor=built.director.actor, name="t")
    return board.rounds[0].matches[0].id, {"Authorization": f"Bearer {secret}"}


def test_a_missing_event_is_reported_in_german_when_asked(client: FlaskClient) -> None:
    english = client.get("/api/v1/events/999999/standings")
    german = client.get("/api/v1/events/999999/standings?lang=de")
    by_header = client.get(
        "/api/v1/events/999999/standings", headers={"Accept-Language": "de-DE,de;q=0.9"}
    )

    assert english.get_json()["error"] == {"status": 404, "message": "No such event."}
    assert german.get_json()["error"] == {"status": 404, "message": "Dieses Turnier gibt es nicht."}
    assert by_header.get_json() == german.get_json()


def test_a_refused_game_is_explained_in_german(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id, auth = _drawn_with_token(engine, build_event)

    refused = client.post(
        f"/api/v1/matches/{match_id}/games?lang=de",
        json={"winner": "a", "end": "played", "cube": 16},
        headers=auth,
    )

    # A 3-point match: from a cube of 4 any win takes it, so the cube may reach 8 at most.
    assert refused.status_code == 400
    assert refused.get_json()["error"] == {
        "status": 400,
        "message": "Spiel 1 hat den Doppler auf 16 in einem Match auf 3 Punkte: ab einem "
        "Doppler von 4 entscheidet jeder Sieg das Match, also geht der Doppler höchstens ein "
        "Doppel weiter, auf 8.",
        "field": "cube",
    }


def test_a_record_upload_lists_its_findings_in_german(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id, auth = _drawn_with_token(engine, build_event)
    upload = {"filename": "opening.mat", "content": DOUBLET_OPENING}
    url = f"/api/v1/matches/{match_id}/record"

    english = client.post(url, json=upload, headers=auth).get_json()
    german = client.post(f"{url}?lang=de", json=upload, headers=auth).get_json()

    opening = [f for f in english["findings"] if "opening roll" in f["message"]]
    assert english["ok"] is False and [f["message"] for f in opening] == [
        "the game opens with 3-3, but the opening roll is never a doublet (both players roll "
        "one die)"
    ]
    assert (
        "das Spiel beginnt mit 3-3, aber der Eröffnungswurf ist nie ein Pasch (beide Spieler "
        "werfen einen Würfel)"
    ) in [f["message"] for f in german["findings"]]
