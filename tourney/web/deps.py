"""Per-app resources the views use: the engine, the password hasher, the settings.

They live in ``app.extensions`` (set by ``create_app``), never in module globals, so two
apps in one process (the test-suite) never share a database.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from flask import current_app, request, url_for
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


def public_root() -> str:
    """The app's address as players reach it, ending in ``/``: ``TOURNEY_PUBLIC_URL`` when
    set (the address a phone on the club's network opens), else this request's."""
    configured = state().settings.public_url
    return configured.rstrip("/") + "/" if configured else request.url_root


def public_url_for(endpoint: str, **values: Any) -> str:
    """The full address of a page under :func:`public_root`, for a QR code or a link to share."""
    return public_root() + url_for(endpoint, **values).removeprefix(request.script_root).lstrip("/")


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
