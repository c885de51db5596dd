"""Migration 0021 (mail languages, players told of their matches): a database whose round
was published before it goes down and up again, and the first worker pass after it mails
nobody a pairing publication had already mailed; earlier registrations keep no language
(their mails stay in English)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from test_store_mails import worker_pass
from test_store_selfservice import publish_four

from tourney.store import schema
from tourney.store.db import make_engine

if TYPE_CHECKING:
    from conftest import BuiltEvent


@pytest.fixture
def engine(empty_database_url: str) -> Iterator[Engine]:
    """A database of its own (this test moves its schema down and up)."""
    own = make_engine(empty_database_url)
    schema.upgrade(own)
    yield own
    own.dispose()


def test_pairings_published_before_the_migration_are_not_mailed_again(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # Published with no record of who was told: the state of every database before 0021.
    publish_four(engine, build_event, "Monday Cup")
    schema.downgrade(engine, "0020")
    tables_down = set(inspect(engine).get_table_names())
    registration_columns_down = {c["name"] for c in inspect(engine).get_columns("registrations")}

    schema.upgrade(engine)
    with engine.connect() as connection:
        told = connection.execute(text("SELECT COUNT(*) FROM match_mails")).scalar_one()

    assert "match_mails" not in tables_down
    assert "language" not in registration_columns_down
    # Both semifinals' players count as told (2 x 2); the final has no players yet.
    assert told == 4
    assert worker_pass(engine) == 0
