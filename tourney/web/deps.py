"""Per-app resources the views use: the engine, the password hasher, the settings.

They live in ``app.extensions`` (set by ``create_app``), never in module globals, so two
apps in one process (the test-suite) never share a database.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from argon2 import PasswordHasher
from flask import current_app
from flask_login import current_user
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.config import Settings
from tourney.store.audit import Actor
from tourney.store.db import read_session, transaction

EXTENSION = "tourney"


@dataclass(frozen=True)
class AppState:
    """What ``create_app`` builds once per app."""

    settings: Settings
    engine: Engine
    hasher: PasswordHasher


def state() -> AppState:
    """The current app's resources."""
    found: AppState = current_app.extensions[EXTENSION]
    return found


def actor() -> Actor:
    """The logged-in user as the actor of a service call."""
    found: Actor = current_user.actor
    return found


@contextmanager
def writing() -> Iterator[Session]:
    """A transaction on the app's database (one use case)."""
    with transaction(state().engine) as session:
        yield session


@contextmanager
def reading() -> Iterator[Session]:
    """A read-only session on the app's database."""
    with read_session(state().engine) as session:
        yield session
