"""Engine and transactions.

``make_engine`` builds an engine from a URL with the SQLite pragmas the app relies on
(WAL journal, foreign keys, a busy timeout). ``transaction`` is the unit of work: one
session, committed when the block ends, rolled back when it raises. Services take that
session and never commit themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, create_engine

from tourney.config import Settings
from tourney.store import versions  # noqa: F401 - installs the listeners that move event versions

SQLITE_BUSY_TIMEOUT_MS = 5000


def is_memory_sqlite(url: str) -> bool:
    """True for an in-memory SQLite URL (``sqlite://`` or ``sqlite:///:memory:``)."""
    parsed = make_url(url)
    return parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:")


def make_engine(url: str, *, echo: bool = False) -> Engine:
    """Create an engine for ``url``; SQLite gets WAL, foreign keys and real transactions.

    A file SQLite database gets its directory created. An in-memory one uses a single
    shared connection, so that every session of the app sees the same database.
    """
    parsed = make_url(url)
    kwargs: dict[str, Any] = {"echo": echo}
    if parsed.get_backend_name() == "sqlite":
        kwargs["connect_args"] = {"check_same_thread": False}
        if is_memory_sqlite(url):
            kwargs["poolclass"] = StaticPool
        elif parsed.database:
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, **kwargs)
        _install_sqlite_pragmas(engine, wal=not is_memory_sqlite(url))
        return engine
    kwargs["pool_pre_ping"] = True
    return create_engine(url, **kwargs)


def _install_sqlite_pragmas(engine: Engine, *, wal: bool) -> None:
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
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        if wal:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        mode = connection.get_execution_options().get("tourney_begin", "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")


def engine_from_settings(settings: Settings) -> Engine:
    """The engine for the configured database."""
    return make_engine(settings.database_url, echo=settings.sql_echo)


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """One unit of work: a session committed on success and rolled back on error.

    Objects stay readable after the commit (``expire_on_commit=False``) so a service can
    build its read model from them.
    """
    bind = engine.execution_options(tourney_begin="IMMEDIATE")
    with Session(bind, expire_on_commit=False) as session, session.begin():
        yield session


@contextmanager
def read_session(engine: Engine) -> Iterator[Session]:
    """A session for reads only; whatever it does is rolled back at the end."""
    with Session(engine) as session:
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
