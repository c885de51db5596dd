"""Use cases of the roster: players (register, correct) and their entries in events
(enter, seed, check in, withdraw, reinstate).

The use cases keep the contract described in ``tourney.store``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlmodel import Session, col, select

from tourney.rules.messages import Message
from tourney.store import bulk_entry, club_money, queries, results, withdrawal
from tourney.store.audit import Actor, record, snapshot
from tourney.store.errors import NotFoundError, StoreUserError
from tourney.store.inputs import EMAIL_ADDRESS, clean_text
from tourney.store.names import person_key
from tourney.store.permissions import require_event, require_player, require_role
from tourney.store.queries import EntryView, PlayerView
from tourney.store.roles import EVENT_DIRECTORS
from tourney.store.tables import (
    Club,
    Entry,
    EntryStatus,
    EventStatus,
    FlightEntry,
    Player,
)
from tourney.store.types import utcnow


@dataclass(frozen=True)
class PlayerFields:
    """What a director sets on a roster player."""

    name: str
    country: str = ""
    rating: float | None = None
    email: str | None = None
    club_id: int | None = None
    rating_experience: int | None = None
    """Carried in with ``rating`` from a club's existing list; kept only when the player
    is added (a later edit of the player leaves it as it is)."""
    rated_matches: int | None = None
    """Likewise: the rated matches behind ``rating``."""


def _get_entry(session: Session, entry_id: int) -> Entry:
    entry = session.get(Entry, entry_id)
    if entry is None:
        raise NotFoundError(Message("No such entry."))
    return entry


def _entry_view(session: Session, entry: Entry) -> EntryView:
    # One row, not the event's whole list: entering players one by one stays linear.
    return bulk_entry.entry_view(session, entry.id or 0)


# --- players -------------------------------------------------------------------------


def _apply_player_fields(session: Session, player: Player, f: PlayerFields) -> None:
    name = clean_text(f.name)
    if not name:
        raise StoreUserError(Message("Enter the player's name."), field="name")
    country = f.country.strip().upper()
    if country and not re.fullmatch(r"[A-Z]{2}", country):
        raise StoreUserError(
            Message("Use a two-letter country code (NO, DE, US)."), field="country"
        )
    if f.rating is not None and not 0 <= f.rating <= 5000:
        raise StoreUserError(Message("A rating is between 0 and 5000."), field="rating")
    email = (f.email or "").strip().lower() or None
    if email and not EMAIL_ADDRESS.match(email):
        raise StoreUserError(Message("Enter a valid e-mail address or none."), field="email")
    if f.club_id is not None and session.get(Club, f.club_id) is None:
        raise StoreUserError(Message("No such club."), field="club_id")
    player.name = name
    player.country = country
    player.rating = f.rating
    player.email = email
    player.club_id = f.club_id


def register_player(
    session: Session, *, actor: Actor, fields: PlayerFields, allow_namesake: bool = True
) -> PlayerView:
    """A director adds a player to the roster.

    With ``allow_namesake`` false, a name the roster already has in another spelling
    ("O'Brien, Sean" for Sean O’Brien; another accent or case) is refused, naming the
    player already there, so a director adds a second one only on purpose.

    Raises:
        AccessDeniedError: the actor is a scorer.
        StoreUserError: no name, a bad country code, rating or e-mail address; a namesake
            on the roster (field ``name``).
    """
    require_role(actor, *EVENT_DIRECTORS)
    if not allow_namesake:
        _refuse_namesakes(session, fields.name)
    player = Player(name="", added_by_id=actor.user_id)
    _apply_player_fields(session, player, fields)
    for carried in (fields.rating_experience, fields.rated_matches):
        if carried is not None and carried < 0:
            raise StoreUserError(Message("Experience and matches are whole numbers from 0."))
    player.rating_experience = fields.rating_experience
    player.rated_matches = fields.rated_matches
    session.add(player)
    session.flush()
    record(
        session,
        actor=actor,
        action="player.create",
        entity_type="player",
        entity_id=player.id,
        after=snapshot(player),
    )
    return queries.get_player(session, player.id or 0)


def namesakes(session: Session, name: str) -> list[Player]:
    """Roster players whose name is ``name`` in another spelling or word order."""
    wanted = person_key(name)
    return [p for p in session.exec(select(Player)) if wanted and person_key(p.name) == wanted]


def _refuse_namesakes(session: Session, name: str) -> None:
    found = namesakes(session, name)
    if found:
        listed = ", ".join(p.name for p in found)
        raise StoreUserError(
            Message(
                "Already on the roster: %(listed)s. Enter that player in the event instead, or "
                "tick “Add as a new player” if this is someone else.",
                listed=listed,
            ),
            field="name",
        )


def update_player(
    session: Session, *, actor: Actor, player_id: int, fields: PlayerFields
) -> PlayerView:
    """A director corrects a roster player (one they added, or entered in their event).

    Raises:
        AccessDeniedError: the actor is a scorer, or the player is another director's.
        NotFoundError: no such player.
        StoreUserError: no name, a bad country code, rating or e-mail address.
    """
    require_role(actor, *EVENT_DIRECTORS)
    player = require_player(session, actor, player_id)
    before = snapshot(player)
    _apply_player_fields(session, player, fields)
    session.flush()
    # The change shows in the log of every event the player is entered in, whoever runs
    # it: one entry per event (the roster's own entry when entered nowhere).
    entered: list[int | None] = [
        *session.exec(
            select(Entry.event_id).where(Entry.player_id == player_id).order_by(col(Entry.event_id))
        )
    ]
    for event_id in entered or [None]:
        record(
            session,
            actor=actor,
            action="player.update",
            entity_type="player",
            entity_id=player.id,
            event_id=event_id,
            before=before,
            after=snapshot(player),
        )
    return queries.get_player(session, player_id)


# --- entries -------------------------------------------------------------------------


def enter_player(
    session: Session, *, actor: Actor, event_id: int, player_id: int, seed: int | None = None
) -> EntryView:
    """A director enters a roster player in an event.

    Raises:
        NotFoundError, AccessDeniedError: no such event or player, or not the actor's event.
        StoreUserError: the player is entered already, the event is finished, a bad seed.
    """
    event = require_event(session, actor, event_id, manage=True)
    if event.status == EventStatus.FINISHED:
        raise StoreUserError(Message("The event is finished."))
    if session.get(Player, player_id) is None:
        raise NotFoundError(Message("No such player."))
    existing = session.exec(
        select(Entry.id).where(Entry.event_id == event_id, Entry.player_id == player_id)
    ).first()
    if existing is not None:
        raise StoreUserError(Message("This player is entered already."), field="player_id")
    _check_seed(session, event_id, seed, None)
    entry = Entry(event_id=event_id, player_id=player_id, seed=seed)
    session.add(entry)
    session.flush()
    record(
        session,
        actor=actor,
        action="entry.create",
        entity_type="entry",
        entity_id=entry.id,
        event_id=event_id,
        after=snapshot(entry),
    )
    return _entry_view(session, entry)


def _check_seed(session: Session, event_id: int, seed: int | None, entry_id: int | None) -> None:
    if seed is None:
        return
    if seed < 1:
        raise StoreUserError(Message("Seeds are numbered from 1."), field="seed")
    taken = session.exec(
        select(Entry.id).where(Entry.event_id == event_id, Entry.seed == seed)
    ).first()
    if taken is not None and taken != entry_id:
        raise StoreUserError(Message("Seed %(seed)s is taken.", seed=seed), field="seed")


def _change_entry(
    session: Session, *, actor: Actor, entry_id: int, action: str, change: str
) -> EntryView:
    entry = _get_entry(session, entry_id)
    require_event(session, actor, entry.event_id, manage=True)
    before = snapshot(entry)
    now = utcnow()
    if change == "check_in":
        if entry.status != EntryStatus.ACTIVE:
            raise StoreUserError(Message("Only an active entry can check in."))
        entry.checked_in_at = entry.checked_in_at or now
    elif change == "undo_check_in":
        entry.checked_in_at = None
    walkovers: list[int] = []
    replayed: list[int] = []
    if change == "withdraw":
        if entry.status != EntryStatus.ACTIVE:
            raise StoreUserError(Message("This entry is not active."))
        entry.status = EntryStatus.WITHDRAWN
        entry.withdrawn_at = now
        session.flush()
        # The opponent of every open match goes through by walkover (shown as such).
        walkovers = results.withdraw_from_matches(session, entry_id=entry.id or 0)
    elif change == "reinstate":
        if entry.status != EntryStatus.WITHDRAWN:
            raise StoreUserError(Message("This entry is not withdrawn."))
        entry.status = EntryStatus.ACTIVE
        for row in session.exec(select(FlightEntry).where(FlightEntry.entry_id == entry.id)):
            if row.status == EntryStatus.WITHDRAWN:
                row.status = EntryStatus.ACTIVE
        session.flush()
        # The walkovers given for the withdrawal are played after all (or, when a later
        # result stands on one, the reinstatement is refused and nothing changes).
        replayed = withdrawal.take_back_walkovers(session, entry)
        entry.withdrawn_at = None
    session.flush()
    after = snapshot(entry) or {}
    if walkovers:
        after["walkover_matches"] = walkovers
    if replayed:
        after["walkovers_taken_back"] = replayed
    record(
        session,
        actor=actor,
        action=action,
        entity_type="entry",
        entity_id=entry.id,
        event_id=entry.event_id,
        before=before,
        after=after,
    )
    if change == "withdraw":
        # Fees paid into flights not drawn yet go back where the flight's policy says so.
        club_money.refund_on_withdrawal(session, actor=actor, entry=entry)
    elif change == "reinstate":
        # What the withdrawal refunded in flights not drawn yet is owed again.
        club_money.fees_due_again(session, actor=actor, entry=entry)
    return _entry_view(session, entry)


def check_in(
    session: Session, *, actor: Actor, entry_id: int, checked_in: bool = True
) -> EntryView:
    """Mark an entry present (or, with ``checked_in=False``, not yet present).

    Raises:
        NotFoundError, AccessDeniedError: no such entry, or not the actor's event.
        StoreUserError: a withdrawn or eliminated entry checks in.
    """
    change = "check_in" if checked_in else "undo_check_in"
    return _change_entry(
        session, actor=actor, entry_id=entry_id, action=f"entry.{change}", change=change
    )


def check_in_everyone(session: Session, *, actor: Actor, event_id: int) -> int:
    """Mark every active entry of the event present at once; how many were not yet.

    Withdrawn and eliminated entries stay as they are, and an entry already present keeps
    the time it checked in.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's event.
    """
    require_event(session, actor, event_id, manage=True)
    waiting = list(
        session.exec(
            select(Entry).where(
                Entry.event_id == event_id,
                Entry.status == EntryStatus.ACTIVE,
                col(Entry.checked_in_at).is_(None),
            )
        )
    )
    now = utcnow()
    for entry in waiting:
        entry.checked_in_at = now
    session.flush()
    record(
        session,
        actor=actor,
        action="entry.check_in_all",
        entity_type="event",
        entity_id=event_id,
        event_id=event_id,
        after={"checked_in": sorted(entry.id or 0 for entry in waiting)},
    )
    return len(waiting)


def withdraw(session: Session, *, actor: Actor, entry_id: int) -> EntryView:
    """Withdraw an entry from the event (its later matches are walkovers, when drawn).

    Raises:
        NotFoundError, AccessDeniedError: no such entry, or not the actor's event.
        StoreUserError: the entry is not active.
    """
    return _change_entry(
        session, actor=actor, entry_id=entry_id, action="entry.withdraw", change="withdraw"
    )


def reinstate(session: Session, *, actor: Actor, entry_id: int) -> EntryView:
    """Undo a withdrawal: the player is back, and the walkovers given for it are matches
    to play again (``withdrawal.take_back_walkovers``).

    Raises:
        NotFoundError, AccessDeniedError: no such entry, or not the actor's event.
        StoreUserError: the entry is not withdrawn, or a later result already depends on
            a walkover given for the withdrawal (the message names it).
    """
    return _change_entry(
        session, actor=actor, entry_id=entry_id, action="entry.reinstate", change="reinstate"
    )
