"""A result typed after the login has lapsed is not lost, and a login never leads to an
address that only takes forms.

A director's login ends under their hands (logged out on another device, or the cookie
gone). The game they then send is refused for the login; after logging in again they
are back on the match page with the game filled in as they typed it, told it is not saved
yet, and one click saves it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import select
from test_web_tournament import PASSWORD, drawn, game, login, seen_version

from tourney.store.db import read_session
from tourney.store.tables import Game

if TYPE_CHECKING:
    from conftest import BuiltEvent

NOT_SAVED = "Your game was not saved yet: check it and save."


def _log_out_elsewhere(app: Flask, built: BuiltEvent) -> None:
    """Log the director out on another device: every session of theirs ends."""
    phone = app.test_client()
    login(phone, built)
    assert phone.post("/logout").status_code == 302


def _selected(page: str, field_id: str) -> str:
    box = re.search(rf'<select[^>]* id="{field_id}"[^>]*>(.*?)</select>', page, re.S)
    assert box is not None, f"no select {field_id}"
    chosen = re.search(r'<option selected value="([^"]*)"', box.group(1))
    assert chosen is not None
    return chosen.group(1)


def _games(engine: Engine, match_id: int) -> list[tuple[str | None, int]]:
    with read_session(engine) as session:
        rows = session.exec(select(Game).where(Game.match_id == match_id)).all()
        return [(g.winner, g.points) for g in rows]


def test_game_sent_after_the_login_ended_is_kept_through_the_login(
    app: Flask, client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob"])
    login(client, built)
    version = seen_version(client, match_id)
    _log_out_elsewhere(app, built)

    # Bob wins a gammon: typed on the page shown before the login ended.
    sent = client.post(
        f"/director/matches/{match_id}/games",
        data=game(version, winner="b", level="gammon"),
    )
    back = client.post(
        sent.location, data={"email": built.director.email, "password": PASSWORD}
    )
    page = client.get(back.location).get_data(as_text=True)

    assert sent.status_code == 302
    assert sent.location == f"/login?next=/director/matches/{match_id}"
    assert back.location == f"/director/matches/{match_id}"
    assert NOT_SAVED in page
    assert (_selected(page, "game-winner"), _selected(page, "game-level")) == ("b", "gammon")
    assert _games(engine, match_id) == []


def test_game_kept_through_the_login_is_saved_by_one_click(
    app: Flask, client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob"])
    login(client, built)
    version = seen_version(client, match_id)
    _log_out_elsewhere(app, built)
    sent = client.post(
        f"/director/matches/{match_id}/games", data=game(version, winner="b", level="gammon")
    )
    client.post(sent.location, data={"email": built.director.email, "password": PASSWORD})
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    # The form as the page fills it in, sent back unchanged.
    form = page.split(f'action="/director/matches/{match_id}/games"')[1].split("</form>")[0]
    fields = dict(re.findall(r'name="(\w+)" type="hidden" value="([^"]*)"', form))
    for name in ("winner", "end", "cube", "level"):
        fields[name] = _selected(form, f"game-{name}")
    saved = client.post(f"/director/matches/{match_id}/games", data=fields, follow_redirects=True)

    assert "Saved. The score is 0-2." in saved.get_data(as_text=True)
    assert _games(engine, match_id) == [("b", 2)]
    # Filled in once only: the next visit shows an empty form.
    assert NOT_SAVED not in client.get(f"/director/matches/{match_id}").get_data(as_text=True)


def test_game_kept_through_the_login_is_not_saved_over_a_result_entered_meanwhile(
    app: Flask, client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob"])
    login(client, built)
    version = seen_version(client, match_id)
    _log_out_elsewhere(app, built)
    sent = client.post(f"/director/matches/{match_id}/games", data=game(version, winner="b"))
    client.post(sent.location, data={"email": built.director.email, "password": PASSWORD})
    colleague = app.test_client()
    login(colleague, built)
    colleague.post(
        f"/director/matches/{match_id}/games", data=game(seen_version(colleague, match_id))
    )

    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    again = client.post(
        f"/director/matches/{match_id}/games",
        data={**game(version, winner="b"), "version": re.findall(
            r'name="version" type="hidden" value="(\d+)"', page)[0]},
    )

    assert again.status_code == 409
    assert _games(engine, match_id) == [("a", 1)]


@pytest.mark.parametrize(
    ("sent_to", "shown"),
    [
        ("/director/matches/{m}/games", "/director/matches/{m}"),
        ("/director/matches/{m}/games/1/edit", "/director/matches/{m}"),
        ("/director/matches/{m}", "/director/matches/{m}"),
        ("/director/matches/{m}?tab=games", "/director/matches/{m}?tab=games"),
    ],
)
def test_login_leads_to_the_page_that_shows_a_form_never_to_its_address(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    sent_to: str,
    shown: str,
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob"])

    response = client.post(
        f"/login?next={sent_to.format(m=match_id)}",
        data={"email": built.director.email, "password": PASSWORD},
    )

    assert response.location == shown.format(m=match_id)


def test_game_sent_without_the_session_cookie_says_it_was_not_saved(
    make_app: Callable[..., Flask], engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    _, match_id = drawn(engine, build_event, ["Ann", "Bob"])
    app = make_app(CSRF_ENABLED=True)
    client = app.test_client()

    # The cookie is gone, and with it the form's CSRF token: nothing can be kept.
    sent = client.post(
        f"/director/matches/{match_id}/games",
        data=game("1"),
        headers={"Referer": f"http://localhost/director/matches/{match_id}"},
    )
    login_page = client.get(sent.location).get_data(as_text=True)

    assert sent.status_code == 302
    assert sent.location == f"/login?next=/director/matches/{match_id}"
    assert "what you sent was not saved" in login_page
