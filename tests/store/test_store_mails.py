"""Mails the worker and the players' actions queue: "your next match is ready" when a
knockout match gets both its players, once per match and player, and every mail in the
language the player registered in.

Expected subjects and bodies are written by hand: a seeded knockout of four (Ann v Dan and
Bob v Cat, to 3 points) whose final is Ann v Cat once Ann and Cat win their semifinals;
the German words are the ones a German club would write ("Finale gegen", "Ihre Anmeldung
ist bestätigt").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from gettext import NullTranslations
from typing import TYPE_CHECKING

import pytest
from mailserver import MailServer
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select
from test_store_registration import open_event
from test_store_selfservice import LINKS, Published, grant_of, publish_four

from tourney import i18n
from tourney.config import load_settings
from tourney.store import outbox, registration, results, selfservice
from tourney.store.db import transaction
from tourney.store.selfservice_tables import MatchMail, OutboxMail, Registration
from tourney.store.tables import Match
from tourney.store.types import utcnow

if TYPE_CHECKING:
    from conftest import BuiltEvent


def published_with_mails(
    engine: Engine, build_event: Callable[..., BuiltEvent], name: str
) -> tuple[Published, datetime]:
    """The four-player knockout, published the way the director's button publishes it
    (pairing mails queued in the same transaction)."""
    since = utcnow()
    event = publish_four(engine, build_event, name)
    with transaction(engine) as session:
        selfservice.mail_published_rounds(
            session, flight_id=event.built.flights["Main"], since=since, links=LINKS
        )
    return event, since


def worker_pass(engine: Engine) -> int:
    with transaction(engine) as session:
        return selfservice.queue_next_match_mails(session, links=LINKS)


def queued(engine: Engine, kind: str) -> list[tuple[str, str]]:
    with Session(engine) as session:
        rows = session.exec(
            select(OutboxMail).where(OutboxMail.kind == kind).order_by(col(OutboxMail.id))
        ).all()
        return sorted((r.recipient, r.subject) for r in rows)


def body_to(engine: Engine, kind: str, recipient: str) -> str:
    with Session(engine) as session:
        return session.exec(
            select(OutboxMail.body).where(
                OutboxMail.kind == kind, OutboxMail.recipient == recipient
            )
        ).one()


def final_id(engine: Engine, event: Published) -> int:
    with Session(engine) as session:
        rows = session.exec(
            select(Match).where(Match.flight_id == event.built.flights["Main"])
        ).all()
        others = [m.id for m in rows if m.id not in (event.ann_v_dan, event.bob_v_cat)]
        assert len(others) == 1
        return others[0] or 0


def win_semifinals(engine: Engine, event: Published) -> None:
    """Ann beats Dan 3-1 by the director's entry; Cat beats Bob 3-0 by Cat's report,
    which Bob confirms."""
    with transaction(engine) as session:
        results.record_final_score(
            session, actor=event.built.director.actor, match_id=event.ann_v_dan,
            score_a=3, score_b=1,
        )
    # One semifinal decided: the final has one player, nobody is mailed.
    assert worker_pass(engine) == 0
    cat, bob = grant_of(engine, event, "Cat Cole"), grant_of(engine, event, "Bob Baker")
    with transaction(engine) as session:
        report = selfservice.report_result(
            session, grant=cat, match_id=event.bob_v_cat, score=(0, 3), links=LINKS
        )
    with transaction(engine) as session:
        assert selfservice.confirm_report(
            session, grant=bob, report_id=report.id, links=LINKS
        ).applied


def test_the_finalists_are_told_once_after_both_semifinals(
    engine: Engine, build_event: Callable[..., BuiltEvent], smtp_server: MailServer
) -> None:
    event, _ = published_with_mails(engine, build_event, "Monday Cup")
    # Publication told the four semifinalists; the worker has nobody left to tell.
    assert queued(engine, "round_published") == [
        ("ann@example.org", "Monday Cup: Semifinal against Dan Dunn"),
        ("bob@example.org", "Monday Cup: Semifinal against Cat Cole"),
        ("cat@example.org", "Monday Cup: Semifinal against Bob Baker"),
        ("dan@example.org", "Monday Cup: Semifinal against Ann Archer"),
    ]
    assert worker_pass(engine) == 0

    win_semifinals(engine, event)

    assert worker_pass(engine) == 2
    assert queued(engine, "next_match") == [
        ("ann@example.org", "Monday Cup: Final against Cat Cole"),
        ("cat@example.org", "Monday Cup: Final against Ann Archer"),
    ]
    ann_body = body_to(engine, "next_match", "ann@example.org")
    assert ann_body.startswith("Hello Ann Archer,\n\nYour next match is ready.\n\n")
    assert "Monday Cup, Main, Final:\n  your opponent: Cat Cole\n  match to 3 points\n" in (
        ann_body
    )
    # Later passes, and the pass after the mails went out, tell nobody again.
    assert worker_pass(engine) == 0
    settings = load_settings({"smtp_host": "127.0.0.1", "smtp_port": smtp_server.port,
                              "smtp_from": "director@club.example"})
    assert outbox.deliver_due(engine, settings).failed == 0
    assert worker_pass(engine) == 0
    finals = [(m.recipients, m.subject) for m in smtp_server.received if "Final " in m.subject]
    assert sorted(finals) == [
        (["ann@example.org"], "Monday Cup: Final against Cat Cole"),
        (["cat@example.org"], "Monday Cup: Final against Ann Archer"),
    ]


def test_a_corrected_semifinal_tells_the_new_finalist_only(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event, _ = published_with_mails(engine, build_event, "Monday Cup")
    win_semifinals(engine, event)
    assert worker_pass(engine) == 2
    # The director corrects Ann v Dan to a 1-3 win for Dan: Dan now meets Cat in the final.
    with transaction(engine) as session:
        version = session.get(Match, event.ann_v_dan).version  # type: ignore[union-attr]
        results.record_final_score(
            session, actor=event.built.director.actor, match_id=event.ann_v_dan,
            score_a=1, score_b=3, expected_version=version, confirm_cascade=True,
        )
    assert worker_pass(engine) == 1
    assert queued(engine, "next_match") == [
        ("ann@example.org", "Monday Cup: Final against Cat Cole"),
        ("cat@example.org", "Monday Cup: Final against Ann Archer"),
        ("dan@example.org", "Monday Cup: Final against Cat Cole"),
    ]


def test_a_publication_without_mails_is_caught_up_by_the_worker(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # Published with no pairing mails (as the demo does): the worker tells each of the
    # four semifinalists once; the final, without players yet, waits.
    publish_four(engine, build_event, "Monday Cup")
    assert worker_pass(engine) == 4
    assert worker_pass(engine) == 0
    assert [s for _, s in queued(engine, "next_match")] == [
        "Monday Cup: Semifinal against Dan Dunn",
        "Monday Cup: Semifinal against Cat Cole",
        "Monday Cup: Semifinal against Bob Baker",
        "Monday Cup: Semifinal against Ann Archer",
    ]


def test_a_player_registered_in_german_gets_german_mails(
    engine: Engine, build_event: Callable[..., BuiltEvent], smtp_server: MailServer
) -> None:
    _, slug = open_event(engine, build_event, name="Open Cup")
    with transaction(engine) as session:
        registration.register(
            session, slug=slug, name="Greta Graf", club="", email="greta@example.org",
            rating_id="", links=LINKS, language="de",
        )
        registration.register(
            session, slug=slug, name="Hal Hill", club="", email="hal@example.org",
            rating_id="", links=LINKS,
        )
    with Session(engine) as session:
        greta_body = session.exec(
            select(OutboxMail.body).where(OutboxMail.recipient == "greta@example.org")
        ).one()
    found = re.search(r"/register/confirm/(\S+)", greta_body)
    assert found is not None
    token = found.group(1)
    with transaction(engine) as session:
        registration.confirm_registration(session, slug=slug, token=token, links=LINKS)
    settings = load_settings({"smtp_host": "127.0.0.1", "smtp_port": smtp_server.port,
                              "smtp_from": "director@club.example"})

    assert outbox.deliver_due(engine, settings).sent == 3

    received = sorted((m.recipients[0], m.subject) for m in smtp_server.received)
    assert received == [
        ("greta@example.org", "Open Cup: Bitte bestätigen Sie Ihre Anmeldung"),
        ("greta@example.org", "Open Cup: Ihre Anmeldung ist bestätigt"),
        ("hal@example.org", "Open Cup: confirm your registration"),
    ]
    confirmed = next(m for m in smtp_server.received if "bestätigt" in m.subject)
    assert confirmed.body.replace("\r\n", "\n").startswith(
        "Hallo Greta Graf,\n\nSie sind für Open Cup angemeldet.\n"
        "Ihre persönliche Seite (Einchecken, Ihre Matches, Ergebnisse melden; "
        "geben Sie sie nicht weiter):\n"
    )
    with Session(engine) as session:
        languages = sorted(session.exec(select(Registration.language)).all())
    assert languages == ["de", "en"]


def test_a_german_finalist_is_told_in_german(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event, _ = published_with_mails(engine, build_event, "Monday Cup")
    with transaction(engine) as session:
        # Ann came through the German registration form.
        session.add(Registration(
            event_id=event.built.event_id, name="Ann Archer", email="ann@example.org",
            status="registered", entry_id=event.built.entries["Ann Archer"], language="de",
        ))
    win_semifinals(engine, event)
    assert worker_pass(engine) == 2
    assert queued(engine, "next_match") == [
        ("ann@example.org", "Monday Cup: Finale gegen Cat Cole"),
        ("cat@example.org", "Monday Cup: Final against Ann Archer"),
    ]
    ann_body = body_to(engine, "next_match", "ann@example.org")
    assert ann_body.startswith(
        "Hallo Ann Archer,\n\nIhr nächstes Match ist bereit.\n\n"
        "Monday Cup, Main, Finale:\n  Ihr Gegner: Cat Cole\n  Match auf 3 Punkte\n"
    )
    assert "Ihre Seite (einchecken, Ergebnis melden):" in ann_body


def test_a_worker_that_missed_another_workers_record_mails_nobody_twice(
    engine: Engine, build_event: Callable[..., BuiltEvent], monkeypatch: pytest.MonkeyPatch
) -> None:
    event, _ = published_with_mails(engine, build_event, "Monday Cup")
    win_semifinals(engine, event)
    final = final_id(engine, event)
    with transaction(engine) as session:
        # Another worker has just recorded Ann as told of the final...
        match = session.get(Match, final)
        assert match is not None
        names = selfservice._fe_names(session, [match.entry_a_id, match.entry_b_id])
        ann = next(fe for fe, name in names.items() if name == "Ann Archer")
        session.add(MatchMail(match_id=final, flight_entry_id=ann))
    # ...after this worker read who was told: it would tell Ann again, and skips the final.
    with monkeypatch.context() as patched:
        patched.setattr(selfservice, "_told", lambda *_: set())
        assert worker_pass(engine) == 0
    assert queued(engine, "next_match") == []
    # The next pass tells Cat, the one still untold.
    assert worker_pass(engine) == 1
    assert queued(engine, "next_match") == [
        ("cat@example.org", "Monday Cup: Final against Ann Archer"),
    ]


# --- a dispute decided ---------------------------------------------------------------

DECIDED_FOR_THE_OPPONENT = "The director confirmed the opponent's result."
"""The English sentence a "counter" decision is told with, written out by hand."""


def decide_bob_v_cat_for_cat(engine: Engine, event: Published) -> None:
    """Bob reports 3-1 for himself, Cat disputes it with 3-2 for her ((2, 3) in the
    match's order, Bob being side a), and the director lets Cat's version stand."""
    bob, cat = grant_of(engine, event, "Bob Baker"), grant_of(engine, event, "Cat Cole")
    with transaction(engine) as session:
        report = selfservice.report_result(
            session, grant=bob, match_id=event.bob_v_cat, score=(3, 1), links=LINKS
        )
    with transaction(engine) as session:
        selfservice.dispute_report(
            session, grant=cat, report_id=report.id, score=(2, 3), links=LINKS
        )
    with transaction(engine) as session:
        selfservice.decide_dispute(
            session, actor=event.built.director.actor, report_id=report.id,
            decision="counter", links=LINKS,
        )


def cat_registered_in_german(engine: Engine, event: Published) -> None:
    with transaction(engine) as session:
        session.add(Registration(
            event_id=event.built.event_id, name="Cat Cole", email="cat@example.org",
            status="registered", entry_id=event.built.entries["Cat Cole"], language="de",
        ))


def test_a_decided_dispute_is_told_to_each_player_in_their_language(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    """Bob (added by the director) is told in English; Cat, who registered through the
    German form, in German: her greeting, the result (Bob 2, Cat 3, as she said) and the
    link's line are the catalogue's German words."""
    event = publish_four(engine, build_event, "Monday Cup")
    cat_registered_in_german(engine, event)
    decide_bob_v_cat_for_cat(engine, event)

    bob_body = body_to(engine, "dispute_decided", "bob@example.org")
    cat_body = body_to(engine, "dispute_decided", "cat@example.org")
    assert bob_body.splitlines()[:5] == [
        "Hello Bob Baker,",
        "",
        "The director decided the disputed result of Bob Baker v Cat Cole at Monday Cup.",
        DECIDED_FOR_THE_OPPONENT,
        "The result stands at: Bob Baker 2, Cat Cole 3.",
    ]
    assert cat_body.startswith("Hallo Cat Cole,\n")
    assert "Das Ergebnis lautet: Bob Baker 2, Cat Cole 3." in cat_body
    assert "Ihre Seite:" in cat_body


def test_the_decision_sentence_is_taken_from_the_players_catalogue(
    engine: Engine, build_event: Callable[..., BuiltEvent], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a German catalogue that knows the decision sentence, Cat's mail says it in
    German and nowhere in English: the sentence is a message of the core catalogue like
    the mail's other lines, not stored English text copied into the mail."""
    german = "Die Turnierleitung hat das Ergebnis Ihres Gegners bestätigt."
    real = i18n.core_catalogue

    class KnowsTheDecision(NullTranslations):
        def __init__(self, code: str) -> None:
            super().__init__()
            self.code = code

        def gettext(self, message: str) -> str:
            if self.code == "de" and message == DECIDED_FOR_THE_OPPONENT:
                return german
            return real(self.code).gettext(message)

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            return real(self.code).ngettext(singular, plural, n)

    monkeypatch.setattr(i18n, "core_catalogue", KnowsTheDecision)
    event = publish_four(engine, build_event, "Monday Cup")
    cat_registered_in_german(engine, event)
    decide_bob_v_cat_for_cat(engine, event)

    cat_lines = body_to(engine, "dispute_decided", "cat@example.org").splitlines()
    assert german in cat_lines
    assert DECIDED_FOR_THE_OPPONENT not in cat_lines
    assert DECIDED_FOR_THE_OPPONENT in body_to(engine, "dispute_decided", "bob@example.org")


def test_a_german_players_mail_about_a_decided_dispute_has_no_english_decision(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    """With the shipped German catalogue: Cat's mail carries no English decision
    sentence."""
    event = publish_four(engine, build_event, "Monday Cup")
    cat_registered_in_german(engine, event)
    decide_bob_v_cat_for_cat(engine, event)

    assert DECIDED_FOR_THE_OPPONENT not in body_to(engine, "dispute_decided", "cat@example.org")
