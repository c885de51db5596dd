"""Migration 0005 (session versions), `tourney db downgrade`, and a populated database that
goes down a revision and up again without losing a row."""

from __future__ import annotations

import stat
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine

from tourney.cli import cli
from tourney.store import schema
from tourney.store.db import make_engine

HEAD = "0021"
TABLES = ("users", "events", "flights", "entries", "rounds", "matches", "games", "audit_entries")


def _counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as connection:
        return {
            table: connection.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one()
            for table in TABLES
        }


def test_upgrade_gives_existing_accounts_session_version_one(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine, "0004")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (email, name, password_hash, role, is_active, created_at) "
                "VALUES ('old@example.org', 'Old', 'x', 'admin', true, CURRENT_TIMESTAMP)"
            )
        )

    schema.upgrade(engine)

    with engine.connect() as connection:
        versions = connection.execute(text("SELECT session_version FROM users")).scalars().all()
    assert versions == [1]
    engine.dispose()


def test_db_downgrade_one_step_and_upgrade_again_keep_every_row(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    env = {
        "TOURNEY_DATABASE_URL": url,
        "TOURNEY_PASSWORD_HASH_PROFILE": "fast",
        "TOURNEY_INSTANCE_PATH": str(tmp_path / "instance"),
    }
    runner = CliRunner()
    runner.invoke(cli, ["db", "upgrade"], env=env)
    runner.invoke(cli, ["demo"], env=env)
    engine = make_engine(url)
    before = _counts(engine)

    down = runner.invoke(cli, ["db", "downgrade", "0004", "--yes"], env=env)
    after_down = _counts(engine)
    columns = {c["name"] for c in inspect(engine).get_columns("users")}
    up = runner.invoke(cli, ["db", "upgrade"], env=env)

    assert (down.exit_code, down.stdout) == (0, "Database downgraded to revision 0004.\n")
    assert "session_version" not in columns
    assert after_down == before
    assert (up.exit_code, up.stdout) == (0, f"Database upgraded to revision {HEAD}.\n")
    assert _counts(engine) == before
    assert min(before.values()) > 0
    engine.dispose()


def test_db_downgrade_asks_before_it_changes_anything(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    env = {"TOURNEY_DATABASE_URL": url, "TOURNEY_INSTANCE_PATH": str(tmp_path / "instance")}
    runner = CliRunner()
    runner.invoke(cli, ["db", "upgrade"], env=env)

    refused = runner.invoke(cli, ["db", "downgrade", "0003"], env=env, input="n\n")
    done = runner.invoke(cli, ["db", "downgrade", "0003"], env=env, input="y\n")

    assert refused.exit_code == 1
    assert done.stdout.splitlines()[-1] == "Database downgraded to revision 0003."
    engine = make_engine(url)
    assert schema.current_revisions(engine) == {"0003"}
    engine.dispose()


def test_sqlite_database_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "instance" / "tourney.db"
    engine = make_engine(f"sqlite:///{path}")

    schema.upgrade(engine)

    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    engine.dispose()
