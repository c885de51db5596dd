"""Players serve themselves on their phones, in a real browser, with real mail.

The director publishes a knockout of four; the mail worker (``tourney mail work``) sends
each player their pairing and private link to a local SMTP server. Ann and Dan open
their links on phones (375x812), check in through the venue's QR page, Ann reports game by
game with the match file and Dan confirms; Bob reports a score that Cat disputes, and the
director decides it from the queue, where both versions stand side by side. The mail
server received every mail it should: pairings, "confirm your result", "dispute
decided" and, once both semifinals are decided, the final's pairing to its two players.

Screenshots go to ``test-artifacts/`` (players-*.png).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_harness import CHROMIUM_FLAGS, live_app, require_chromium, screenshot_path
from mailserver import MailServer, ReceivedMail, running_smtp_server
from sqlmodel import Session, select
from test_e2e_director import log_in

from tourney.store import draws, events, roster
from tourney.store.audit import Actor
from tourney.store.db import make_engine, transaction
from tourney.store.tables import Match, User

MAT = Path(__file__).resolve().parent.parent / "data" / "selfservice" / "ann_beats_dan_3_0.mat"
PLAYERS = ["Ann Archer", "Bob Baker", "Cat Cole", "Dan Dunn"]
PHONE = {"width": 375, "height": 812}


def email_of(name: str) -> str:
    return name.split()[0].lower() + "@example.org"


@pytest.fixture
def mail() -> Iterator[MailServer]:
    with running_smtp_server() as server:
        yield server


@pytest.fixture
def site(tmp_path: Path, mail: MailServer) -> Iterator[tuple[str, Path]]:
    with live_app(tmp_path, SMTP_HOST="127.0.0.1", SMTP_PORT=mail.port) as url:
        yield url, tmp_path / "tourney.db"


@pytest.fixture
def browser() -> Iterator[Any]:
    executable = require_chromium()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_FLAGS
        )
        try:
            yield launched
        finally:
            launched.close()


def tab(browser: Any, viewport: dict[str, int]) -> Any:
    """A page in a browser context of its own (its own cookies: its own phone)."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def phone_cup(database: Path) -> tuple[int, int]:
    """The demo director's "Phone Cup": four players with e-mail addresses, a seeded
    knockout to 3 points drawn (not yet published). Returns the event's and flight's ids."""
    engine = make_engine(f"sqlite:///{database}")
    with transaction(engine) as session:
        director = session.exec(select(User).where(User.email == "director@example.org")).one()
        actor = Actor(user_id=director.id, label=director.email, role=director.role)
        event = events.create_event(
            session, actor=actor, fields=events.EventFields(name="Phone Cup")
        )
        flight = events.add_flight(
            session, actor=actor, event_id=event.id,
            fields=events.FlightFields(name="Main", format="knockout", match_length=3),
        )
        for seed, name in enumerate(PLAYERS, start=1):
            player = roster.register_player(
                session, actor=actor, fields=roster.PlayerFields(name=name, email=email_of(name))
            )
            roster.enter_player(session, actor=actor, event_id=event.id, player_id=player.id,
                                seed=seed)
        draws.make_draw(session, actor=actor, flight_id=flight.id, method="seeded", seed=1)
    engine.dispose()
    return event.id, flight.id


def run_mail_worker(database: Path, mail: MailServer) -> str:
    """One pass of the queue worker, as a separate process, like a deployment runs it."""
    env = {
        **os.environ,
        "TOURNEY_DATABASE_URL": f"sqlite:///{database}",
        "TOURNEY_INSTANCE_PATH": str(database.parent),
        "TOURNEY_SECRET_KEY": "browser-tests",
        "TOURNEY_SMTP_HOST": "127.0.0.1",
        "TOURNEY_SMTP_PORT": str(mail.port),
        "TOURNEY_SMTP_FROM": "director@club.example",
    }
    done = subprocess.run(
        [sys.executable, "-m", "tourney", "mail", "work", "--once"],
        env=env, capture_output=True, text=True, timeout=120, check=True,
    )
    return done.stdout


def mails_to(mail: MailServer, address: str) -> list[ReceivedMail]:
    return [m for m in mail.received if m.recipients == [address]]


