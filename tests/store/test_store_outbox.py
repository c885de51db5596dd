"""The mail outbox: a worker pass sends due mails to a real SMTP server; failures are
retried later, each time after twice the delay, and end as failed with the error."""

from __future__ import annotations

import socket
from datetime import timedelta

from mailserver import MailServer, free_port
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from tourney.config import load_settings
from tourney.store import outbox
from tourney.store.db import transaction
from tourney.store.selfservice_tables import OutboxMail
from tourney.store.types import utcnow


def queue(engine: Engine, *recipients: str) -> None:
    with transaction(engine) as session:
        for n, recipient in enumerate(recipients, start=1):
            outbox.enqueue(
                session, event_id=None, kind="test", recipient=recipient,
                subject=f"Round {n} published", body=f"Table {n}",
            )


def mails(engine: Engine) -> list[tuple[str, str, int]]:
    with Session(engine) as session:
        rows = session.exec(select(OutboxMail).order_by(col(OutboxMail.id))).all()
        return [(r.recipient, r.status, r.attempts) for r in rows]


def test_a_worker_pass_sends_every_due_mail(engine: Engine, smtp_server: MailServer) -> None:
    queue(engine, "ann@example.org", "dan@example.org")
    settings = load_settings({"smtp_host": "127.0.0.1", "smtp_port": smtp_server.port,
                              "smtp_from": "director@club.example"})

    report = outbox.deliver_due(engine, settings)

    assert (report.sent, report.retried, report.failed) == (2, 0, 0)
    assert [(m.recipients, m.subject, m.body.strip()) for m in smtp_server.received] == [
        (["ann@example.org"], "Round 1 published", "Table 1"),
        (["dan@example.org"], "Round 2 published", "Table 2"),
    ]
    assert mails(engine) == [("ann@example.org", "sent", 1), ("dan@example.org", "sent", 1)]
    # Sent mails are not sent again.
    assert outbox.deliver_due(engine, settings).sent == 0


def test_an_unreachable_server_is_retried_with_a_doubling_delay_then_failed(
    engine: Engine,
) -> None:
    queue(engine, "ann@example.org")
    settings = load_settings({"smtp_host": "127.0.0.1", "smtp_port": free_port()})
    start = utcnow()
    waits = []
    now = start
    for _ in range(outbox.MAX_ATTEMPTS):
        outbox.deliver_due(engine, settings, now=now)
        with Session(engine) as session:
            mail = session.exec(select(OutboxMail)).one()
        if mail.status == "failed":
            break
        waits.append(round((mail.next_attempt_at - now).total_seconds()))
        # Nothing is due before the delay is over.
        assert outbox.deliver_due(engine, settings, now=now + timedelta(seconds=1)).retried == 0
        now = mail.next_attempt_at
    # 60 s after the first failure, then 2, 4, 8, 16 minutes; the sixth failure is final.
    assert waits == [60, 120, 240, 480, 960]
    assert (mail.status, mail.attempts) == ("failed", 6)
    assert "ConnectionRefusedError" in mail.last_error


def test_a_server_that_never_answers_costs_one_timeout_and_a_retry(engine: Engine) -> None:
    queue(engine, "ann@example.org")
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        settings = load_settings({"smtp_host": "127.0.0.1",
                                  "smtp_port": silent.getsockname()[1],
                                  "smtp_timeout_seconds": 1})
        report = outbox.deliver_due(engine, settings)
    assert (report.sent, report.retried) == (0, 1)
    assert mails(engine) == [("ann@example.org", "queued", 1)]
