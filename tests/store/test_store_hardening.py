"""The store's last lines of defence: no NUL character is ever stored, on any database;
the login limit is per account and address, and parallel attempts cannot pass it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, func, select

from tourney.store import accounts, roster, schema
from tourney.store.db import make_engine, transaction
from tourney.store.errors import StoreUserError
from tourney.store.passwords import make_hasher
from tourney.store.queries import UserView
from tourney.store.tables import LoginAttempt, Player

NUL = "Text may not hold NUL characters (zero bytes)."
HASHER = make_hasher("fast")
PASSWORD = "correct horse battery staple"


def _players(engine: Engine) -> int:
    with Session(engine) as session:
        return int(session.exec(select(func.count()).select_from(Player)).one())


def test_text_with_a_nul_character_is_never_stored(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    director = make_user("director")
    fields = roster.PlayerFields(name="Ann Berg", email="ann\x00@example.org")

    with pytest.raises(StoreUserError) as caught, transaction(engine) as session:
        roster.register_player(session, actor=director.actor, fields=fields)

    assert (caught.value.message, caught.value.status_code) == (NUL, 400)
    assert _players(engine) == 0


def _login(
    engine: Engine, email: str, password: str, remote: str, limits: accounts.LoginLimits
) -> accounts.LoginResult:
    with transaction(engine) as session:
        return accounts.authenticate(
            session, email=email, password=password, remote_addr=remote,
            hasher=HASHER, limits=limits,
        )


def test_failures_from_one_address_do_not_lock_the_owner_out_elsewhere(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    user = make_user("director")
    limits = accounts.LoginLimits(max_failures=5, max_failures_per_address=30)
    for _ in range(5):
        _login(engine, user.email, "a wrong guess", "192.0.2.66", limits)

    from_attacker = _login(engine, user.email, PASSWORD, "192.0.2.66", limits)
    from_owner = _login(engine, user.email, PASSWORD, "198.51.100.7", limits)

    assert (from_attacker.user, from_attacker.throttled) == (None, True)
    assert (from_owner.user, from_owner.throttled) == (user, False)


def test_parallel_wrong_logins_never_get_past_the_limit(
    empty_database_url: str,
) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    with transaction(engine) as session:
        user = accounts.create_first_admin(
            session, email="owner@example.org", name="Owner", password=PASSWORD, hasher=HASHER
        )
    limits = accounts.LoginLimits(max_failures=3, max_failures_per_address=30)
    start = threading.Barrier(8)

    def attempt(_: int) -> bool:
        start.wait()
        return _login(engine, user.email, "a wrong guess", "192.0.2.66", limits).throttled

    with ThreadPoolExecutor(max_workers=8) as pool:
        throttled = list(pool.map(attempt, range(8)))
    with Session(engine) as session:
        recorded = session.exec(select(func.count()).select_from(LoginAttempt)).one()

    assert (sorted(throttled), recorded) == ([False] * 3 + [True] * 5, 3)
    engine.dispose()

