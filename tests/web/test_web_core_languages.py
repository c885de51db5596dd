"""What the rules say to a director, in the language the pages are served in: a refused
game entry, a record's findings, the result levels and the names of the rolls.

The translations are as a German, Russian or Greek club director would write them."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.store import draws
from tourney.store.db import transaction

if TYPE_CHECKING:
    from conftest import BuiltEvent

RECORD = Path(__file__).resolve().parents[1] / "data" / "web" / "gnubg_L03_s1037.mat"
PASSWORD = "correct horse battery staple"


def _drawn(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent], **event: Any
) -> int:
    built = build_event(["GnubgA", "GnubgB"],
                        [{"name": "Main", "format": "knockout", "match_length": 3}],
                        is_public=True, slug="languages-night", **event)
    with transaction(engine) as session:
        actor = built.director.actor
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        board = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    return board.rounds[0].matches[0].id


def _version(client: FlaskClient, match_id: int, lang: str = "en") -> str:
    page = client.get(f"/director/matches/{match_id}?lang={lang}").get_data(as_text=True)
    found = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert found is not None
    return found.group(1)


def _game(version: str, **values: str) -> dict[str, str]:
    return {"version": version, "winner": "a", "end": "played", "cube": "1", "level": "single",
            **values}


def test_a_refused_game_entry_is_shown_in_german(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _drawn(client, engine, build_event)
    client.post(f"/director/matches/{match_id}/games",
                data=_game(_version(client, match_id), level="gammon"))

    refused = client.post(f"/director/matches/{match_id}/games?lang=de",
                          data=_game(_version(client, match_id, "de"), cube="2"))

    assert refused.status_code == 400
    assert (
        "Spiel 2 ist das Crawford-Spiel: Doppeln ist nicht erlaubt, also muss der Doppler "
        "auf 1 bleiben." in html.unescape(refused.get_data(as_text=True))
    )


def test_a_records_findings_are_shown_in_russian(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _drawn(client, engine, build_event)
    record = b""" 3 point match

 Game 1
 GnubgA : 0                 GnubgB : 0
  1) 33: 8/5(2) 6/3(2)
  2)                             Wins 1 point
"""

    checked = client.post(
        f"/director/matches/{match_id}/upload?lang=ru",
        data={"version": _version(client, match_id, "ru"),
              "record": (io.BytesIO(record), "opening.mat")},
        content_type="multipart/form-data",
    )

    page = html.unescape(checked.get_data(as_text=True))
    assert (
        "партия начинается с 3-3, но первый бросок никогда не бывает дублем (каждый игрок "
        "бросает по одному кубику)" in page
    )


def test_the_result_levels_of_the_game_form_are_in_greek(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _drawn(client, engine, build_event)

    page = client.get(f"/director/matches/{match_id}?lang=el").get_data(as_text=True)

    form = page.split('id="game-level"', 1)[1].split("</select>", 1)[0]
    assert re.findall(r">([^<]+)</option>", form)[:3] == ["Μονό", "Διπλό", "Τριπλό"]


def test_the_rolls_are_named_in_russian_for_a_russian_reader(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _drawn(client, engine, build_event, dice_names="ru-latn")
    client.post(
        f"/director/matches/{match_id}/upload",
        data={"version": _version(client, match_id),
              "record": (io.BytesIO(RECORD.read_bytes()), "m.mat")},
        content_type="multipart/form-data",
    )

    english = client.get(f"/director/matches/{match_id}?lang=en").get_data(as_text=True)
    russian = client.get(f"/director/matches/{match_id}?lang=ru").get_data(as_text=True)

    # The first roll of the record is 5-2: "panju du" in Latin letters, «пенджу-ду».
    assert '<span class="dice-name" lang="ru-Latn">panju du</span>' in english
    assert '<span class="dice-name" lang="ru">пенджу-ду</span>' in russian


def test_round_names_and_flight_formats_are_shown_in_greek(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    match_id = _drawn(client, engine, build_event)

    match_page = client.get(f"/director/matches/{match_id}?lang=el").get_data(as_text=True)
    public = client.get("/events/languages-night?lang=el").get_data(as_text=True)

    # Two players: the knockout's only round is its final.
    assert "<span>Τελικός, " in match_page
    assert "Νοκ-άουτ" in public
