"""Online registration: an event's sign-up form, e-mail confirmation, capacity and the
waiting list, the director's approval, withdrawal with promotion from the waiting list.

A registration is made unconfirmed and a mail with a signed confirmation link goes to the
address given (``tourney.store.outbox``). Confirming it places the player: awaiting the
director's approval where the event asks for it, else in the field while there is room
(an entry of the event, with a roster player made for them), else on the waiting list,
in order of confirmation. When a registered player withdraws (from their own link, or the
director for them), the first on the waiting list moves up at once and is told by mail.
Every step writes an audit entry; a player acting through a link is named as such.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, func, select

from tourney.i18n import DEFAULT_LANGUAGE, LANGUAGE_CODES, translate
from tourney.rules.messages import N_, Message
from tourney.store import outbox
from tourney.store.audit import Actor, record
from tourney.store.errors import ConflictError, NotFoundError, StoreUserError
from tourney.store.permissions import require_event
from tourney.store.selfservice import CONFIRM_PATH, LinkMaker, PlayerGrant, link_for_entry
from tourney.store.selfservice_tables import (
    Registration,
    RegistrationSettings,
    RegistrationStatus,
)
from tourney.store.tables import Entry, EntryStatus, Event, EventStatus, FlightEntry, Player
from tourney.store.types import utcnow

MAX_CAPACITY = 10_000
FORM_ACTOR_LABEL = "registration form"
STATUS_NAMES = {
    RegistrationStatus.UNCONFIRMED.value: N_("unconfirmed"),
    RegistrationStatus.AWAITING_APPROVAL.value: N_("awaiting approval"),
    RegistrationStatus.REGISTERED.value: N_("registered"),
    RegistrationStatus.WAITING.value: N_("waiting"),
    RegistrationStatus.WITHDRAWN.value: N_("withdrawn"),
    RegistrationStatus.REJECTED.value: N_("rejected"),
}
"""Each status in words, as the director's pages show it."""


def status_name(status: str) -> str:
    """A registration's status in words (``awaiting approval``), translatable."""
    return STATUS_NAMES.get(status, status.replace("_", " "))


@dataclass(frozen=True)
class RegistrationPage:
    """The event's sign-up page: whether it is open and how full."""

    event_id: int
    slug: str
    event_name: str
    is_open: bool
    closed_reason: str
    capacity: int | None
    registered: int
    waiting: int
    closes_at: datetime | None
    needs_approval: bool


@dataclass(frozen=True)
class RegistrationRow:
    """A registration as the director lists it."""

    id: int
    name: str
    club: str
    email: str
    rating_id: str
    status: str
    position: int | None
    """Place on the waiting list (1 = next to move up)."""

    @property
    def status_label(self) -> str:
        """The status in words, translatable."""
        return status_name(self.status)


def _settings(session: Session, event_id: int) -> RegistrationSettings | None:
    return session.exec(
        select(RegistrationSettings).where(RegistrationSettings.event_id == event_id)
    ).first()


def _count(session: Session, event_id: int, status: RegistrationStatus) -> int:
    return session.exec(
        select(func.count()).select_from(Registration).where(
            Registration.event_id == event_id, Registration.status == status.value
        )
    ).one()


def _event_by_slug(session: Session, slug: str) -> Event:
    event = session.exec(select(Event).where(Event.slug == slug)).first()
    if event is None:
        raise NotFoundError(Message("No such event."))
    return event


def registration_page(
    session: Session, *, slug: str, now: datetime | None = None
) -> RegistrationPage:
    """The sign-up page of an event that has (or had) online registration.

    Raises:
        NotFoundError: no such event, or it never opened registration.
    """
    event = _event_by_slug(session, slug)
    settings = _settings(session, event.id or 0)
    if settings is None:
        raise NotFoundError(Message("This event has no online registration."))
    now = now or utcnow()
    reason: str = ""
    if not settings.is_open:
        reason = Message("Registration is not open.")
    elif settings.closes_at is not None and settings.closes_at <= now:
        reason = Message(
            "Registration closed at %(time)s UTC.", time=f"{settings.closes_at:%Y-%m-%d %H:%M}"
        )
    elif event.status == EventStatus.FINISHED:
        reason = Message("The event is finished.")
    return RegistrationPage(
        event.id or 0, event.slug, event.name, not reason, reason, settings.capacity,
        _count(session, event.id or 0, RegistrationStatus.REGISTERED),
        _count(session, event.id or 0, RegistrationStatus.WAITING),
        settings.closes_at, settings.needs_approval,
    )


