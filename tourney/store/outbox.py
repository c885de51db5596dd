"""The mail outbox: mails are written in the transaction of what they tell, and a queue
worker sends them (``tourney mail work``), never a request.

A worker *claims* due mails in a short transaction (status ``sending``, held until
``claimed_until``), sends them with no transaction open, then records each outcome. A
failed attempt is retried after a backoff that doubles each time (``RETRY_BASE_SECONDS``
× 2^(attempt-1)); after ``MAX_ATTEMPTS`` the mail is ``failed`` and the director's outbox
page shows the last error. A worker that dies mid-send leaves its claim to expire, and
another worker retries those mails: a mail may in rare cases go out twice, never not at all.
Several workers on one PostgreSQL database skip each other's locked rows.
"""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, or_, select

from tourney.config import Settings
from tourney.rules.messages import N_, Message
from tourney.store.audit import Actor
from tourney.store.db import transaction
from tourney.store.permissions import require_event
from tourney.store.selfservice_tables import MailStatus, OutboxMail
from tourney.store.types import utcnow

MAX_ATTEMPTS = 6
RETRY_BASE_SECONDS = 60
CLAIM_SECONDS = 300
"""How long a worker holds the mails it claimed (longer than any send takes)."""
BATCH = 50
"""Mails one worker claims at a time."""
OUTBOX_PAGE = 200
STATUS_NAMES = {
    MailStatus.QUEUED.value: N_("queued"),
    MailStatus.SENDING.value: N_("sending"),
    MailStatus.SENT.value: N_("sent"),
    MailStatus.FAILED.value: N_("failed"),
}
"""Each mail status in words, as the outbox page shows it."""


@dataclass(frozen=True)
class OutboxRow:
    """A mail as the director's outbox page lists it."""

    id: int
    kind: str
    recipient: str
    subject: str
    status: str
    attempts: int
    last_error: str
    created_at: datetime
    sent_at: datetime | None

    @property
    def status_label(self) -> str:
        """The status in words, translatable."""
        return STATUS_NAMES.get(self.status, self.status)


@dataclass(frozen=True)
class DeliveryReport:
    """What one worker pass did."""

    sent: int
    retried: int
    failed: int


def enqueue(
    session: Session, *, event_id: int | None, kind: str, recipient: str, subject: str, body: str
) -> OutboxMail | None:
    """Add a mail to the outbox in the caller's transaction; none for an empty address."""
    if not recipient:
        return None
    mail = OutboxMail(
        event_id=event_id, kind=kind, recipient=recipient[:254], subject=subject[:200], body=body
    )
    session.add(mail)
    return mail


def outbox_rows(session: Session, actor: Actor, event_id: int) -> list[OutboxRow]:
    """The event's mails, newest first (its directors only).

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not one of its directors.
    """
    require_event(session, actor, event_id, manage=True)
    rows = session.exec(
        select(OutboxMail)
        .where(OutboxMail.event_id == event_id)
        .order_by(col(OutboxMail.id).desc())
        .limit(OUTBOX_PAGE)
    )
    return [
        OutboxRow(
            r.id or 0, r.kind, r.recipient, r.subject, r.status, r.attempts, r.last_error,
            r.created_at, r.sent_at,
        )
        for r in rows
    ]


def _claim(engine: Engine, now: datetime) -> list[tuple[int, str, str, str]]:
    with transaction(engine) as session:
        due = (
            select(OutboxMail)
            .where(
                or_(
                    (col(OutboxMail.status) == MailStatus.QUEUED.value)
                    & (col(OutboxMail.next_attempt_at) <= now),
                    (col(OutboxMail.status) == MailStatus.SENDING.value)
                    & (col(OutboxMail.claimed_until) <= now),
                )
            )
            .order_by(col(OutboxMail.id))
            .limit(BATCH)
            .with_for_update(skip_locked=True)
        )
        claimed = []
        for mail in session.exec(due):
            mail.status = MailStatus.SENDING.value
            mail.claimed_until = now + timedelta(seconds=CLAIM_SECONDS)
            claimed.append((mail.id or 0, mail.recipient, mail.subject, mail.body))
        return claimed


def _message(settings: Settings, recipient: str, subject: str, body: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = settings.smtp_from
    message["To"] = recipient
    message["Subject"] = subject
    message.set_content(body)
    return message


def _send_all(settings: Settings, mails: list[tuple[int, str, str, str]]) -> dict[int, str]:
    """Send the mails over one SMTP connection; returns the error of each that failed."""
    errors: dict[int, str] = {}
    try:
        with smtplib.SMTP(
            settings.smtp_host, settings.smtp_port, timeout=settings.smtp_timeout_seconds
        ) as smtp:
            if settings.smtp_starttls:
                smtp.starttls(context=ssl.create_default_context())
            if settings.smtp_user:
                smtp.login(settings.smtp_user, settings.smtp_password)
            for mail_id, recipient, subject, body in mails:
                try:
                    smtp.send_message(_message(settings, recipient, subject, body))
                except (smtplib.SMTPException, ValueError) as error:
                    errors[mail_id] = f"{type(error).__name__}: {error}"
    except (OSError, smtplib.SMTPException) as error:
        for mail_id, *_ in mails:
            errors.setdefault(mail_id, f"{type(error).__name__}: {error}")
    return errors


def deliver_due(
    engine: Engine, settings: Settings, *, now: datetime | None = None
) -> DeliveryReport:
    """Send every due mail of the outbox (one worker pass) and record each outcome."""
    now = now or utcnow()
    sent = retried = failed = 0
    while True:
        mails = _claim(engine, now)
        if not mails:
            return DeliveryReport(sent, retried, failed)
        unconfigured = Message("No mail server configured (TOURNEY_SMTP_HOST).")
        errors = _send_all(settings, mails) if settings.smtp_host else {
            mail_id: unconfigured for mail_id, *_ in mails
        }
        with transaction(engine) as session:
            for mail_id, *_ in mails:
                mail = session.get(OutboxMail, mail_id)
                if mail is None:
                    continue
                mail.attempts += 1
                mail.claimed_until = None
                if mail_id not in errors:
                    mail.status = MailStatus.SENT.value
                    mail.sent_at = utcnow()
                    mail.last_error = ""
                    sent += 1
                elif mail.attempts >= MAX_ATTEMPTS:
                    mail.status = MailStatus.FAILED.value
                    mail.last_error = errors[mail_id][:500]
                    failed += 1
                else:
                    mail.status = MailStatus.QUEUED.value
                    mail.last_error = errors[mail_id][:500]
                    backoff = RETRY_BASE_SECONDS * 2 ** (mail.attempts - 1)
                    mail.next_attempt_at = now + timedelta(seconds=backoff)
                    retried += 1
