"""Schema management: apply the Alembic migrations and check the database is current.

The tables are never created with ``create_all`` on a live database; ``upgrade`` runs the
migrations in ``tourney/store/migrations`` and ``check_current`` is what the app calls at
start-up to refuse an out-of-date schema.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

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
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


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
