"""A long-nardy event's match pages score by its rules and speak its words (oin, mars)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.rules import Level
from tourney.store import draws
from tourney.store.db import transaction
from tourney.web.filters import level_choices, level_label, variant_title

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"


def login(client: FlaskClient, built: BuiltEvent) -> None:
    response = client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    assert response.status_code == 302


def version_of(page: str) -> str:
    found = re.search(r'name="version" type="hidden" value="(\d+)"', page) or re.search(
        r'name="version" value="(\d+)"', page
    )
    assert found, "no version field on the page"
    return found.group(1)


def game(version: str, **values: Any) -> dict[str, Any]:
    data = {"version": version, "winner": "a", "end": "played", "cube": "1", "level": "single"}
    data.update(values)
    return data


def nardy_match(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> tuple[BuiltEvent, int]:
    built = build_event(
        ["Ann", "Bob"],
        [{"name": "Main", "format": "knockout", "match_length": 3}],
        variant="long-nardy",
        is_public=True,
        slug="nardy-night",
    )
    with transaction(engine) as session:
        flight = built.flights["Main"]
        draws.make_draw(session, actor=built.director.actor, flight_id=flight, method="seeded")
        board = draws.publish_draw(session, actor=built.director.actor, flight_id=flight)
    return built, next(m.id for m in board.rounds[0].matches if not m.is_bye)


def test_level_label_uses_the_variant_words():
    assert [level_label(word, "long-nardy") for word in ("single", "gammon", "backgammon")] == [
        "oin", "mars", "koks"]
    assert (level_label("gammon"), level_label(None, "long-nardy"),
            level_label(Level.GAMMON, "hypergammon")) == ("gammon", "", "gammon")


def test_variant_title_names_the_variant():
    assert [variant_title(name) for name in ("standard", "long-nardy", "nackgammon", None)] == [
        "Backgammon", "Long nardy", "Nackgammon", "Backgammon"]


def test_level_choices_long_nardy_offers_oin_and_mars():
    assert [(c.value, c.label) for c in level_choices("long-nardy")] == [
        ("single", "Oin"), ("gammon", "Mars"), ("", "— (dropped)")]


def test_long_nardy_match_page_scores_mars_two_in_its_words(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = nardy_match(engine, build_event)
    login(client, built)
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    # Ann wins a mars: 2 points in long nardy, 2-0 in a 3-point match. No cube, so no
    # Crawford game follows.
    after = client.post(
        f"/director/matches/{match_id}/games",
        data=game(version_of(page), level="gammon"),
        follow_redirects=True,
    ).get_data(as_text=True)

    assert "Saved. The score is 2-0." in after
    assert "3-point match of long nardy" in after
    assert "<td>mars</td>" in after
    assert '<option value="gammon">Mars</option>' in after
    assert "Crawford game" not in after
    assert "No doubling cube" in after


def test_long_nardy_match_refuses_a_cube_with_the_reason(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = nardy_match(engine, build_event)
    login(client, built)
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    refused = client.post(
        f"/director/matches/{match_id}/games", data=game(version_of(page), cube="2")
    )

    assert refused.status_code == 400
    assert (
        "This long nardy event is played without the doubling cube, so in game 1 the cube "
        "must stay at 1." in refused.get_data(as_text=True)
    )


def test_long_nardy_public_match_page_says_oin(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = nardy_match(engine, build_event)
    login(client, built)
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    client.post(f"/director/matches/{match_id}/games", data=game(version_of(page)))

    public = client.get(f"/events/nardy-night/matches/{match_id}").get_data(as_text=True)

    assert "Match to 3 points of long nardy" in public
    assert "Played out, oin" in public
