"""Migration 0006 (API token scope and expiry): old tokens keep full rights, and the
revision goes down and up again."""

from __future__ import annotations

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from tourney.store import schema
from tourney.store.db import make_engine


def _insert_user_and_token(connection: Connection) -> None:
    connection.execute(
        text(
            "INSERT INTO users (email, name, password_hash, role, is_active, created_at) "
            "VALUES ('old@example.org', 'Old', 'x', 'director', true, CURRENT_TIMESTAMP)"
        )
    )
    connection.execute(
        text(
            "INSERT INTO api_tokens (user_id, name, token_hash, hint, created_at) "
            "SELECT id, 'scoreboard', 'abc', 'tny_abc', CURRENT_TIMESTAMP FROM users"
        )
    )


def test_a_token_made_before_the_revision_keeps_full_scope_and_never_expires(
    empty_database_url: str,
) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine, "0005")
    with engine.begin() as connection:
        _insert_user_and_token(connection)

    schema.upgrade(engine)

    with engine.connect() as connection:
        rows = connection.execute(text("SELECT scope, expires_at FROM api_tokens")).all()
    assert [tuple(r) for r in rows] == [("full", None)]
    engine.dispose()


def test_downgrade_drops_scope_and_expiry_and_keeps_the_tokens(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    with engine.begin() as connection:
        _insert_user_and_token(connection)

    schema.downgrade(engine, "0005")
    columns = {c["name"] for c in inspect(engine).get_columns("api_tokens")}
    schema.upgrade(engine)

    with engine.connect() as connection:
        names = connection.execute(text("SELECT name, scope FROM api_tokens")).all()
    assert not {"scope", "expires_at"} & columns
    assert [tuple(r) for r in names] == [("scoreboard", "full")]
    engine.dispose()
