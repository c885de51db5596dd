"""Private events: every public route answers 404 without the share link or a staff login."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import select

from tourney.store import access
from tourney.store.audit import Actor
from tourney.store.db import read_session, transaction
from tourney.store.tables import Entry, Match, User

if TYPE_CHECKING:
    from conftest import Demo

SWISS = "monday-swiss"


def _director(engine: Engine) -> Actor:
    with read_session(engine) as session:
        user = session.exec(select(User).where(User.email == "director@example.org")).one()
        return Actor(user_id=user.id, label=user.email, role=user.role)


def _routes(app: Flask, demo: Demo, engine: Engine) -> list[str]:
    """One URL for every public route that takes an event slug."""
    flight = demo.flights[SWISS]["Swiss"]
    with read_session(engine) as session:
        entry = session.exec(select(Entry.id).where(Entry.event_id == demo.events[SWISS])).first()
        match = session.exec(select(Match.id).where(Match.flight_id == flight)).first()
    assert entry is not None and match is not None
    values = {
        "slug": SWISS,
        "flight_id": str(flight),
        "number": "1",
        "entry_id": str(entry),
        "match_id": str(match),
        "record_id": "1",
    }
    urls = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("public.") and "<slug>" in rule.rule:
            url = rule.rule
            for name, value in values.items():
                url = url.replace(f"<{name}>", value).replace(f"<int:{name}>", value)
            urls.append(url)
    return urls


def test_private_event_is_unreachable_without_the_key_on_every_route(
    app: Flask, client: FlaskClient, demo: Demo, engine: Engine
) -> None:
    director = _director(engine)
    with transaction(engine) as session:
        view = access.set_visibility(
            session, actor=director, event_id=demo.events[SWISS], public=False
        )
    urls = _routes(app, demo, engine)

    answers = {url: client.get(url).status_code for url in urls}
    wrong_key = {url: client.get(f"{url}?key=nope").status_code for url in urls}
    listed = [e["slug"] for e in client.get("/api/v1/events").get_json()]
    api = client.get(f"/api/v1/events/{demo.events[SWISS]}/standings").status_code

    assert len(urls) >= 9
    assert set(answers.values()) == {404}
    assert set(wrong_key.values()) == {404}
    assert SWISS not in listed and SWISS not in client.get("/").get_data(as_text=True)
    assert api == 404
    assert view.share_token is not None and len(view.share_token) >= 32


def test_share_link_opens_the_event_and_a_new_link_closes_the_old(
    app: Flask, demo: Demo, engine: Engine
) -> None:
    director = _director(engine)
    with transaction(engine) as session:
        token = access.set_visibility(
            session, actor=director, event_id=demo.events[SWISS], public=False
        ).share_token
    holder = app.test_client()

    opened = holder.get(f"/events/{SWISS}?key={token}")
    follow = holder.get(f"/events/{SWISS}/flights/{demo.flights[SWISS]['Swiss']}/standings")
    with transaction(engine) as session:
        access.renew_share_link(session, actor=director, event_id=demo.events[SWISS])
    after_renewal = holder.get(f"/events/{SWISS}")

    assert (opened.status_code, opened.location) == (302, f"/events/{SWISS}")
    assert follow.status_code == 200 and "Åsa Lindqvist" in follow.get_data(as_text=True)
    assert after_renewal.status_code == 404


def test_staff_login_opens_a_private_event(client: FlaskClient, demo: Demo, engine: Engine) -> None:
    director = _director(engine)
    with transaction(engine) as session:
        access.set_visibility(session, actor=director, event_id=demo.events[SWISS], public=False)

    client.post("/login", data={"email": "director@example.org", "password": "demo-director"})

    assert client.get(f"/events/{SWISS}").status_code == 200


def test_director_toggles_visibility_from_the_sharing_page(client: FlaskClient, demo: Demo) -> None:
    client.post("/login", data={"email": "director@example.org", "password": "demo-director"})
    event_id = demo.events[SWISS]

    made_private = client.post(f"/director/events/{event_id}/sharing/private")
    page = client.get(f"/director/events/{event_id}/sharing").get_data(as_text=True)
    client.post(f"/director/events/{event_id}/sharing/public")
    public_again = client.get("/api/v1/events").get_json()

    assert made_private.status_code == 302
    assert "<strong>Private.</strong>" in page and f"/events/{SWISS}?key=" in page
    assert SWISS in [e["slug"] for e in public_again]
