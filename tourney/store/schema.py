"""Schema management: apply or revert the Alembic migrations; check the database is current.

The tables are never created with ``create_all`` on a live database; ``upgrade`` runs the
migrations in ``tourney/store/migrations``, ``downgrade`` reverts them, and
``check_current`` is what the app calls at start-up to refuse an out-of-date schema.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine

MIGRATIONS = Path(__file__).parent / "migrations"
UPGRADE_COMMAND = "tourney db upgrade"


class SchemaOutOfDateError(RuntimeError):
    """The database is not at the newest migration; the message says what to run."""


def alembic_config() -> Config:
    """An Alembic configuration pointing at our migrations, with no ini file."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head_revisions() -> set[str]:
    """The newest revision(s) the code knows."""
    return set(ScriptDirectory.from_config(alembic_config()).get_heads())


def current_revisions(engine: Engine) -> set[str]:
    """The revision(s) the database is at; empty for a database never migrated."""
    with engine.connect() as connection:
        return set(MigrationContext.configure(connection).get_current_heads())


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply every pending migration to the database behind ``engine``."""
    config = alembic_config()
    with _migrating(engine) as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def downgrade(engine: Engine, revision: str = "-1") -> None:
    """Revert the database behind ``engine`` to ``revision`` (default: one step back).

    Raises:
        RuntimeError: a migration refuses because the data cannot be kept (its message
            says what to change first).
    """
    config = alembic_config()
    with _migrating(engine) as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


@contextmanager
def _migrating(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction for migrations.

    On SQLite, foreign keys are off while it lasts: a migration there alters a table by
    copying it, dropping the old one and renaming the copy, and with foreign keys on,
    dropping a table deletes (ON DELETE CASCADE) every row that refers to it. The keys
    are checked once the migrations are done, before the commit.
    """
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        # The pragma is ignored inside a transaction: it goes to the driver's connection
        # before the first one begins.
        driver = connection.connection.driver_connection
        if sqlite and driver is not None:
            driver.execute("PRAGMA foreign_keys=OFF")
        try:
            with connection.begin():
                yield connection
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").first()
                    if broken is not None:
                        raise RuntimeError(
                            f"the migration left a row of {broken[0]} referring to a missing "
                            f"row of {broken[2]}; nothing was changed"
                        )
        finally:
            if sqlite and driver is not None:
                driver.execute("PRAGMA foreign_keys=ON")


def check_current(engine: Engine) -> None:
    """Refuse a database whose schema is not the newest.

    Raises:
        SchemaOutOfDateError: the database is empty, behind, or ahead of this code.
    """
    current = current_revisions(engine)
    heads = head_revisions()
    if current == heads:
        return
    script = ScriptDirectory.from_config(alembic_config())
    if not current:
        state = "has no tables yet"
    elif not all(_exists(script, rev) for rev in current):
        state = f"is at revision {', '.join(sorted(current))}, unknown to this version of tourney"
    else:
        state = f"is at revision {', '.join(sorted(current))}, not {', '.join(sorted(heads))}"
    raise SchemaOutOfDateError(
        f"The database schema is out of date: it {state}. Run `{UPGRADE_COMMAND}` first."
    )


def _exists(script: ScriptDirectory, revision: str) -> bool:
    """True when the migrations know ``revision``."""
    try:
        return script.get_revision(revision) is not None
    except Exception:  # alembic raises its own resolution errors for unknown ids
        return False
