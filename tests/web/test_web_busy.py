"""A write that cannot get SQLite's write lock: retried, then refused with 503.

Another connection holds the lock (``BEGIN IMMEDIATE``) the way a concurrent writer in
another worker process does; the busy timeout is cut short so the tests stay quick.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.store import accounts, schema
from tourney.store.audit import Actor
from tourney.store.db import make_engine, transaction
from tourney.store.passwords import make_hasher

BUSY_TIMEOUT_MS = 50
PASSWORD = "correct horse battery staple"


@pytest.fixture
def file_db(tmp_path: Path) -> Iterator[tuple[Path, Engine]]:
    path = tmp_path / "busy.db"
    engine = make_engine(f"sqlite:///{path}", busy_timeout_ms=BUSY_TIMEOUT_MS)
    schema.upgrade(engine)
    yield path, engine
    engine.dispose()


@pytest.fixture
def busy_client(file_db: tuple[Path, Engine], tmp_path: Path) -> FlaskClient:
    """A client logged in as a director, on a file database."""
    from tourney.web import create_app

    path, engine = file_db
    config = {
        "TESTING": True,
        "DATABASE_URL": f"sqlite:///{path}",
        "SECRET_KEY": "test-secret",
        "CSRF_ENABLED": False,
        "PASSWORD_HASH_PROFILE": "fast",
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "SQLITE_BUSY_TIMEOUT_MS": BUSY_TIMEOUT_MS,
    }
    app: Flask = create_app(config, engine=engine)
    with transaction(engine) as session:
        accounts.create_user(
            session,
            actor=Actor.cli(),
            email="anna@club.example",
            name="Anna",
            password=PASSWORD,
            role="director",
            hasher=make_hasher("fast"),
        )
    client = app.test_client()
    response = client.post("/login", data={"email": "anna@club.example", "password": PASSWORD})
    assert response.status_code == 302
    return client


@contextmanager
def write_lock(path: Path) -> Iterator[Callable[[], None]]:
    """Hold the database's write lock from another connection; yields its release."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    released = False

    def release() -> None:
        nonlocal released
        if not released:
            other.execute("ROLLBACK")
            released = True

    try:
        yield release
    finally:
        release()
        other.close()


def test_a_page_write_is_answered_503_with_retry_after_while_the_lock_is_held(
    busy_client: FlaskClient, file_db: tuple[Path, Engine]
) -> None:
    with write_lock(file_db[0]):
        response = busy_client.post("/logout")
    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) > 0
    assert "nothing was saved" in response.get_data(as_text=True)


def test_an_api_write_is_answered_503_as_json_while_the_lock_is_held(
    busy_client: FlaskClient, file_db: tuple[Path, Engine]
) -> None:
    with write_lock(file_db[0]):
        response = busy_client.post(
            "/api/v1/matches/1/games", json={"winner": "a", "end": "played"}
        )
    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) > 0
    assert response.get_json()["error"]["status"] == 503


def test_a_write_goes_through_when_the_lock_is_released_while_it_retries(
    busy_client: FlaskClient, file_db: tuple[Path, Engine]
) -> None:
    with write_lock(file_db[0]) as release:
        timer = threading.Timer(0.15, release)
        timer.start()
        response = busy_client.post("/logout")
        timer.join()
    assert response.status_code == 302
