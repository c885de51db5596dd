"""A match played from an uploaded record lists its moves, game by game, on the staff and
public match pages, each roll named in the event's dice names where it asks for them.

The first game of the record (a gnubg self-play match) opens 1) 52: 13/8 24/22 for
GnubgA and 31: 6/5 8/5 for GnubgB; 5-2 is «пенджу-ду» and 3-1 «се-ек» (VARIANTS.md
section 19)."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.store import draws
from tourney.store.db import transaction

if TYPE_CHECKING:
    from conftest import BuiltEvent

RECORD = Path(__file__).resolve().parents[1] / "data" / "web" / "gnubg_L03_s1037.mat"
PASSWORD = "correct horse battery staple"


def _played_from_record(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent], **event: str
) -> tuple[BuiltEvent, int]:
    built = build_event(["GnubgA", "GnubgB"],
                        [{"name": "Main", "format": "knockout", "match_length": 3}],
                        is_public=True, slug="moves-night", **event)
    with transaction(engine) as session:
        actor = built.director.actor
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        board = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    match_id = board.rounds[0].matches[0].id
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert version is not None
    saved = client.post(
        f"/director/matches/{match_id}/upload",
        data={"version": version.group(1), "record": (io.BytesIO(RECORD.read_bytes()), "m.mat")},
        content_type="multipart/form-data",
    )
    assert saved.status_code == 302
    return built, match_id


def _first_rows(page: str) -> list[list[str]]:
    moves = page.split("<h2>Moves</h2>", 1)[1]
    rows = re.findall(r"<tr><td>(.*?)</td><td class=\"roll\">(.*?)</td><td>(.*?)</td></tr>", moves)
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in row] for row in rows[:2]]


def test_the_match_pages_list_the_records_moves_with_the_russian_dice_names(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    _, match_id = _played_from_record(client, engine, build_event, dice_names="ru")

    staff = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    public = client.get(f"/events/moves-night/matches/{match_id}").get_data(as_text=True)

    expected = [["GnubgA", "5-2 пенджу-ду", "13/8 24/22"], ["GnubgB", "3-1 се-ек", "6/5 8/5"]]
    assert _first_rows(staff) == expected
    assert _first_rows(public) == expected
    assert '<span class="dice-name" lang="ru">' in staff
    assert staff.count("<details class=\"record-moves\"") == 4


def test_without_dice_names_the_rolls_are_shown_as_numbers_only(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    _, match_id = _played_from_record(client, engine, build_event)

    staff = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    assert _first_rows(staff)[0] == ["GnubgA", "5-2", "13/8 24/22"]
    assert "dice-name" not in staff


def test_the_event_form_offers_the_dice_names(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = _played_from_record(client, engine, build_event, dice_names="tr")

    edit = client.get(f"/director/events/{built.event_id}/edit").get_data(as_text=True)

    assert re.search(r'<option (selected )?value="tr"( selected)?>Turkish \(tavla\)</option>',
                     edit)
    assert "Russian (зары)" in edit