def set_registration(
    session: Session,
    *,
    actor: Actor,
    event_id: int,
    is_open: bool,
    capacity: int | None,
    needs_approval: bool,
    closes_at: datetime | None,
) -> None:
    """Open, close or change an event's online registration.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not one of its directors.
        StoreUserError: a capacity below 1 or above ``MAX_CAPACITY``.
    """
    require_event(session, actor, event_id, manage=True)
    if capacity is not None and not 1 <= capacity <= MAX_CAPACITY:
        raise StoreUserError(
            Message("A capacity is 1 to %(largest)s players, or none.", largest=MAX_CAPACITY),
            field="capacity",
        )
    row = _settings(session, event_id)
    if row is None:
        row = RegistrationSettings(event_id=event_id)
        session.add(row)
    row.is_open, row.capacity = is_open, capacity
    row.needs_approval, row.closes_at = needs_approval, closes_at
    session.flush()
    record(
        session, actor=actor, action="registration.settings", entity_type="event",
        entity_id=event_id, event_id=event_id,
        after={"is_open": is_open, "capacity": capacity, "needs_approval": needs_approval,
               "closes_at": None if closes_at is None else closes_at.isoformat()},
    )


def register(
    session: Session,
    *,
    slug: str,
    name: str,
    club: str,
    email: str,
    rating_id: str,
    links: LinkMaker,
    language: str = DEFAULT_LANGUAGE,
    now: datetime | None = None,
) -> int:
    """A sign-up through the event's form; a confirmation link goes to ``email``.

    ``language`` is the one the form was served in: this mail and every later one to the
    player are written in it.

    Raises:
        NotFoundError: no such event or no registration.
        StoreUserError: registration is closed, a field is missing or malformed, or the
            address is registered already.
    """
    page = registration_page(session, slug=slug, now=now)
    if not page.is_open:
        raise StoreUserError(page.closed_reason)
    name, club, email = " ".join(name.split()), " ".join(club.split()), email.strip()
    if not name:
        raise StoreUserError(Message("Give your name."), field="name")
    if "@" not in email or " " in email or len(email) > 254:
        raise StoreUserError(Message("Give an e-mail address you can read."), field="email")
    taken = session.exec(
        select(Registration.id).where(
            Registration.event_id == page.event_id,
            func.lower(Registration.email) == email.lower(),
            col(Registration.status).not_in(
                [RegistrationStatus.WITHDRAWN.value, RegistrationStatus.REJECTED.value]
            ),
        )
    ).first()
    if taken is not None:
        raise StoreUserError(
            Message("This address is registered already; the confirmation mail went to it."),
            field="email",
        )
    row = Registration(
        event_id=page.event_id, name=name[:120], club=club[:120], email=email,
        rating_id=rating_id.strip()[:40],
        language=language if language in LANGUAGE_CODES else DEFAULT_LANGUAGE,
    )
    session.add(row)
    session.flush()
    record(
        session, actor=Actor(None, f"{FORM_ACTOR_LABEL}: {email}"[:254], "scorer"),
        action="registration.create", entity_type="registration", entity_id=row.id,
        event_id=page.event_id,
        after={"name": row.name, "club": row.club, "email": email, "rating_id": row.rating_id},
    )
    url = links.root + CONFIRM_PATH.format(
        slug=slug, token=links.registration_token(row.id or 0)
    )
    outbox.enqueue(
        session, event_id=page.event_id, kind="registration_confirm", recipient=email,
        subject=translate(
            Message("%(event)s: confirm your registration", event=page.event_name), row.language
        ),
        body="\n".join([
            translate(Message("Hello %(name)s,", name=row.name), row.language),
            "",
            translate(Message(
                "Please confirm your registration for %(event)s by opening this link:",
                event=page.event_name,
            ), row.language),
            url,
            "",
            translate(Message("If you did not register, ignore this mail."), row.language),
        ]),
    )
    return row.id or 0


