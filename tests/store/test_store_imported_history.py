"""Imported history: the audit entries an event file brings are marked imported, keep the
file's actor as text and are never credited to a local account, even one whose address
the file names; export, import and export again still give the same document."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import accounts, schema
from tourney.store.audit import Actor
from tourney.store.audit_views import audit_page
from tourney.store.db import make_engine, transaction
from tourney.store.errors import EventImportError
from tourney.store.event_json import IMPORT_ACTION, export_event, import_event
from tourney.store.passwords import make_hasher
from tourney.store.tables import AuditEntry

if TYPE_CHECKING:
    from conftest import BuiltEvent

MAIN = {"name": "Main", "format": "knockout", "match_length": 3}
LOCAL_ADMIN = "boss@example.org"


@pytest.fixture
def target(empty_database_url: str) -> Iterator[Engine]:
    """A second, migrated and empty database of the same backend, with a local admin."""
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    with transaction(engine) as session:
        accounts.create_user(
            session,
            actor=Actor.cli(),
            email=LOCAL_ADMIN,
            name="Local Boss",
            password="correct horse battery staple",
            role="admin",
            hasher=make_hasher("fast"),
        )
    yield engine
    engine.dispose()


def document_of(engine: Engine, event_id: int | str) -> dict[str, Any]:
    with Session(engine) as session:
        return json.loads(json.dumps(export_event(session, event_id)))


def import_document(engine: Engine, document: dict[str, Any]) -> int:
    with transaction(engine) as session:
        return import_event(session, document).event_id


def test_forged_history_naming_a_local_admin_is_imported_as_text_not_as_the_admin(
    engine: Engine, target: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Carl Dahl", "Dora Eng"], [MAIN])
    forged = document_of(engine, built.event_id)
    for row in forged["tables"]["audit_entries"]:
        row["actor_label"] = LOCAL_ADMIN

    event_id = import_document(target, forged)

    with Session(target) as session:
        rows = session.exec(
            select(AuditEntry).where(AuditEntry.event_id == event_id).order_by(AuditEntry.id)
        ).all()
        first_line = audit_page(session, event_id).lines[-1]
    history = [r for r in rows if r.action != IMPORT_ACTION]
    assert len(history) == len(forged["tables"]["audit_entries"]) > 0
    assert {(r.actor_id, r.imported, r.actor_label) for r in history} == {(None, True, LOCAL_ADMIN)}
    assert first_line.sentence == f"{LOCAL_ADMIN} (imported) created the event"


def test_a_file_cannot_claim_its_history_is_local(
    engine: Engine, target: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Carl Dahl", "Dora Eng"], [MAIN])
    forged = document_of(engine, built.event_id)
    forged["tables"]["audit_entries"][0]["imported"] = False

    with pytest.raises(EventImportError):
        import_document(target, forged)


def test_export_import_export_gives_the_same_document_with_imported_history(
    engine: Engine, target: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Carl Dahl", "Dora Eng"], [MAIN])
    first = document_of(engine, built.event_id)

    event_id = import_document(target, copy.deepcopy(first))

    assert document_of(target, event_id) == first
