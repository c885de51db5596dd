"""Event data versions: every write to an event's rows moves the event's version.

Public pages and the API are cached by an event's ``data_version`` (``tourney.web.live``),
so a change that forgets to move it leaves a stale page up. The version is therefore not
moved by the services but here, by the session itself: before each flush, every event
that owns a row being inserted, changed or deleted gets its version moved, and its
``updated_at`` set to now. Once per transaction is enough (other readers see only what is
committed), so later flushes of the same transaction leave a moved version alone: a
result that moves a bracket on flushes several times but writes the event row once.

Terminology:
    event row   a row that belongs to one event: the event itself, its flights, entries,
                staff and share link, and through them flight entries, rounds, matches,
                games and uploaded records. A roster player belongs to every event it is
                entered in (a new name shows on all their pages), a club to each of its
                events (its options decide what their pages link to).
    bulk change a ``DELETE`` or ``UPDATE`` statement run through the session (undoing a
                draw, rewriting a match's games): it skips the flush, so the events of the
                rows it matches are noted before it runs and moved at the next flush. Every
                service writes an audit entry, which guarantees that flush.

An event created in the flush keeps its first version: nothing can have cached it yet.
Importing this module installs the listeners on every session (``tourney.store.db``
imports it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from sqlalchemy import Delete, Update, select
from sqlalchemy import event as sa_event
from sqlalchemy.orm import ORMExecuteState, Session, SessionTransaction, UOWTransaction
from sqlmodel import SQLModel, col

from tourney.store.access import EventShare
from tourney.store.selfservice_tables import (
    MatchMail,
    OutboxMail,
    PlayerLink,
    Registration,
    RegistrationSettings,
    ResultReport,
)
from tourney.store.tables import (
    AnalysisJob,
    Club,
    Entry,
    Event,
    EventStaff,
    Fixture,
    Flight,
    FlightEntry,
    FlightMoney,
    Game,
    Match,
    MoneyGame,
    MoneyItem,
    MoneySeat,
    MoneySession,
    Player,
    Round,
    SeasonEvent,
    Team,
    TeamMember,
    UploadedRecord,
    VenueScreen,
)
from tourney.store.types import utcnow

_BULK_CHANGES = "tourney.bulk_changed_events"
"""``Session.info`` key of the events touched by bulk changes since the last flush."""
_MOVED = "tourney.moved_event_versions"
"""``Session.info`` key of the events whose version moved in the current transaction."""
_FLIGHT_EVENTS = "tourney.flight_events"
"""``Session.info`` key of the event of each flight looked up in the current transaction."""

EventIds = Iterable[int | None]


def _own_event(
    _: Session,
    row: Flight | Entry | EventStaff | EventShare | MoneySession | SeasonEvent | Team | MoneyItem
    | ResultReport | Registration | RegistrationSettings | PlayerLink | OutboxMail | VenueScreen,
) -> EventIds:
    return (row.event_id,)


def _event_of_flight(session: Session, flight_id: int | None) -> EventIds:
    if flight_id is None:
        return ()
    # The session holds rows weakly: a flight no service kept would be read again at the
    # next flush. A flight never changes event, so its event is kept for the transaction.
    known: dict[int, int] = session.info.setdefault(_FLIGHT_EVENTS, {})
    if flight_id not in known:
        flight = session.get(Flight, flight_id)
        if flight is None:
            return ()
        known[flight_id] = flight.event_id
    return (known[flight_id],)


def _flight_event(
    session: Session, row: FlightEntry | Round | Match | Fixture | FlightMoney
) -> EventIds:
    return _event_of_flight(session, row.flight_id)


def _match_event(
    session: Session, row: Game | UploadedRecord | AnalysisJob | MatchMail
) -> EventIds:
    match = session.get(Match, row.match_id) if row.match_id is not None else None
    return _event_of_flight(session, match.flight_id) if match is not None else ()


def _team_event(session: Session, row: TeamMember) -> EventIds:
    found = session.get(Team, row.team_id)
    return (found.event_id,) if found is not None else ()


def _money_event(session: Session, row: MoneySeat | MoneyGame) -> EventIds:
    found = session.get(MoneySession, row.session_id)
    return (found.event_id,) if found is not None else ()


def _player_events(session: Session, row: Player) -> EventIds:
    if row.id is None:
        return ()
    entered = select(col(Entry.event_id)).where(col(Entry.player_id) == row.id)
    return session.scalars(entered).all()


def _club_events(session: Session, row: Club) -> EventIds:
    if row.id is None:
        return ()
    return session.scalars(select(col(Event.id)).where(col(Event.club_id) == row.id)).all()


EVENTS_OF: Mapping[type[SQLModel], Callable[[Session, Any], EventIds]] = {
    Event: lambda _, row: (row.id,),
    Flight: _own_event,
    Entry: _own_event,
    EventStaff: _own_event,
    EventShare: _own_event,
    FlightEntry: _flight_event,
    Round: _flight_event,
    Match: _flight_event,
    Game: _match_event,
    UploadedRecord: _match_event,
    AnalysisJob: _match_event,
    Player: _player_events,
    Club: _club_events,
    MoneySession: _own_event,
    MoneySeat: _money_event,
    MoneyGame: _money_event,
    SeasonEvent: _own_event,
    Team: _own_event,
    TeamMember: _team_event,
    Fixture: _flight_event,
    FlightMoney: _flight_event,
    MoneyItem: _own_event,
    ResultReport: _own_event,
    PlayerLink: _own_event,
    OutboxMail: _own_event,
    MatchMail: _match_event,
    Registration: _own_event,
    RegistrationSettings: _own_event,
    VenueScreen: _own_event,
}
"""Each table of event rows, with how to find the events a row of it belongs to."""


def _changed_events(session: Session, rows: Iterable[Any]) -> set[int]:
    """The ids of the events that own any of ``rows`` (rows of other tables are skipped)."""
    found: set[int] = set()
    for row in rows:
        events_of = EVENTS_OF.get(type(row))
        if events_of is not None:
            found.update(i for i in events_of(session, row) if i is not None)
    return found


def _bump_changed_events(session: Session, _flush: UOWTransaction, _instances: object) -> None:
    """Before a flush: move the version of each event whose rows the flush writes."""
    pending: set[int] = session.info.pop(_BULK_CHANGES, set())
    moved: set[int] = session.info.setdefault(_MOVED, set())
    # ``dirty`` also holds rows whose attributes were set to the values they had.
    dirty = [row for row in session.dirty if session.is_modified(row)]
    with session.no_autoflush:
        event_ids = pending | _changed_events(session, [*session.new, *dirty, *session.deleted])
        now = utcnow()
        for event_id in sorted(event_ids - moved):
            found = session.get(Event, event_id)
            if found is None or found in session.deleted:
                continue
            found.data_version += 1
            found.updated_at = now
            moved.add(event_id)


def _note_bulk_change(state: ORMExecuteState) -> None:
    """Before a bulk ``DELETE``/``UPDATE`` of event rows: note the events of the rows it hits."""
    statement, mapper = state.statement, state.bind_mapper
    if not isinstance(statement, Delete | Update) or mapper is None:
        return
    events_of = EVENTS_OF.get(mapper.class_)
    if events_of is None:
        return
    # Plain rows, not objects: the session must not keep rows the statement deletes.
    hit = select(mapper.local_table)
    if statement.whereclause is not None:
        hit = hit.where(statement.whereclause)
    session = state.session
    with session.no_autoflush:
        noted: set[int] = session.info.setdefault(_BULK_CHANGES, set())
        for row in session.execute(hit):
            noted.update(i for i in events_of(session, row) if i is not None)


def _forget_bulk_changes(session: Session, _transaction: object) -> None:
    """A rollback undoes the bulk changes too: their events need no new version."""
    session.info.pop(_BULK_CHANGES, None)


def _forget_transaction(session: Session, transaction: SessionTransaction) -> None:
    """The next transaction moves the versions again (and so does the rest of one whose
    savepoint ended: a rolled-back savepoint took its moves with it)."""
    # Every flush runs in a subtransaction of its own; its end is not the transaction's.
    if transaction.parent is None or transaction.nested:
        session.info.pop(_MOVED, None)
        session.info.pop(_FLIGHT_EVENTS, None)


sa_event.listen(Session, "before_flush", _bump_changed_events)
sa_event.listen(Session, "do_orm_execute", _note_bulk_change)
sa_event.listen(Session, "after_soft_rollback", _forget_bulk_changes)
sa_event.listen(Session, "after_transaction_end", _forget_transaction)
