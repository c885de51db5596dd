"""Alembic environment: runs migrations on the connection our code hands over.

``tourney.store.schema`` drives Alembic programmatically and always passes an open
connection in ``config.attributes["connection"]``; there is no alembic.ini.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

import tourney.store.tables  # noqa: F401  (registers the tables on the metadata)

target_metadata = SQLModel.metadata


def run_migrations_online() -> None:
    """Run the migrations on the connection handed over by ``tourney.store.schema``."""
    connection: Connection | None = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run migrations through `tourney db upgrade`")
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
