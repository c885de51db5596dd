"""What each role may do: the labels and permission facts of the two closed sets of roles.

Terminology: an account's *role* (:class:`~tourney.store.tables.Role`: admin, director,
scorer) is what the account may do across the site; its *staff role* in an event
(:class:`~tourney.store.tables.StaffRole`: director, scorer) is its part in that one
event. Services, route guards and pages ask :func:`account_role` and :func:`event_role`
here and never compare role names themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from tourney.rules.messages import N_, Message
from tourney.store.errors import StoreInvariantError
from tourney.store.tables import Role, StaffRole


@dataclass(frozen=True, slots=True)
class AccountRole:
    """What an account with this role may do across the site."""

    role: Role
    label: str
    """``Director``."""
    description: str
    """What the role is for, in a few words: ``runs their own events``."""
    can_direct_events: bool = False
    """May create, import and direct events, and keep the clubs and the player roster."""
    directs_every_event: bool = False
    """Directs every event without being on its staff."""
    can_manage_accounts: bool = False
    """May add accounts."""

    @property
    def choice_label(self) -> str:
        """How the account form offers the role: ``Director — runs their own events``."""
        return Message(
            "%(role)s — %(description)s", role=self.label, description=self.description
        )


@dataclass(frozen=True, slots=True)
class EventRole:
    """What a staff member of an event may do in it."""

    role: StaffRole
    label: str
    can_manage_event: bool = False
    """May change the event: its settings, flights, entries, draws, staff and downloads
    meant for its directors."""
    can_enter_results: bool = True
    """May enter games and scores, and see the event's staff pages."""


ACCOUNT_ROLES: tuple[AccountRole, ...] = (
    AccountRole(
        Role.DIRECTOR, N_("Director"), N_("runs their own events"), can_direct_events=True
    ),
    AccountRole(Role.SCORER, N_("Scorer"), N_("enters results")),
    AccountRole(
        Role.ADMIN,
        N_("Admin"),
        N_("everything"),
        can_direct_events=True,
        directs_every_event=True,
        can_manage_accounts=True,
    ),
)
"""Every account role, in the order the account form offers them."""

EVENT_ROLES: tuple[EventRole, ...] = (
    EventRole(StaffRole.DIRECTOR, N_("Director"), can_manage_event=True),
    EventRole(StaffRole.SCORER, N_("Scorer")),
)
"""Every part a user can play in an event."""

_ACCOUNT_ROLES = {info.role.value: info for info in ACCOUNT_ROLES}
_EVENT_ROLES = {info.role.value: info for info in EVENT_ROLES}

EVENT_DIRECTORS = tuple(info.role for info in ACCOUNT_ROLES if info.can_direct_events)
"""The account roles that may direct events."""
ACCOUNT_MANAGERS = tuple(info.role for info in ACCOUNT_ROLES if info.can_manage_accounts)
"""The account roles that may add accounts."""


def account_role(role: str) -> AccountRole:
    """What an account with ``role`` may do.

    Raises:
        StoreInvariantError: no such role (accounts are only ever saved with a known one).
    """
    try:
        return _ACCOUNT_ROLES[role]
    except KeyError:
        raise StoreInvariantError(f"Unknown account role {role!r}.") from None


def event_role(role: str) -> EventRole:
    """What a staff member with ``role`` may do in the event.

    Raises:
        StoreInvariantError: no such role (staff rows are only ever saved with a known one).
    """
    try:
        return _EVENT_ROLES[role]
    except KeyError:
        raise StoreInvariantError(f"Unknown event role {role!r}.") from None
