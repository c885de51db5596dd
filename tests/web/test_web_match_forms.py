"""A tavli event: the director picks the match form on the event form, and each game of a
match is entered in its own variant (Portes, Plakoto, Fevga in turn), without the cube.
The scores are worked out by hand from VARIANTS.md section 16.1."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from test_web_variant_options import add_game, login, one_match, select_options

from tourney.store.queries import UserView

if TYPE_CHECKING:
    from conftest import BuiltEvent


def test_a_tavli_event_is_created_with_its_match_form_and_shown(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    created = client.post("/director/events/new", data={"name": "Tavli Night",
                                                         "match_form": "tavli"})
    page = client.get(created.location).get_data(as_text=True)
    edit = client.get(created.location + "/edit").get_data(as_text=True)

    assert created.status_code == 302
    assert ("<strong>Tavli: Portes, Plakoto and Fevga in turn, first to the match length, "
            "no cube</strong>") in page
    assert "<li>Tavli</li><li>No doubling cube</li>" in page
    assert re.search(r'<option selected value="tavli">|<option value="tavli" selected>', edit)


def test_an_unknown_match_form_is_refused_on_its_field(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    refused = client.post("/director/events/new", data={"name": "Odd", "match_form": "chess"})

    assert refused.status_code == 400
    assert "Not a valid choice" in refused.get_data(as_text=True)


def test_a_tavli_match_to_five_is_entered_game_by_game_in_each_variant(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = one_match(engine, build_event, 5, match_form="tavli")
    login(client, built)
    first = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    # Portes: Ann's gammon 2-0. Plakoto: Bob single 2-1. Fevga: Ann gammon 4-1.
    second = add_game(client, match_id, winner="a", level="gammon")
    add_game(client, match_id, winner="b", level="single")
    fourth = add_game(client, match_id, winner="a", level="gammon")
    # Portes again: Bob gammon 4-3; no Crawford game without the cube. Plakoto: Ann 5-3.
    add_game(client, match_id, winner="b", level="gammon")
    last = add_game(client, match_id, winner="a", level="single")

    assert "5-point match of tavli" in first
    assert "<h2>Game 1: Portes" in first
    assert select_options(first, "end") == [("played", "Played out"), ("resigned", "Resigned")]
    assert select_options(first, "cube") == [("1", "1 (no doubling)")]
    assert "Saved. The score is 2-0." in second and "<h2>Game 2: Plakoto" in second
    assert "Saved. The score is 4-1." in fourth and "<h2>Game 4: Portes" in fourth
    assert "Crawford" not in fourth.split("<h2>Game 4")[1].split("</h2>")[0]
    assert "Ann wins 5-3" in last
    played_in = re.findall(r'<td class="num">\d</td>\s*<td>(Portes|Plakoto|Fevga)</td>', last)
    assert played_in == ["Portes", "Plakoto", "Fevga", "Portes", "Plakoto"]
