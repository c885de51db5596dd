"""Roster rights on the web: another director's player has no edit link, their edit page
and its form are refused, and their e-mail address appears on no page."""

from __future__ import annotations

from collections.abc import Callable

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.store import roster
from tourney.store.db import transaction
from tourney.store.queries import UserView
from tourney.store.roster import PlayerFields


def anna_adds_carl(engine: Engine, anna: UserView) -> int:
    with transaction(engine) as session:
        fields = PlayerFields(name="Carl Dahl", country="NO", email="carl@example.org")
        return roster.register_player(session, actor=anna.actor, fields=fields).id


def test_another_directors_player_cannot_be_opened_or_renamed(
    client: FlaskClient,
    engine: Engine,
    make_user: Callable[..., UserView],
    login_as: Callable[..., UserView],
) -> None:
    carl = anna_adds_carl(engine, make_user("director"))
    login_as("director")

    roster_page = client.get("/director/players").get_data(as_text=True)
    form = client.get(f"/director/players/{carl}/edit")
    sent = client.post(f"/director/players/{carl}/edit", data={"name": "Renamed"})
    after = client.get("/director/players").get_data(as_text=True)

    assert "Carl Dahl" in roster_page
    assert "carl@example.org" not in roster_page
    assert f"/director/players/{carl}/edit" not in roster_page
    assert (form.status_code, sent.status_code) == (403, 403)
    assert "carl@example.org" not in form.get_data(as_text=True)
    assert "Renamed" not in after


def test_the_adding_director_edits_their_player_and_sees_the_email(
    client: FlaskClient, engine: Engine, login_as: Callable[..., UserView]
) -> None:
    anna = login_as("director")
    carl = anna_adds_carl(engine, anna)

    form = client.get(f"/director/players/{carl}/edit")
    sent = client.post(
        f"/director/players/{carl}/edit", data={"name": "Carl Ek", "email": "carl@example.org"}
    )

    assert form.status_code == 200
    assert 'value="carl@example.org"' in form.get_data(as_text=True)
    assert sent.status_code == 302
    assert "Carl Ek" in client.get("/director/players").get_data(as_text=True)