def link_in(message: ReceivedMail) -> str:
    found = re.search(r"http://127\.0\.0\.1:\d+/p/\S+", message.body)
    assert found is not None, message.body
    return found.group(0)


def results(database: Path, flight_id: int) -> dict[frozenset[str], tuple[str, int, int, str]]:
    """Each first-round match by its players: status, score (in seed order) and source."""
    from tourney.store.selfservice import _fe_names

    engine = make_engine(f"sqlite:///{database}")
    with Session(engine) as session:
        found = {}
        for match in session.exec(select(Match).where(Match.flight_id == flight_id)):
            if match.entry_a_id is None or match.entry_b_id is None:
                continue
            names = _fe_names(session, [match.entry_a_id, match.entry_b_id])
            found[frozenset(names.values())] = (
                str(match.status), match.score_a, match.score_b, match.result_source
            )
    engine.dispose()
    return found


def test_players_check_in_report_confirm_and_dispute_from_their_phones(
    browser: Any, site: tuple[str, Path], mail: MailServer
) -> None:
    base_url, database = site
    event_id, flight_id = phone_cup(database)

    # The director publishes the draw: every player's pairing and link go to the outbox.
    director = tab(browser, {"width": 1280, "height": 900})
    log_in(director, base_url)
    director.goto(f"{base_url}/director/flights/{flight_id}")
    director.get_by_role("button", name="Publish", exact=True).click()
    director.wait_for_load_state()
    run_mail_worker(database, mail)
    published = {m.recipients[0]: m for m in mail.received}
    assert sorted(published) == sorted(email_of(n) for n in PLAYERS)
    assert published["ann@example.org"].subject.startswith("Phone Cup: ")
    assert published["ann@example.org"].subject.endswith(" against Dan Dunn")
    assert published["bob@example.org"].subject.endswith(" against Cat Cole")
    assert "your opponent: Ann Archer" in published["dan@example.org"].body

    # The venue's printable QR code and where it leads.
    director.goto(f"{base_url}/director/events/{event_id}/check-in-poster")
    director.screenshot(path=str(screenshot_path("players-check-in-poster")), full_page=True)
    check_in_url = director.locator(".target").inner_text().strip()
    assert re.fullmatch(re.escape(base_url) + r"/events/[\w-]+/check-in", check_in_url)
    director.goto(f"{base_url}/director/events/{event_id}/self-service")
    assert "0 of 4 checked in" in director.locator("#check-ins").inner_text()

    # Ann and Dan open their links (from their mails) on their phones and check in by
    # scanning the venue's code.
    phones = {}
    for name in ("Ann Archer", "Dan Dunn"):
        phone = tab(browser, PHONE)
        phone.goto(link_in(published[email_of(name)]))
        assert "Not checked in yet." in phone.content()
        phone.goto(check_in_url)
        phone.get_by_role("button", name=f"Check in as {name}").click()
        phone.wait_for_load_state()
        assert "You are checked in." in phone.locator(".flashes").inner_text()
        phones[name] = phone
    phones["Ann Archer"].screenshot(path=str(screenshot_path("players-ann-home-phone")),
                                    full_page=True)
    # The director's open page sees them arrive without reloading (it polls).
    director.get_by_text("2 of 4 checked in").wait_for(timeout=20_000)
    director.screenshot(path=str(screenshot_path("players-director-check-ins")), full_page=True)

    # Ann reports game by game with the match file; Dan is mailed and confirms.
    ann = phones["Ann Archer"]
    ann.get_by_role("link", name="Report the result").click()
    ann.get_by_label("Game 1 won by").select_option("me")
    ann.get_by_label("Game 1 ended").select_option("dropped")
    ann.get_by_label("Game 2 won by").select_option("me")
    ann.get_by_label("Game 2 ended").select_option("played")
    ann.get_by_label("Game 2 result").select_option("gammon")
    ann.get_by_label("Match file (.mat), optional").set_input_files(str(MAT))
    ann.screenshot(path=str(screenshot_path("players-ann-report-phone")), full_page=True)
    ann.get_by_role("button", name="Report these games").click()
    ann.wait_for_load_state()
    assert "Result reported: Ann Archer 3, Dan Dunn 0" in ann.locator(".flashes").inner_text()
    run_mail_worker(database, mail)
    to_dan = [m for m in mails_to(mail, "dan@example.org") if "confirm" in m.subject]
    assert [m.subject for m in to_dan] == ["Phone Cup: confirm your result against Ann Archer"]
    assert "Game 2: Ann Archer, gammon, cube 1" in to_dan[0].body
    dan = phones["Dan Dunn"]
    dan.goto(link_in(to_dan[0]))
    dan.screenshot(path=str(screenshot_path("players-dan-confirm-phone")), full_page=True)
    dan.get_by_role("button", name="Confirm", exact=True).click()
    dan.wait_for_load_state()
    assert "Confirmed: the result is in." in dan.locator(".flashes").inner_text()
    assert "lost 0–3 against Ann Archer" in dan.locator(".results").inner_text()

    # Bob reports 3-1; Cat says she won 3-2 and disputes; the director decides for Cat.
    bob, cat = tab(browser, PHONE), tab(browser, PHONE)
    bob.goto(link_in(published["bob@example.org"]))
    bob.get_by_role("link", name="Report the result").click()
    bob.get_by_label("My points").fill("3")
    bob.get_by_label("Opponent's points").fill("1")
    bob.get_by_role("button", name="Report the score").click()
    bob.wait_for_load_state()
    run_mail_worker(database, mail)
    to_cat = [m for m in mails_to(mail, "cat@example.org") if "confirm" in m.subject]
    assert [m.subject for m in to_cat] == ["Phone Cup: confirm your result against Bob Baker"]
    cat.goto(link_in(to_cat[0]))
    cat.get_by_text("This is wrong: dispute it").click()
    cat.get_by_label("My points").fill("3")
    cat.get_by_label("Opponent's points").fill("2")
    cat.screenshot(path=str(screenshot_path("players-cat-dispute-phone")), full_page=True)
    cat.get_by_role("button", name="Dispute", exact=True).click()
    cat.wait_for_load_state()
    assert "the director will decide" in cat.locator(".flashes").inner_text()

    director.goto(f"{base_url}/director/events/{event_id}/self-service")
    queue = director.locator(".queue")
    assert "Bob Baker 3, Cat Cole 1" in queue.locator(".reported").inner_text()
    assert "Bob Baker 2, Cat Cole 3" in queue.locator(".counter").inner_text()
    director.screenshot(path=str(screenshot_path("players-director-dispute")), full_page=True)
    director.get_by_role("button", name="The opponent's version stands").click()
    director.wait_for_load_state()
    assert "The director confirmed the opponent's result." in director.locator(
        ".flashes").inner_text()
    assert "Nothing waits for you." in director.locator(".queue").inner_text()
    run_mail_worker(database, mail)

    # One result per match, each as its players (or the director) settled it; the
    # winners meet in the final.
    assert results(database, flight_id) == {
        frozenset({"Ann Archer", "Dan Dunn"}): ("finished", 3, 0, "record"),
        frozenset({"Bob Baker", "Cat Cole"}): ("finished", 2, 3, "score"),
        frozenset({"Ann Archer", "Cat Cole"}): ("ready", 0, 0, ""),
    }
    # Everything the mail server received, by recipient and subject.
    decided = sorted(
        (m.recipients[0], m.subject) for m in mail.received if "dispute decided" in m.subject
    )
    assert decided == [
        ("bob@example.org", "Phone Cup: dispute decided (Bob Baker v Cat Cole)"),
        ("cat@example.org", "Phone Cup: dispute decided (Bob Baker v Cat Cole)"),
    ]
    # The final got both its players: the worker told Ann and Cat of it.
    finals = sorted(
        (m.recipients[0], m.subject) for m in mail.received if "Final against" in m.subject
    )
    assert finals == [
        ("ann@example.org", "Phone Cup: Final against Cat Cole"),
        ("cat@example.org", "Phone Cup: Final against Ann Archer"),
    ]
    # Pairings, results to confirm, dispute decided, the final.
    assert len(mail.received) == 4 + 2 + 2 + 2
    assert all(
        "The result stands at: Bob Baker 2, Cat Cole 3." in m.body
        for m in mail.received if "dispute decided" in m.subject
    )
    outbox = director.goto(f"{base_url}/director/events/{event_id}/outbox")
    assert outbox is not None and outbox.status == 200
    assert director.locator("tr.mail-sent").count() == 10
    director.screenshot(path=str(screenshot_path("players-director-outbox")), full_page=True)


