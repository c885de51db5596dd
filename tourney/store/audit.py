"""The audit log: every service writes one entry saying who changed what, before and after."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlmodel import Session, SQLModel

from tourney.store.tables import AuditEntry


@dataclass(frozen=True)
class Actor:
    """Who is acting: a logged-in user, or a command-line run (``user_id`` none)."""

    user_id: int | None
    label: str
    """E-mail address of the user, or ``cli``."""
    role: str
    """``admin``, ``director``, ``scorer``; the command line acts as ``admin``."""
    event_scope: int | None = None
    """A player acting through their private link: the one event the link belongs to.
    Such an actor counts as a scorer of that event and of no other, and only the
    self-service use cases (``tourney.store.selfservice``) ever act as one."""

    @classmethod
    def cli(cls) -> Actor:
        """The actor for commands run on the server itself."""
        return cls(user_id=None, label="cli", role="admin")


def snapshot(row: SQLModel | None, *, exclude: Iterable[str] = ()) -> dict[str, Any] | None:
    """A JSON-ready copy of a row's columns for the before/after of an audit entry."""
    if row is None:
        return None
    skip = set(exclude)
    data = row.model_dump()
    return {key: _jsonable(value) for key, value in data.items() if key not in skip}


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def record(
    session: Session,
    *,
    actor: Actor,
    action: str,
    entity_type: str,
    entity_id: int | None,
    event_id: int | None = None,
    match_id: int | None = None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEntry:
    """Add one audit entry to the current transaction."""
    entry = AuditEntry(
        actor_id=actor.user_id,
        actor_label=actor.label,
        action=action,
        entity_type=entity_type,
        entity_id=entity_id,
        event_id=event_id,
        match_id=match_id,
        before=before,
        after=after,
    )
    session.add(entry)
    return entry
