"""A player's link on a phone: their page, check-in through the venue's QR page, reporting
game by game and confirming; what the link refuses; the director's pages."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from conftest import PASSWORD
from flask import Flask
from flask.testing import FlaskClient
from mailserver import free_port
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import draws, registration, selfservice
from tourney.store.db import transaction
from tourney.store.selfservice_tables import OutboxMail
from tourney.store.tables import Entry, Event, Match, Player

if TYPE_CHECKING:
    from conftest import BuiltEvent

MAIN = {"name": "Main", "format": "knockout", "match_length": 3}


def published(engine: Engine, build_event: Callable[..., BuiltEvent], name: str) -> BuiltEvent:
    built = build_event(["Ann Archer", "Dan Dunn"], [MAIN], name=name)
    with transaction(engine) as session:
        for entry_id in built.entries.values():
            entry = session.get(Entry, entry_id)
            player = session.get(Player, entry.player_id) if entry else None
            assert player is not None
            player.email = player.name.split()[0].lower() + "@example.org"
        draws.make_draw(session, actor=built.director.actor, flight_id=built.flights["Main"],
                        method="seeded", seed=1)
        draws.publish_flight(session, actor=built.director.actor,
                             flight_id=built.flights["Main"])
    return built


def link(app: Flask, engine: Engine, built: BuiltEvent, name: str) -> str:
    """The player's link path, signed with the app's secret key."""
    with Session(engine) as session:
        maker = selfservice.LinkMaker(app.config["SECRET_KEY"], "http://localhost/")
        url = selfservice.link_for_entry(session, maker, built.entries[name])
    return url.removeprefix("http://localhost")


def the_match(engine: Engine, built: BuiltEvent) -> Match:
    with Session(engine) as session:
        return session.exec(select(Match).where(Match.flight_id == built.flights["Main"])).one()


def slug_of(engine: Engine, built: BuiltEvent) -> str:
    with Session(engine) as session:
        event = session.get(Event, built.event_id)
        assert event is not None
        return event.slug


def test_a_player_checks_in_from_the_venue_page_after_opening_their_link(
    app: Flask, client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = published(engine, build_event, "Club Night")
    ann = link(app, engine, built, "Ann Archer")
    before = client.get(f"/events/{slug_of(engine, built)}/check-in").get_data(as_text=True)

    page = client.get(ann).get_data(as_text=True)
    venue = client.get(f"/events/{slug_of(engine, built)}/check-in").get_data(as_text=True)
    done = client.post(ann + "/check-in", follow_redirects=True).get_data(as_text=True)

    assert "Open your personal link first" in before
    assert "Dan Dunn" in page and "Not checked in yet." in page
    assert "Check in as Ann Archer" in venue
    assert "You are checked in." in done
    with Session(engine) as session:
        entry = session.get(Entry, built.entries["Ann Archer"])
        assert entry is not None and entry.checked_in_at is not None


def test_a_link_answers_404_under_another_event_and_once_revoked(
    app: Flask, client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    first = published(engine, build_event, "Club Night")
    second = published(engine, build_event, "Other Night")
    ann = link(app, engine, first, "Ann Archer")
    token = ann.rsplit("/", 1)[1]

    foreign = client.get(f"/p/{slug_of(engine, second)}/{token}")
    client.post("/login", data={"email": first.director.email, "password": PASSWORD})
    client.post(f"/director/entries/{first.entries['Ann Archer']}/revoke-link")
    revoked = client.get(ann)
    revoked_post = client.post(ann + "/check-in")

    assert (foreign.status_code, revoked.status_code, revoked_post.status_code) == (
        404, 404, 404
    )


def test_reporting_game_by_game_and_confirming_enters_the_games(
    app: Flask, client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = published(engine, build_event, "Club Night")
    ann, dan = link(app, engine, built, "Ann Archer"), link(app, engine, built, "Dan Dunn")
    match = the_match(engine, built)
    # Dan (side b) loses game 1, a single (0-1 from his side), then wins a gammon with the
    # cube on 2 (4 points): 4-1 to Dan.
    rows = {
        "game_winner": ["them", "me"], "game_end": ["played", "played"],
        "game_cube": ["1", "2"], "game_level": ["single", "gammon"],
    }
    reported = client.post(f"{dan}/matches/{match.id}/report", data=rows)
    again = client.post(f"{dan}/matches/{match.id}/report", data=rows)
    ann_page = client.get(ann).get_data(as_text=True)
    report_id = selfservice_report_id(engine, match.id or 0)
    confirmed = client.post(f"{ann}/reports/{report_id}/confirm", follow_redirects=True)

    after = the_match(engine, built)
    assert (reported.status_code, again.status_code) == (302, 302)
    assert "Ann Archer 1, Dan Dunn 4 (2 games)" in ann_page
    assert "Confirmed: the result is in." in confirmed.get_data(as_text=True)
    assert (after.status, after.score_a, after.score_b, after.result_source) == (
        "finished", 1, 4, "games"
    )


def selfservice_report_id(engine: Engine, match_id: int) -> int:
    with Session(engine) as session:
        report = session.exec(
            select(selfservice.ResultReport).where(selfservice.ResultReport.match_id == match_id)
        ).one()
        return report.id or 0


def test_an_impossible_report_shows_the_rule_on_the_form(
    app: Flask, client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = published(engine, build_event, "Club Night")
    dan = link(app, engine, built, "Dan Dunn")
    match = the_match(engine, built)

    response = client.post(f"{dan}/matches/{match.id}/report",
                           data={"my_score": "2", "their_score": "2"})

    assert response.status_code == 400
    assert "not finished" in response.get_data(as_text=True) or "3" in response.get_data(
        as_text=True)
    assert the_match(engine, built).status == "ready"


def test_reporting_with_a_dead_mail_server_answers_at_once_and_queues_the_mail(
    make_app: Callable[..., Flask], engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    app = make_app(SMTP_HOST="127.0.0.1", SMTP_PORT=free_port())
    client = app.test_client()
    built = published(engine, build_event, "Club Night")
    dan = link(app, engine, built, "Dan Dunn")
    match = the_match(engine, built)

    started = time.monotonic()
    response = client.post(f"{dan}/matches/{match.id}/report",
                           data={"my_score": "3", "their_score": "0"})
    took = time.monotonic() - started

    with Session(engine) as session:
        queued = session.exec(select(OutboxMail.recipient, OutboxMail.status)).all()
    assert response.status_code == 302
    assert queued == [("ann@example.org", "queued")]
    assert took < 10  # the request never talks to the mail server


def test_the_directors_pages_show_check_ins_the_poster_and_the_outbox(
    app: Flask, client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = published(engine, build_event, "Club Night")
    client.post(link(app, engine, built, "Ann Archer") + "/check-in")
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})

    page = client.get(f"/director/events/{built.event_id}/self-service").get_data(as_text=True)
    live = client.get(f"/director/events/{built.event_id}/self-service/check-ins")
    poster = client.get(f"/director/events/{built.event_id}/check-in-poster")
    mails = client.get(f"/director/events/{built.event_id}/outbox")

    assert "1 of 2 checked in" in page
    assert "1 of 2 checked in" in live.get_data(as_text=True)
    assert "<svg" in poster.get_data(as_text=True)
    assert f"/events/{slug_of(engine, built)}/check-in" in poster.get_data(as_text=True)
    assert mails.status_code == 200


def test_an_overdue_match_gets_its_walkover_in_one_click(
    app: Flask, client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = published(engine, build_event, "Club Night")
    match = the_match(engine, built)
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    client.post(f"/director/rounds/{match.round_id}/deadline",
                data={"deadline": "2020-01-01T20:00"})
    page = client.get(f"/director/events/{built.event_id}/self-service").get_data(as_text=True)

    version = re.search(r'name="version" value="(\d+)"', page)
    assert version is not None
    client.post(f"/director/matches/{match.id}/walkover",
                data={"winner": "b", "version": version.group(1)})

    after = the_match(engine, built)
    assert "Deadline passed without a result." in page
    assert "Walkover to Dan Dunn" in page
    assert (after.status, after.winner_entry_id) == ("walkover", after.entry_b_id)


def test_the_check_in_list_answers_204_while_nothing_changed(
    app: Flask, client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = published(engine, build_event, "Club Night")
    client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    page = client.get(f"/director/events/{built.event_id}/self-service").get_data(as_text=True)
    found = re.search(r"check-ins\?since=(\d+)", page)
    assert found is not None
    poll = f"/director/events/{built.event_id}/self-service/check-ins?since={found.group(1)}"

    unchanged = client.get(poll)
    app.test_client().post(link(app, engine, built, "Dan Dunn") + "/check-in")
    changed = client.get(poll)

    assert unchanged.status_code == 204
    assert changed.status_code == 200
    assert "1 of 2 checked in" in changed.get_data(as_text=True)


def test_a_sign_up_on_the_german_form_is_mailed_in_german(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([], [], name="Open Cup")
    with transaction(engine) as session:
        registration.set_registration(
            session, actor=built.director.actor, event_id=built.event_id, is_open=True,
            capacity=None, needs_approval=False, closes_at=None,
        )
    slug = slug_of(engine, built)
    client.get(f"/events/{slug}?lang=de")
    client.post(f"/events/{slug}/register", data={
        "name": "Greta Graf", "club": "", "email": "greta@example.org", "rating_id": "",
    })
    client.get(f"/events/{slug}?lang=en")
    client.post(f"/events/{slug}/register", data={
        "name": "Hal Hill", "club": "", "email": "hal@example.org", "rating_id": "",
    })
    with Session(engine) as session:
        subjects = sorted(
            (m.recipient, m.subject) for m in session.exec(select(OutboxMail)).all()
        )
    assert subjects == [
        ("greta@example.org", "Open Cup: Bitte bestätigen Sie Ihre Anmeldung"),
        ("hal@example.org", "Open Cup: confirm your registration"),
    ]
