"""Shared fixtures: a migrated database per backend, and the app, client and runner on it.

Database tests run on an in-memory SQLite database, and again on PostgreSQL when
``TOURNEY_TEST_DATABASE_URL`` is set (``.ci/run`` sets it). Each PostgreSQL run works in
a schema of its own, dropped at the end, so concurrent runs never meet; between tests
every table is emptied.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlmodel import SQLModel

from tourney.store import accounts, events, roster, schema
from tourney.store.audit import Actor
from tourney.store.db import make_engine, transaction
from tourney.store.passwords import make_hasher
from tourney.store.queries import UserView
from tourney.store.tables import Event

TEST_DB_ENV = "TOURNEY_TEST_DATABASE_URL"
TRANSLATIONS = Path(__file__).resolve().parents[1] / "tourney" / "translations"
PASSWORD = "correct horse battery staple"
FAST_HASHER = make_hasher("fast")


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues() -> None:
    """Every message catalogue compiled to the ``.mo`` the app reads, as ``make install``
    does, for a run that did not go through it; a ``.mo`` older than its ``.po`` is made
    again. Each is written aside and moved in place, so parallel runs never read half."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for source in TRANSLATIONS.glob("*/LC_MESSAGES/*.po"):
        compiled = source.with_suffix(".mo")
        if compiled.exists() and compiled.stat().st_mtime >= source.stat().st_mtime:
            continue
        with source.open("rb") as po:
            catalogue = read_po(po)
        aside = compiled.with_name(f"{compiled.name}.{os.getpid()}.{uuid.uuid4().hex}")
        with aside.open("wb") as mo:
            write_mo(mo, catalogue)
        os.replace(aside, compiled)


@dataclass(frozen=True)
class MigratedDatabase:
    """A migrated database of one backend."""

    backend: str
    url: str
    engine: Engine


def _backends() -> list[str]:
    return ["sqlite", "postgresql"] if os.environ.get(TEST_DB_ENV) else ["sqlite"]


def _pg_admin_engine() -> Engine:
    """An engine on the PostgreSQL test database, or a skip saying why there is none."""
    url = os.environ.get(TEST_DB_ENV, "")
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as error:  # any driver error: the server is not there
        engine.dispose()
        pytest.skip(f"PostgreSQL at {TEST_DB_ENV} is unreachable: {type(error).__name__}")
    return engine


def _schema_url(url: str, schema_name: str) -> str:
    """``url`` with every connection's search path set to ``schema_name``."""
    parsed = make_url(url)
    return parsed.update_query_dict({"options": f"-csearch_path={schema_name}"}).render_as_string(
        hide_password=False
    )


@pytest.fixture(scope="session")
def pg_schemas() -> Iterator[Callable[[], str]]:
    """A factory of fresh PostgreSQL schemas (URLs), all dropped at the end of the run."""
    admin = _pg_admin_engine()
    created: list[str] = []

    def new_schema() -> str:
        name = f"t_{uuid.uuid4().hex[:12]}"
        with admin.connect() as connection:
            connection.execute(text(f'CREATE SCHEMA "{name}"'))
        created.append(name)
        return _schema_url(os.environ[TEST_DB_ENV], name)

    yield new_schema
    with admin.connect() as connection:
        for name in created:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
    admin.dispose()


@pytest.fixture(scope="session", params=_backends())
def database(request: pytest.FixtureRequest) -> Iterator[MigratedDatabase]:
    """A database migrated to the newest revision, shared by the tests of one backend."""
    url = "sqlite://" if request.param == "sqlite" else request.getfixturevalue("pg_schemas")()
    engine = make_engine(url)
    schema.upgrade(engine)
    yield MigratedDatabase(backend=request.param, url=url, engine=engine)
    engine.dispose()


def _empty_tables(engine: Engine) -> None:
    with engine.begin() as connection:
        for table in reversed(SQLModel.metadata.sorted_tables):
            connection.execute(table.delete())


@pytest.fixture
def engine(database: MigratedDatabase) -> Iterator[Engine]:
    """The migrated database's engine; every table is emptied after the test."""
    yield database.engine
    _empty_tables(database.engine)


@pytest.fixture
def empty_database_url(
    database: MigratedDatabase, tmp_path: Path, request: pytest.FixtureRequest
) -> str:
    """A URL of a database with no tables at all, of the same backend."""
    if database.backend == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.db'}"
    factory: Callable[[], str] = request.getfixturevalue("pg_schemas")
    return factory()


def app_config(database_url: str, tmp_path: Path, **overrides: Any) -> dict[str, Any]:
    """Settings for a test app: fast hashes, no CSRF unless asked for, a temporary instance."""
    config: dict[str, Any] = {
        "TESTING": True,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "test-secret",
        "CSRF_ENABLED": False,
        "PASSWORD_HASH_PROFILE": "fast",
        "INSTANCE_PATH": str(tmp_path / "instance"),
    }
    config.update(overrides)
    return config


@pytest.fixture
def app(database: MigratedDatabase, engine: Engine, tmp_path: Path) -> Flask:
    """The app on the shared test database (CSRF off; see ``tests/web`` for CSRF tests)."""
    from tourney.web import create_app

    return create_app(app_config(database.url, tmp_path), engine=engine)


@pytest.fixture
def make_app(database: MigratedDatabase, engine: Engine, tmp_path: Path) -> Callable[..., Flask]:
    """A factory of apps on the shared test database with extra settings (``CSRF_ENABLED``)."""
    from tourney.web import create_app

    def make(**overrides: Any) -> Flask:
        return create_app(app_config(database.url, tmp_path, **overrides), engine=engine)

    return make


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of ``app``."""
    return app.test_client()


@pytest.fixture
def runner() -> CliRunner:
    """A runner for the ``tourney`` command."""
    return CliRunner()


@pytest.fixture
def make_user(engine: Engine) -> Callable[..., UserView]:
    """A factory of accounts, all with the password ``PASSWORD``."""
    counter = iter(range(1, 10_000))

    def make(role: str = "director", email: str | None = None, name: str = "") -> UserView:
        n = next(counter)
        with transaction(engine) as session:
            return accounts.create_user(
                session,
                actor=Actor.cli(),
                email=email or f"{role}{n}@example.org",
                name=name or f"{role.title()} {n}",
                password=PASSWORD,
                role=role,
                hasher=FAST_HASHER,
            )

    return make


@dataclass(frozen=True)
class BuiltEvent:
    """An event made by ``build_event``: its director, flights by name, entries by player."""

    director: UserView
    event_id: int
    flights: dict[str, int]
    entries: dict[str, int]


@pytest.fixture
def build_event(engine: Engine, make_user: Callable[..., UserView]) -> Callable[..., BuiltEvent]:
    """A factory of events with players entered (seeded 1, 2, ... in the order given).

    Flights are dicts of ``FlightFields`` values, with ``feeds_from`` (``qualifies_from``)
    naming an earlier one.
    """

    def build(
        players: list[str],
        flights: list[dict[str, Any]],
        *,
        seeded: bool = True,
        **event_fields: Any,
    ) -> BuiltEvent:
        director = make_user("director")
        actor = director.actor
        with transaction(engine) as session:
            event = events.create_event(
                session,
                actor=actor,
                fields=events.EventFields(
                    name=event_fields.pop("name", "Club Night"), **event_fields
                ),
            )
            ids: dict[str, int] = {}
            for spec in flights:
                spec = dict(spec)
                source = spec.pop("feeds_from", None)
                stage = spec.pop("qualifies_from", None)
                fields = events.FlightFields(
                    feeds_from_id=ids[source] if source else None,
                    qualifies_from_id=ids[stage] if stage else None,
                    **spec,
                )
                ids[spec["name"]] = events.add_flight(
                    session, actor=actor, event_id=event.id, fields=fields
                ).id
            entries: dict[str, int] = {}
            for n, name in enumerate(players, start=1):
                player = roster.register_player(
                    session, actor=actor, fields=roster.PlayerFields(name=name)
                )
                entries[name] = roster.enter_player(
                    session,
                    actor=actor,
                    event_id=event.id,
                    player_id=player.id,
                    seed=n if seeded else None,
                ).id
        return BuiltEvent(director, event.id, ids, entries)

    return build


@pytest.fixture
def into_club(engine: Engine) -> Callable[..., int]:
    """A factory: a new club, made by the event's director, that a built event belongs
    to; returns the club's id."""

    def make(built: BuiltEvent, name: str = "Fjordside BG") -> int:
        with transaction(engine) as session:
            club = events.create_club(session, actor=built.director.actor, name=name)
            event = session.get(Event, built.event_id)
            assert event is not None
            event.club_id = club.id
        return club.id or 0

    return make
