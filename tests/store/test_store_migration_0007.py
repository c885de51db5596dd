"""Migration 0007 (roster owners, imported history): a player added before it belongs to
whoever the log says added it, and the revision goes down and up again."""

from __future__ import annotations

from sqlalchemy import inspect, text

from tourney.store import schema
from tourney.store.db import make_engine


def test_players_added_before_the_revision_belong_to_the_director_who_added_them(
    empty_database_url: str,
) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine, "0006")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (email, name, password_hash, role, is_active, created_at) "
                "VALUES ('anna@example.org', 'Anna', 'x', 'director', true, CURRENT_TIMESTAMP)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO players (name, country, created_at) "
                "VALUES ('Carl', '', CURRENT_TIMESTAMP)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO audit_entries (at, actor_id, actor_label, action, entity_type, "
                "entity_id) SELECT CURRENT_TIMESTAMP, u.id, u.email, 'player.create', 'player', "
                "p.id FROM users u, players p"
            )
        )

    schema.upgrade(engine)
    with engine.connect() as connection:
        owners = connection.execute(
            text("SELECT p.name, u.email FROM players p JOIN users u ON u.id = p.added_by_id")
        ).all()
    schema.downgrade(engine, "0006")
    columns = {c["name"] for c in inspect(engine).get_columns("players")}
    schema.upgrade(engine)

    assert [tuple(r) for r in owners] == [("Carl", "anna@example.org")]
    assert "added_by_id" not in columns
    engine.dispose()
