"""Closing an event: a director marks it finished, archives it, or reopens it.

Terminology:
    finished   play is over: the event no longer says it is running, its pages stay
               public (or private) as they were.
    archived   finished and taken off the public index of events; its pages still open
               by their address (and a private one by its share link).
    reopened   back to running (or open, when nothing was drawn yet), for a result
               entered late.
"""

from __future__ import annotations

from sqlmodel import Session, col, select

from tourney.store import queries
from tourney.store.audit import Actor, record
from tourney.store.permissions import require_event
from tourney.store.queries import EventDetail, EventSummary
from tourney.store.tables import EventStatus, Flight, FlightStatus

CLOSED = frozenset({EventStatus.FINISHED.value, EventStatus.ARCHIVED.value})
"""The statuses of an event whose play is over."""


def is_closed(status: str) -> bool:
    """True for a finished or archived event."""
    return status in CLOSED


def close_event(
    session: Session, *, actor: Actor, event_id: int, archive: bool = False
) -> EventDetail:
    """Mark the event finished (``archive``: and off the public index).

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not one of its directors.
    """
    status = EventStatus.ARCHIVED if archive else EventStatus.FINISHED
    return _set_status(session, actor=actor, event_id=event_id, status=status)


def reopen_event(session: Session, *, actor: Actor, event_id: int) -> EventDetail:
    """Take a finished or archived event back to running (open if nothing is drawn).

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not one of its directors.
    """
    drawn = session.exec(
        select(Flight.id).where(
            Flight.event_id == event_id, col(Flight.status) != FlightStatus.SETUP.value
        )
    ).first()
    status = EventStatus.RUNNING if drawn is not None else EventStatus.OPEN
    return _set_status(session, actor=actor, event_id=event_id, status=status)


def _set_status(
    session: Session, *, actor: Actor, event_id: int, status: EventStatus
) -> EventDetail:
    event = require_event(session, actor, event_id, manage=True)
    before = {"status": event.status}
    event.status = status
    session.flush()
    record(
        session,
        actor=actor,
        action="event.status",
        entity_type="event",
        entity_id=event_id,
        event_id=event_id,
        before=before,
        after={"status": status},
    )
    return queries.event_detail(session, event, can_manage=True)


def listed_public_events(session: Session) -> list[EventSummary]:
    """The public index: public events that are not archived, newest first."""
    return [
        e for e in queries.list_public_events(session) if e.status != EventStatus.ARCHIVED.value
    ]
