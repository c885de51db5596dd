"""Clocks, the timetable and the venue screen as directors, scorers and visitors meet them."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from tourney.store import draws, events
from tourney.store.db import read_session, transaction
from tourney.store.queries import UserView
from tourney.store.tables import AuditEntry, Match

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"
FOUR = ["Ann", "Bob", "Cid", "Dee"]


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def published_knockout(
    engine: Engine, build_event: Callable[..., BuiltEvent], **event_fields: object
) -> tuple[BuiltEvent, int]:
    """Four players, a knockout to 5 drawn and published; the first match's id."""
    built = build_event(
        FOUR, [{"name": "Main", "format": "knockout", "match_length": 5}], **event_fields
    )
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
        first = session.exec(
            select(Match.id)
            .where(Match.flight_id == built.flights["Main"])
            .order_by(col(Match.round_id), col(Match.position))
        ).first()
    assert first is not None
    return built, first


def log_in(client: FlaskClient, email: str) -> None:
    response = client.post("/login", data={"email": email, "password": PASSWORD})
    assert response.status_code == 302


def test_a_scorer_starts_a_match_from_the_flight_page_and_sees_its_clock(
    app: Flask,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    make_user: Callable[..., UserView],
) -> None:
    """A 5-point match: 10 minutes each on the clock, a budget of 40 (8 a point)."""
    built, match_id = published_knockout(engine, build_event)
    scorer = make_user("scorer")
    with transaction(engine) as session:
        events.add_event_staff(
            session,
            actor=built.director.actor,
            event_id=built.event_id,
            user_id=scorer.id,
            role="scorer",
        )
    client = app.test_client()
    log_in(client, scorer.email)
    flight_page = client.get(f"/director/flights/{built.flights['Main']}").get_data(as_text=True)
    assert "Start" in text_of(flight_page)

    started = client.post(f"/director/matches/{match_id}/start", data={"back": "flight"})
    match_page = text_of(client.get(f"/director/matches/{match_id}").get_data(as_text=True))

    assert started.status_code == 302
    assert started.headers["Location"].endswith(f"/director/flights/{built.flights['Main']}#clocks")
    assert "10 minutes each on the clock (2 min a point), 12 seconds delay a move." in match_page
    assert "0 of 40 minutes" in match_page
    with read_session(engine) as session:
        actors = session.exec(
            select(AuditEntry.actor_label).where(AuditEntry.action == "match.start")
        ).all()
    assert list(actors) == [scorer.email]


def test_the_public_match_page_shows_the_clock_and_the_player_page_when_to_play(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = published_knockout(engine, build_event, is_public=True)

    match_page = text_of(client.get(f"/events/club-night/matches/{match_id}").get_data(True))
    player_page = text_of(
        client.get(f"/events/club-night/players/{built.entries['Ann']}").get_data(True)
    )

    assert "Budget: 40 minutes for a match to 5." in match_page
    assert "Expected start about" in player_page


def test_a_private_events_screen_needs_its_share_link(
    app: Flask, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = published_knockout(engine, build_event, name="Secret Night")
    director = app.test_client()
    log_in(director, built.director.email)
    director.post(f"/director/events/{built.event_id}/sharing/private")
    sharing = director.get(f"/director/events/{built.event_id}/sharing").get_data(as_text=True)
    key = re.search(r'\?key=([^"&]+)"', sharing)
    assert key is not None
    visitor = app.test_client()

    refused = app.test_client().get("/events/secret-night/screen")
    first = visitor.get(f"/events/secret-night/screen?key={key.group(1)}")
    shown = visitor.get(first.headers["Location"])

    assert refused.status_code == 404
    assert first.status_code == 302
    assert shown.status_code == 200
    assert "Main · Semifinal" in text_of(shown.get_data(as_text=True))


def test_only_the_events_directors_change_its_screen(
    app: Flask,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    make_user: Callable[..., UserView],
) -> None:
    built, _ = published_knockout(engine, build_event)
    other = make_user("director")
    client = app.test_client()
    log_in(client, other.email)

    page = client.get(f"/director/events/{built.event_id}/screen")

    assert page.status_code == 403


def test_the_screen_form_refuses_a_rotation_too_fast_to_read(
    app: Flask, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = published_knockout(engine, build_event)
    client = app.test_client()
    log_in(client, built.director.email)
    refused = client.post(
        f"/director/events/{built.event_id}/screen",
        data={"panels": ["clock"], "rotation_seconds": "2"},
    )

    assert refused.status_code == 400
    assert "Number must be between 5 and 300." in refused.get_data(as_text=True)


def test_the_flight_form_sets_the_clock(
    app: Flask, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    """1.5 minutes a point and a 10-second delay: a 5-point match gets 7.5 minutes each."""
    built, match_id = published_knockout(engine, build_event)
    client = app.test_client()
    log_in(client, built.director.email)

    saved = client.post(
        f"/director/flights/{built.flights['Main']}/edit",
        data={
            "name": "Main",
            "format": "knockout",
            "match_length": "5",
            "draw_method": "seeded",
            "clock_minutes_per_point": "1.5",
            "clock_delay_seconds": "10",
        },
    )
    match_page = text_of(client.get(f"/director/matches/{match_id}").get_data(as_text=True))

    assert saved.status_code == 302
    assert "7.5 minutes each on the clock (1.5 min a point), 10 seconds delay a move." in match_page
