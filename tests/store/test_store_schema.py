"""Migrations: they build the whole schema, match the table classes, and are checked at start."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel

from tourney.store import schema
from tourney.store.db import make_engine, ping

TABLES = {
    "api_tokens",
    "audit_entries",
    "clubs",
    "entries",
    "event_shares",
    "event_staff",
    "events",
    "fixtures",
    "flight_entries",
    "flight_money",
    "flights",
    "games",
    "login_attempts",
    "mail_outbox",
    "matches",
    "money_games",
    "money_items",
    "money_seats",
    "money_sessions",
    "player_links",
    "players",
    "registration_settings",
    "registrations",
    "result_reports",
    "rounds",
    "season_events",
    "seasons",
    "team_members",
    "teams",
    "uploaded_records",
    "analysis_jobs",
    "venue_screens",
    "match_mails",
    "users",
    "venues",
}


def test_upgrade_on_empty_database_creates_every_table(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)

    schema.upgrade(engine)

    assert set(inspect(engine).get_table_names()) - {"alembic_version"} == TABLES
    assert schema.current_revisions(engine) == schema.head_revisions()
    engine.dispose()


def test_upgrade_twice_changes_nothing(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)

    schema.upgrade(engine)

    assert schema.current_revisions(engine) == schema.head_revisions()
    engine.dispose()


def test_migrations_match_table_classes(engine: Engine) -> None:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, SQLModel.metadata)

    assert differences == []


def test_check_current_refuses_empty_database_naming_the_command(
    empty_database_url: str,
) -> None:
    engine = make_engine(empty_database_url)

    with pytest.raises(schema.SchemaOutOfDateError) as caught:
        schema.check_current(engine)

    assert "Run `tourney db upgrade` first." in str(caught.value)
    engine.dispose()


def test_check_current_refuses_unknown_revision(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'ffff'"))

    with pytest.raises(schema.SchemaOutOfDateError, match="ffff, unknown"):
        schema.check_current(engine)
    engine.dispose()


def test_check_current_accepts_migrated_database(engine: Engine) -> None:
    schema.check_current(engine)

    assert ping(engine) is True


def test_sqlite_file_database_uses_wal_and_foreign_keys(tmp_path: object) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/sub/dir/t.db")

    with engine.connect() as connection:
        journal = connection.execute(text("PRAGMA journal_mode")).scalar()
        foreign_keys = connection.execute(text("PRAGMA foreign_keys")).scalar()

    assert (journal, foreign_keys) == ("wal", 1)
    engine.dispose()