def _place(session: Session, row: Registration, links: LinkMaker, actor: Actor) -> None:
    """Put a confirmed (and approved) registration in the field, or on the waiting list."""
    event = session.get(Event, row.event_id)
    settings = _settings(session, row.event_id)
    assert event is not None and settings is not None
    full = settings.capacity is not None and _count(
        session, row.event_id, RegistrationStatus.REGISTERED
    ) >= settings.capacity
    if full:
        row.status = RegistrationStatus.WAITING.value
        session.flush()
        position = _waiting_position(session, row)
        outbox.enqueue(
            session, event_id=row.event_id, kind="registration_waiting", recipient=row.email,
            subject=translate(Message(
                "%(event)s: you are on the waiting list (%(position)s)",
                event=event.name, position=position,
            ), row.language),
            body="\n".join([
                translate(Message("Hello %(name)s,", name=row.name), row.language),
                "",
                translate(Message(
                    "%(event)s is full; you are number %(position)s on the waiting list.",
                    event=event.name, position=position,
                ), row.language),
                translate(
                    Message("You will get a mail as soon as a place is yours."), row.language
                ),
            ]),
        )
        return
    player = Player(name=row.name, email=row.email, added_by_id=event.owner_id)
    session.add(player)
    session.flush()
    entry = Entry(event_id=row.event_id, player_id=player.id or 0)
    session.add(entry)
    session.flush()
    row.status, row.entry_id = RegistrationStatus.REGISTERED.value, entry.id
    session.flush()
    record(
        session, actor=actor, action="entry.create", entity_type="entry", entity_id=entry.id,
        event_id=row.event_id, after={"registration_id": row.id, "name": row.name},
    )
    outbox.enqueue(
        session, event_id=row.event_id, kind="registration_confirmed", recipient=row.email,
        subject=translate(
            Message("%(event)s: your registration is confirmed", event=event.name), row.language
        ),
        body="\n".join([
            translate(Message("Hello %(name)s,", name=row.name), row.language),
            "",
            translate(Message("You are registered for %(event)s.", event=event.name), row.language),
            translate(Message(
                "Your own page (check-in, your matches, reporting results; keep it private):"
            ), row.language),
            link_for_entry(session, links, entry.id or 0),
        ]),
    )


def _waiting_position(session: Session, row: Registration) -> int:
    ahead = session.exec(
        select(func.count()).select_from(Registration).where(
            Registration.event_id == row.event_id,
            Registration.status == RegistrationStatus.WAITING.value,
            col(Registration.confirmed_at) < row.confirmed_at,
        )
    ).one()
    return int(ahead) + 1


def confirm_registration(session: Session, *, slug: str, token: str, links: LinkMaker) -> str:
    """Confirm a registration from its mailed link; returns its status afterwards.
    Opening the link again changes nothing.

    Raises:
        NotFoundError: a link that is forged or of another event.
    """
    registration_id = links.read_registration(token)
    row = session.get(Registration, registration_id) if registration_id else None
    event = _event_by_slug(session, slug)
    if row is None or row.event_id != event.id:
        raise NotFoundError(Message("This confirmation link does not open anything."))
    if row.status != RegistrationStatus.UNCONFIRMED.value:
        return row.status
    actor = Actor(None, f"{FORM_ACTOR_LABEL}: {row.email}"[:254], "scorer")
    row.confirmed_at = utcnow()
    settings = _settings(session, row.event_id)
    assert settings is not None
    if settings.needs_approval:
        row.status = RegistrationStatus.AWAITING_APPROVAL.value
    else:
        _place(session, row, links, actor)
    session.flush()
    record(
        session, actor=actor, action="registration.confirm", entity_type="registration",
        entity_id=row.id, event_id=row.event_id, after={"status": row.status},
    )
    return row.status


