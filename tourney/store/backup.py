"""Backing up the database to a file and restoring it from one.

SQLite uses its online backup API: a backup is a consistent copy taken while the app
runs, and a restore copies the file's pages into the live database, so the app's open
connections see the restored data (nothing needs restarting). PostgreSQL is dumped with
``pg_dump`` as SQL that drops and recreates every table, and restored with ``psql`` in
one transaction; both programs must be installed.

A restored database must be one tourney can open: a file that is not a SQLite database,
or one with no tourney schema, is refused before anything is overwritten.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

from sqlalchemy.engine import make_url

from tourney.rules.messages import Message
from tourney.store.db import is_memory_sqlite


class BackupError(RuntimeError):
    """A backup or restore could not be made; the message says why, in one line."""


def backup(database_url: str, destination: Path) -> None:
    """Copy the database at ``database_url`` to the file ``destination`` (replaced).

    Raises:
        BackupError: an in-memory database, or ``pg_dump`` missing or failing.
    """
    if _is_sqlite(database_url):
        destination.touch(mode=0o600)  # it holds password hashes, like the database
        with closing(_connect(database_url)) as source, closing(
            sqlite3.connect(destination)
        ) as target:
            source.backup(target)
        return
    _run(
        "pg_dump",
        [
            "--clean",
            "--if-exists",
            "--no-owner",
            "--no-privileges",
            "--file",
            str(destination),
            _libpq_url(database_url),
        ],
    )


def restore(database_url: str, source: Path) -> None:
    """Replace the database at ``database_url`` by the backup in the file ``source``.

    Raises:
        BackupError: no such file, a file that is not a tourney backup, an in-memory
            database, or ``psql`` missing or failing.
    """
    if not source.is_file():
        raise BackupError(Message("No backup file %(file)s.", file=str(source)))
    if _is_sqlite(database_url):
        with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as backup_file:
            _require_tourney_database(backup_file, source)
            with closing(_connect(database_url)) as target:
                backup_file.backup(target)
        return
    _run(
        "psql",
        [
            "--quiet",
            "--single-transaction",
            "--set",
            "ON_ERROR_STOP=1",
            "--file",
            str(source),
            _libpq_url(database_url),
        ],
    )


def _is_sqlite(database_url: str) -> bool:
    if is_memory_sqlite(database_url):
        raise BackupError(Message("An in-memory database cannot be backed up or restored."))
    return make_url(database_url).get_backend_name() == "sqlite"


def _connect(database_url: str) -> sqlite3.Connection:
    """A plain connection to the SQLite file of ``database_url``, waiting for writers."""
    path = make_url(database_url).database
    assert path is not None
    return sqlite3.connect(path, timeout=30)


def _require_tourney_database(connection: sqlite3.Connection, path: Path) -> None:
    """Refuse a file that is not a SQLite database with tourney's schema in it."""
    try:
        found = connection.execute(
            "SELECT COUNT(*) FROM sqlite_master WHERE name = 'alembic_version'"
        ).fetchone()
    except sqlite3.DatabaseError:
        raise BackupError(Message("%(file)s is not a SQLite database.", file=str(path))) from None
    if not found or found[0] == 0:
        raise BackupError(Message("%(file)s holds no tourney database.", file=str(path)))


def _libpq_url(database_url: str) -> str:
    """The URL as ``pg_dump``/``psql`` read it (no SQLAlchemy driver name)."""
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def _run(program: str, arguments: list[str]) -> None:
    """Run a PostgreSQL client program; its own error message on failure."""
    found = shutil.which(program)
    if found is None:
        raise BackupError(Message(
            "%(program)s is not installed; it is needed for a PostgreSQL database "
            "(install the PostgreSQL client tools).",
            program=program,
        ))
    done = subprocess.run([found, *arguments], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        if not lines:
            raise BackupError(Message(
                "%(program)s failed: exit status %(status)s",
                program=program, status=done.returncode,
            ))
        # The program's own last line of error output, as it wrote it.
        raise BackupError(Message(
            "%(program)s failed: %(reason)s", program=program, reason=lines[-1]
        ))
