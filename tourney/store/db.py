"""Engine and transactions.

``make_engine`` builds an engine from a URL with the SQLite pragmas the app relies on
(WAL journal, foreign keys, a busy timeout). ``transaction`` is the unit of work: one
session, committed when the block ends, rolled back when it raises. Services take that
session and never commit themselves.

No text with a NUL character is ever written: PostgreSQL refuses it (a driver error),
SQLite would store it; a unit of work refuses it on every database alike, with a
message a person understands.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, create_engine

from tourney.config import Settings
from tourney.rules.messages import Message
from tourney.store import versions  # noqa: F401 - installs the listeners that move event versions
from tourney.store.errors import DatabaseBusyError, StoreUserError

SQLITE_BUSY_TIMEOUT_MS = 5000
BUSY_RETRY_DELAYS_S = (0.1, 0.4)
"""Pauses before a unit of work tries again to take a SQLite write lock another writer
holds (each attempt also waits the busy timeout); then it gives up with
``DatabaseBusyError``."""
NUL_MESSAGE = Message("Text may not hold NUL characters (zero bytes).")


def is_memory_sqlite(url: str) -> bool:
    """True for an in-memory SQLite URL (``sqlite://`` or ``sqlite:///:memory:``)."""
    parsed = make_url(url)
    return parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:")


def make_engine(
    url: str, *, echo: bool = False, busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS
) -> Engine:
    """Create an engine for ``url``; SQLite gets WAL, foreign keys and real transactions.

    A file SQLite database gets its directory created, and the file itself, readable
    and writable by its owner only (it holds password hashes; SQLite gives its journal
    files the same mode). An in-memory one uses a single shared connection, so that
    every session of the app sees the same database.
    """
    parsed = make_url(url)
    kwargs: dict[str, Any] = {"echo": echo}
    if parsed.get_backend_name() == "sqlite":
        kwargs["connect_args"] = {"check_same_thread": False}
        if is_memory_sqlite(url):
            kwargs["poolclass"] = StaticPool
        elif parsed.database:
            _create_private_file(Path(parsed.database))
        engine = create_engine(url, **kwargs)
        _install_sqlite_pragmas(
            engine, wal=not is_memory_sqlite(url), busy_timeout_ms=busy_timeout_ms
        )
        return engine
    kwargs["pool_pre_ping"] = True
    return create_engine(url, **kwargs)


def _create_private_file(path: Path) -> None:
    """Create ``path`` (and its directory) with mode 0600 unless it exists."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def _install_sqlite_pragmas(engine: Engine, *, wal: bool, busy_timeout_ms: int) -> None:
    """Turn on the pragmas and let SQLAlchemy, not pysqlite, emit BEGIN.

    pysqlite's own transaction handling defers BEGIN until the first write, which breaks
    isolation for a read-then-write unit of work; writers begin IMMEDIATE so that two
    concurrent writers queue on the busy timeout instead of failing half-way.
    """

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        if wal:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        mode = connection.get_execution_options().get("tourney_begin", "DEFERRED")
        _begin_retrying_while_busy(connection, f"BEGIN {mode}")


def _begin_retrying_while_busy(connection: Any, statement: str) -> None:
    """Run ``statement`` (a BEGIN), trying again while another writer holds the lock.

    Only the BEGIN is retried: nothing has been read or written yet, so trying again is
    safe, whereas a failure later in the transaction is the transaction's own.

    Raises:
        DatabaseBusyError: still busy after ``BUSY_RETRY_DELAYS_S``.
    """
    for delay in (*BUSY_RETRY_DELAYS_S, None):
        try:
            connection.exec_driver_sql(statement)
        except OperationalError as error:
            if not _is_busy(error):
                raise
            if delay is None:
                raise DatabaseBusyError(
                    Message("The database is busy; try again shortly.")
                ) from error
            time.sleep(delay)
        else:
            return


def _is_busy(error: OperationalError) -> bool:
    """True for SQLite's "database is locked" (or "busy"): another writer holds the lock."""
    message = str(error.orig).lower()
    return "database is locked" in message or "database is busy" in message


def engine_from_settings(settings: Settings) -> Engine:
    """The engine for the configured database."""
    return make_engine(
        settings.database_url,
        echo=settings.sql_echo,
        busy_timeout_ms=settings.sqlite_busy_timeout_ms,
    )


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """One unit of work: a session committed on success and rolled back on error.

    Objects stay readable after the commit (``expire_on_commit=False``) so a service can
    build its read model from them.

    Raises:
        DatabaseBusyError: other writers kept SQLite's write lock through every attempt
            to take it (nothing of the block was saved).
    """
    bind = engine.execution_options(tourney_begin="IMMEDIATE")
    with Session(bind, expire_on_commit=False) as session, session.begin():
        event.listen(session, "before_flush", _refuse_nul_text)
        yield session


def _refuse_nul_text(session: Session, _context: Any, _instances: Any) -> None:
    """Refuse to write a row whose text holds a NUL character.

    Raises:
        StoreUserError: a text column of a new or changed row holds one.
    """
    for row in (*session.new, *session.dirty):
        for column in inspect(row).mapper.column_attrs:
            value = getattr(row, column.key)
            if isinstance(value, str) and "\x00" in value:
                raise StoreUserError(NUL_MESSAGE, field=column.key)


READ_ONLY = "tourney.read_only"
"""``Session.info`` key set on sessions that only read (what they load may be shared)."""


@contextmanager
def read_session(engine: Engine) -> Iterator[Session]:
    """A session for reads only; whatever it does is rolled back at the end."""
    with Session(engine) as session:
        session.info[READ_ONLY] = True
        try:
            yield session
        finally:
            session.rollback()


def ping(engine: Engine) -> bool:
    """True when the database answers a trivial query."""
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception:  # any driver error means "not reachable"
        return False
    return True