def test_players_register_online_and_the_waiting_list_moves_up(
    browser: Any, site: tuple[str, Path], mail: MailServer
) -> None:
    base_url, database = site
    engine = make_engine(f"sqlite:///{database}")
    with transaction(engine) as session:
        director = session.exec(select(User).where(User.email == "director@example.org")).one()
        actor = Actor(user_id=director.id, label=director.email, role=director.role)
        event_id = events.create_event(
            session, actor=actor, fields=events.EventFields(name="Open Cup")
        ).id
    engine.dispose()

    # The director opens registration for one place.
    desk = tab(browser, {"width": 1280, "height": 900})
    log_in(desk, base_url)
    desk.goto(f"{base_url}/director/events/{event_id}/registration")
    desk.get_by_label("Registration is open").check()
    desk.get_by_label("Places (empty: no limit; beyond them a waiting list forms)").fill("1")
    desk.get_by_role("button", name="Save").click()
    desk.wait_for_load_state()
    form_url = desk.locator("a", has_text="/register").inner_text()

    # Eve and Finn register on their phones and confirm from the mailed links.
    phones = {}
    for name in ("Eve Evans", "Finn Fox"):
        phone = tab(browser, PHONE)
        phone.goto(form_url)
        phone.get_by_label("Name").fill(name)
        phone.get_by_label("Club").fill("Fjordside BG")
        phone.get_by_label("E-mail address").fill(email_of(name))
        phone.get_by_label("Rating list id (optional)").fill("FJ-" + name[0])
        if name == "Eve Evans":
            phone.screenshot(path=str(screenshot_path("players-register-phone")), full_page=True)
        phone.get_by_role("button", name="Register").click()
        phone.wait_for_load_state()
        assert f"we sent a confirmation link to {email_of(name)}" in phone.content()
        phones[name] = phone
    run_mail_worker(database, mail)
    for name, expected in (("Eve Evans", "You are registered."),
                           ("Finn Fox", "you are on the waiting list")):
        (confirm,) = mails_to(mail, email_of(name))
        assert confirm.subject == "Open Cup: confirm your registration"
        found = re.search(r"http://\S+/register/confirm/\S+", confirm.body)
        assert found is not None
        phones[name].goto(found.group(0))
        phones[name].get_by_role("button", name="Confirm my registration").click()
        phones[name].wait_for_load_state()
        assert expected in phones[name].content()
    run_mail_worker(database, mail)
    assert [m.subject for m in mails_to(mail, "eve@example.org")][1:] == [
        "Open Cup: your registration is confirmed"
    ]
    assert [m.subject for m in mails_to(mail, "finn@example.org")][1:] == [
        "Open Cup: you are on the waiting list (1)"
    ]

    # Eve withdraws from her own page; Finn moves up and gets his link.
    eve = phones["Eve Evans"]
    eve.goto(link_in(mails_to(mail, "eve@example.org")[1]))
    eve.get_by_role("button", name="Withdraw from the event").click()
    eve.wait_for_load_state()
    assert "You have withdrawn." in eve.locator(".flashes").inner_text()
    run_mail_worker(database, mail)
    finn_mails = mails_to(mail, "finn@example.org")
    assert finn_mails[-1].subject == "Open Cup: your registration is confirmed"
    desk.goto(f"{base_url}/director/events/{event_id}/registration")
    rows = desk.locator("tbody tr").all_inner_texts()
    assert [r.split("\t")[0] for r in rows] == ["Eve Evans", "Finn Fox"]
    assert "withdrawn" in rows[0] and "registered" in rows[1] and "FJ-F" in rows[1]
    desk.screenshot(path=str(screenshot_path("players-director-registrations")), full_page=True)
