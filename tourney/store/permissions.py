"""Who may see and who may change an event: decided here, and only here.

An actor's part in an event comes from their account role (an admin directs every event),
from owning the event, or from a row of its staff. The use cases ask ``require_event``
before changing anything; the read models and the public pages ask ``staff_role``,
``can_manage_event`` and ``is_staff`` what to show.

A club's settings (its rating list options) are changed by the admins, by the account
that added the club and by the directors of the club's events (``can_manage_club``).

A roster player is changed (and their e-mail address seen) by the account that added
them, by the admins, and by the directors of an event the player is entered in: the
roster is shared for entering players, not for editing them (``require_player``,
``editable_players``).
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, false, true
from sqlmodel import Session, col, or_, select

from tourney.rules.messages import Message
from tourney.store.audit import Actor
from tourney.store.errors import AccessDeniedError, NotFoundError
from tourney.store.roles import EVENT_ROLES, account_role, event_role
from tourney.store.tables import AuditEntry, Entry, Event, EventStaff, Player, Role, StaffRole


def require_role(actor: Actor, *roles: Role) -> None:
    """Refuse an actor whose account role is none of ``roles``.

    Raises:
        AccessDeniedError: the account may not do this.
    """
    if actor.role not in {r.value for r in roles}:
        raise AccessDeniedError(Message("Your account may not do this."))


def staff_role(session: Session, actor: Actor, event: Event) -> str | None:
    """The actor's part in the event: ``director``, ``scorer`` or none."""
    if actor.event_scope is not None:
        # A player's link enters results of its own event (after the opponent confirmed),
        # and is nobody anywhere else.
        return StaffRole.SCORER.value if event.id == actor.event_scope else None
    account = account_role(actor.role)
    if account.directs_every_event:
        return StaffRole.DIRECTOR.value
    if actor.user_id is None:
        return None
    if event.owner_id == actor.user_id and account.can_direct_events:
        return StaffRole.DIRECTOR.value
    row = session.exec(
        select(EventStaff).where(
            EventStaff.event_id == event.id, EventStaff.user_id == actor.user_id
        )
    ).first()
    if row is None:
        return None
    if event_role(row.role).can_manage_event and not account.can_direct_events:
        return None
    return row.role


def can_manage_event(session: Session, actor: Actor, event: Event) -> bool:
    """True for an admin, the event's owner and its co-directors."""
    role = staff_role(session, actor, event)
    return role is not None and event_role(role).can_manage_event


def require_event(session: Session, actor: Actor, event_id: int, *, manage: bool) -> Event:
    """The event, if the actor may see it (``manage``: may change it).

    Raises:
        NotFoundError: no such event.
        AccessDeniedError: the actor is not on the event's staff (or only a scorer).
    """
    event = session.get(Event, event_id)
    if event is None:
        raise NotFoundError(Message("No such event."))
    part = staff_role(session, actor, event)
    rights = None if part is None else event_role(part)
    if rights is None or not (rights.can_manage_event if manage else rights.can_enter_results):
        raise AccessDeniedError(Message("You are not a director of this event."))
    return event


def is_staff(session: Session, actor: Actor, event_id: int) -> bool:
    """True when the actor works on the event (so sees it while private)."""
    event = session.get(Event, event_id)
    return event is not None and staff_role(session, actor, event) is not None


def worked_on_by(actor: Actor) -> ColumnElement[bool]:
    """A filter on events: those the actor owns or is on the staff of (all for an admin)."""
    if account_role(actor.role).directs_every_event:
        return true()
    staffed = select(EventStaff.event_id).where(EventStaff.user_id == actor.user_id)
    return or_(col(Event.owner_id) == actor.user_id, col(Event.id).in_(staffed))


def editable_players(actor: Actor) -> ColumnElement[bool]:
    """A filter on roster players: those the actor may change and whose e-mail they see.

    An admin: every player. A director: the players they added and the players entered
    in an event they direct (own, or are on its staff as a director: a scorer enters
    results, not players). Anyone else: none.
    """
    account = account_role(actor.role)
    if account.directs_every_event:
        return true()
    if not account.can_direct_events or actor.user_id is None:
        return false()
    directing = [info.role.value for info in EVENT_ROLES if info.can_manage_event]
    directed = select(EventStaff.event_id).where(
        EventStaff.user_id == actor.user_id, col(EventStaff.role).in_(directing)
    )
    their_events = select(Event.id).where(
        or_(col(Event.owner_id) == actor.user_id, col(Event.id).in_(directed))
    )
    entered = select(Entry.player_id).where(col(Entry.event_id).in_(their_events))
    return or_(col(Player.added_by_id) == actor.user_id, col(Player.id).in_(entered))


def can_edit_player(session: Session, actor: Actor, player_id: int) -> bool:
    """True when the actor may change the player and see their e-mail address."""
    found = session.exec(
        select(Player.id).where(Player.id == player_id, editable_players(actor))
    ).first()
    return found is not None


def require_player(session: Session, actor: Actor, player_id: int) -> Player:
    """The roster player, if the actor may change them.

    Raises:
        NotFoundError: no such player.
        AccessDeniedError: another director's player, entered in none of the actor's events.
    """
    player = session.get(Player, player_id)
    if player is None:
        raise NotFoundError(Message("No such player."))
    if not can_edit_player(session, actor, player_id):
        raise AccessDeniedError(Message(
            "Another director added this player: only they, an admin or a director of an "
            "event the player is entered in may change them."
        ))
    return player


def can_manage_club(session: Session, actor: Actor, club_id: int) -> bool:
    """True for an admin, the account that added the club and a director of one of its
    events (owner, or on its staff as a director)."""
    account = account_role(actor.role)
    if account.directs_every_event:
        return True
    if not account.can_direct_events or actor.user_id is None:
        return False
    added = session.exec(
        select(AuditEntry.id).where(
            AuditEntry.action == "club.create",
            AuditEntry.entity_type == "club",
            AuditEntry.entity_id == club_id,
            AuditEntry.actor_id == actor.user_id,
        )
    ).first()
    if added is not None:
        return True
    directing = [info.role.value for info in EVENT_ROLES if info.can_manage_event]
    directed = select(EventStaff.event_id).where(
        EventStaff.user_id == actor.user_id, col(EventStaff.role).in_(directing)
    )
    found = session.exec(
        select(Event.id).where(
            Event.club_id == club_id,
            or_(col(Event.owner_id) == actor.user_id, col(Event.id).in_(directed)),
        )
    ).first()
    return found is not None
