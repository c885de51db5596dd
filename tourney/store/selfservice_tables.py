"""The tables of players serving themselves: private links, result reports, registration,
and the mail outbox.

Terminology:
    player link   a player's private address in one event (``/p/<event>/<token>``): the
                  token is signed with the app's secret key and names the event, the entry
                  and the link's *generation*; revoking a link moves the generation, so
                  every older token stops working at once (``player_links``).
    report        a result one player of a match reports from their link (a final score,
                  games one by one, or a ``.mat`` record) for the opponent to confirm or
                  dispute; one per match (``result_reports``), changed in place.
    registration  a sign-up through the event's online form, confirmed by a link sent by
                  e-mail; it becomes an entry once confirmed (and approved, where the
                  director approves) and a place is free, else it waits in order.
    outbox        mails to send, written in the transaction of what they tell, sent by the
                  queue worker (``tourney mail work``) with retries; never in a request.

The tables are created by migration ``0016``; ``match_mails`` and registrations'
language by ``0021``.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, Column, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from tourney.store.types import UTCDateTime, utcnow


def _created() -> Any:
    return Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class ReportStatus(StrEnum):
    """Where a result report stands."""

    PENDING = "pending"
    """Waiting for the opponent."""
    CONFIRMED = "confirmed"
    """The opponent confirmed it; it is the match's result."""
    DISPUTED = "disputed"
    """The opponent disputed it; it waits in the director's queue."""
    RESOLVED = "resolved"
    """A director decided the dispute."""
    SUPERSEDED = "superseded"
    """The match got its result another way first (a director's entry); nothing applied."""


class RegistrationStatus(StrEnum):
    """Where an online registration stands."""

    UNCONFIRMED = "unconfirmed"
    """The e-mail address is not confirmed yet."""
    AWAITING_APPROVAL = "awaiting_approval"
    REGISTERED = "registered"
    """In the field: an entry of the event."""
    WAITING = "waiting"
    """On the waiting list (the field is full), in order of registration."""
    WITHDRAWN = "withdrawn"
    REJECTED = "rejected"


class MailStatus(StrEnum):
    """Where a mail of the outbox stands."""

    QUEUED = "queued"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"
    """Every attempt failed; the director's outbox page shows the last error."""


class PlayerLink(SQLModel, table=True):
    """The current generation of an entry's private link (no row: generation 1)."""

    __tablename__ = "player_links"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="events.id", index=True, ondelete="CASCADE")
    entry_id: int = Field(foreign_key="entries.id", unique=True, ondelete="CASCADE")
    generation: int = Field(default=1)
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    """When the link was last revoked (the newest generation is live again once sent)."""


class ResultReport(SQLModel, table=True):
    """A result reported by a player, for the opponent to confirm; one per match."""

    __tablename__ = "result_reports"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="events.id", index=True, ondelete="CASCADE")
    match_id: int = Field(foreign_key="matches.id", unique=True, ondelete="CASCADE")
    """Unique: a match has one report, so two players reporting at once meet on one row."""
    reporter_entry_id: int = Field(foreign_key="entries.id", ondelete="CASCADE")
    status: str = Field(default=ReportStatus.PENDING.value, max_length=16)
    content: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    """The reported result: ``{"kind": "score", "score": [a, b]}``, ``{"kind": "games",
    "games": [{"winner", "end", "cube", "level"}, ...]}`` or ``{"kind": "record",
    "filename", "games": [...], "score": [a, b]}`` (sides as the match's a and b)."""
    record_text: str | None = Field(default=None, sa_type=Text)
    """An uploaded ``.mat`` record, kept to be stored through the director's upload path."""
    counter: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    """The opponent's version, when they disputed (same form as ``content``)."""
    match_version: int
    """The match's version when reported: applying it refuses a match changed since."""
    responder_entry_id: int | None = Field(default=None, foreign_key="entries.id")
    outcome: str = Field(default="", max_length=500)
    """What happened on confirmation or decision (a conflict message, the rule's reason)."""
    created_at: datetime = _created()
    updated_at: datetime = _created()


class RegistrationSettings(SQLModel, table=True):
    """An event's online registration: open or not, capacity, approval, closing time."""

    __tablename__ = "registration_settings"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="events.id", unique=True, ondelete="CASCADE")
    is_open: bool = Field(default=False)
    capacity: int | None = Field(default=None)
    """None: no limit; otherwise a waiting list forms beyond it."""
    needs_approval: bool = Field(default=False)
    closes_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class Registration(SQLModel, table=True):
    """One online registration."""

    __tablename__ = "registrations"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="events.id", index=True, ondelete="CASCADE")
    name: str = Field(max_length=120)
    club: str = Field(default="", max_length=120)
    email: str = Field(max_length=254)
    rating_id: str = Field(default="", max_length=40)
    """The player's id on a rating list, as they typed it."""
    status: str = Field(default=RegistrationStatus.UNCONFIRMED.value, max_length=20)
    entry_id: int | None = Field(default=None, foreign_key="entries.id")
    created_at: datetime = _created()
    confirmed_at: datetime | None = Field(default=None, sa_type=UTCDateTime, index=True)
    """Registration order for the waiting list is confirmation order."""
    language: str = Field(default="", max_length=8, sa_column_kwargs={"server_default": ""})
    """The language the form was served in; the player's mails are written in it (none:
    English)."""


class OutboxMail(SQLModel, table=True):
    """A mail to send (or sent, or failed)."""

    __tablename__ = "mail_outbox"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int | None = Field(
        default=None, foreign_key="events.id", index=True, ondelete="CASCADE"
    )
    kind: str = Field(max_length=32)
    recipient: str = Field(max_length=254)
    subject: str = Field(max_length=200)
    body: str = Field(sa_type=Text)
    status: str = Field(default=MailStatus.QUEUED.value, max_length=16, index=True)
    attempts: int = Field(default=0)
    next_attempt_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, index=True)
    claimed_until: datetime | None = Field(default=None, sa_type=UTCDateTime)
    """A worker sending it holds it until then; after it, another worker may retry."""
    last_error: str = Field(default="", max_length=500)
    created_at: datetime = _created()
    sent_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class MatchMail(SQLModel, table=True):
    """A player has been told of a match (its pairing mail is queued): at most once per
    match and player, which the unique key holds even for two workers at once."""

    __tablename__ = "match_mails"
    __table_args__ = (
        UniqueConstraint("match_id", "flight_entry_id", name="uq_match_mails_match_entry"),
    )

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", ondelete="CASCADE")
    flight_entry_id: int = Field(foreign_key="flight_entries.id", ondelete="CASCADE")
    created_at: datetime = _created()