def registrations(session: Session, actor: Actor, event_id: int) -> list[RegistrationRow]:
    """The event's registrations in order of registration, with waiting-list places.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not one of its directors.
    """
    require_event(session, actor, event_id, manage=True)
    rows = session.exec(
        select(Registration).where(Registration.event_id == event_id).order_by(
            col(Registration.confirmed_at), col(Registration.id))
    ).all()
    waiting = 0
    out = []
    for row in rows:
        position = None
        if row.status == RegistrationStatus.WAITING.value:
            waiting += 1
            position = waiting
        out.append(RegistrationRow(row.id or 0, row.name, row.club, row.email, row.rating_id,
                                   row.status, position))
    return out


def decide_registration(
    session: Session, *, actor: Actor, registration_id: int, approve: bool, links: LinkMaker
) -> str:
    """The director approves (placing the player) or rejects a registration that awaits
    approval; returns its new status.

    Raises:
        NotFoundError, AccessDeniedError: no such registration, or not a director.
        ConflictError: it does not await approval.
    """
    row = session.get(Registration, registration_id)
    if row is None:
        raise NotFoundError(Message("No such registration."))
    require_event(session, actor, row.event_id, manage=True)
    if row.status != RegistrationStatus.AWAITING_APPROVAL.value:
        raise ConflictError(Message("This registration does not await approval."))
    if approve:
        _place(session, row, links, actor)
    else:
        row.status = RegistrationStatus.REJECTED.value
    session.flush()
    record(
        session, actor=actor, action="registration.decide", entity_type="registration",
        entity_id=row.id, event_id=row.event_id, after={"status": row.status},
    )
    return row.status


def _promote_first_waiting(
    session: Session, event_id: int, links: LinkMaker, actor: Actor
) -> None:
    first = session.exec(
        select(Registration).where(
            Registration.event_id == event_id,
            Registration.status == RegistrationStatus.WAITING.value,
        ).order_by(col(Registration.confirmed_at), col(Registration.id))
    ).first()
    if first is not None:
        _place(session, first, links, actor)


def after_director_withdrawal(
    session: Session, *, actor: Actor, entry_id: int, links: LinkMaker
) -> None:
    """A director withdrew an entry that registered online and is in no draw yet: its
    registration is withdrawn too and the first on the waiting list moves up, as when the
    player withdraws from their own link. An entry already drawn frees no place."""
    entry = session.get(Entry, entry_id)
    row = session.exec(select(Registration).where(Registration.entry_id == entry_id)).first()
    if entry is None or row is None or entry.status != EntryStatus.WITHDRAWN.value:
        return
    if row.status == RegistrationStatus.WITHDRAWN.value:
        return
    drawn = session.exec(select(FlightEntry.id).where(FlightEntry.entry_id == entry_id)).first()
    row.status = RegistrationStatus.WITHDRAWN.value
    session.flush()
    if drawn is None:
        _promote_first_waiting(session, entry.event_id, links, actor)


def withdraw(session: Session, *, grant: PlayerGrant, links: LinkMaker) -> None:
    """A registered player withdraws from their own link before the draw; the first on
    the waiting list moves up at once.

    Raises:
        StoreUserError: the player is in a draw already (the director withdraws them).
    """
    entry = session.get(Entry, grant.entry_id)
    assert entry is not None
    if entry.status == EntryStatus.WITHDRAWN.value:
        return
    drawn = session.exec(
        select(FlightEntry.id).where(FlightEntry.entry_id == entry.id)
    ).first()
    if drawn is not None:
        raise StoreUserError(
            Message("You are in the draw already: ask the director to withdraw you.")
        )
    entry.status = EntryStatus.WITHDRAWN
    entry.withdrawn_at = utcnow()
    row = session.exec(select(Registration).where(Registration.entry_id == entry.id)).first()
    if row is not None:
        row.status = RegistrationStatus.WITHDRAWN.value
    session.flush()
    record(
        session, actor=grant.actor, action="entry.withdraw", entity_type="entry",
        entity_id=entry.id, event_id=grant.event_id, after={"status": "withdrawn"},
    )
    _promote_first_waiting(session, grant.event_id, links, grant.actor)
