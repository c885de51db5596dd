"""Accounts: a session can be ended everywhere (logout, password change, deactivation),
each change with its audit entry."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import accounts, queries
from tourney.store.db import transaction
from tourney.store.errors import AccessDeniedError, StoreUserError
from tourney.store.passwords import make_hasher, verify_password
from tourney.store.queries import UserView
from tourney.store.tables import AuditEntry, User

HASHER = make_hasher("fast")
PASSWORD = "correct horse battery staple"
NEW_PASSWORD = "a longer and newer passphrase"


def _audit(engine: Engine) -> list[tuple[str, int | None]]:
    with Session(engine) as session:
        rows = session.exec(select(AuditEntry).order_by(AuditEntry.id))
        return [(a.action, a.entity_id) for a in rows if a.action != "user.create"]


def _stored(engine: Engine, user_id: int) -> User:
    with Session(engine) as session:
        user = session.get(User, user_id)
        assert user is not None
        return user


def test_end_sessions_moves_the_session_version_on(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    user = make_user("director")

    with transaction(engine) as session:
        ended = accounts.end_sessions(session, actor=user.actor)

    assert (user.session_version, ended.session_version) == (1, 2)
    assert _audit(engine) == [("user.logout", user.id)]


def test_change_password_checks_the_current_one_and_ends_sessions(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    user = make_user("scorer")

    with transaction(engine) as session:
        changed = accounts.change_password(
            session,
            actor=user.actor,
            current_password=PASSWORD,
            new_password=NEW_PASSWORD,
            hasher=HASHER,
        )

    stored = _stored(engine, user.id)
    assert changed.session_version == 2
    assert verify_password(HASHER, stored.password_hash, NEW_PASSWORD)
    assert _audit(engine) == [("user.password_change", user.id)]


@pytest.mark.parametrize(
    ("current", "new", "message", "field"),
    [
        ("not my password", NEW_PASSWORD, "Your current password is wrong.", "current_password"),
        (PASSWORD, "short", "Use a password of at least 10 characters.", "password"),
        (PASSWORD, PASSWORD, "Choose a password other than the current one.", "password"),
    ],
)
def test_change_password_refusals_change_nothing(
    make_user: Callable[..., UserView],
    engine: Engine,
    current: str,
    new: str,
    message: str,
    field: str,
) -> None:
    user = make_user("director")

    with pytest.raises(StoreUserError) as caught, transaction(engine) as session:
        accounts.change_password(
            session, actor=user.actor, current_password=current, new_password=new, hasher=HASHER
        )

    assert (caught.value.message, caught.value.field) == (message, field)
    assert _stored(engine, user.id).session_version == 1
    assert _audit(engine) == []


def test_admin_deactivates_an_account_and_ends_its_sessions(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    admin, director = make_user("admin"), make_user("director")

    with transaction(engine) as session:
        gone = accounts.deactivate_user(session, actor=admin.actor, user_id=director.id)

    assert (gone.is_active, gone.session_version) == (False, 2)
    with Session(engine) as session:
        assert queries.get_user(session, director.id) == gone
    assert _audit(engine) == [("user.deactivate", director.id)]


def test_only_an_admin_deactivates_and_never_their_own_account(
    make_user: Callable[..., UserView], engine: Engine
) -> None:
    admin, director = make_user("admin"), make_user("director")

    with pytest.raises(AccessDeniedError), transaction(engine) as session:
        accounts.deactivate_user(session, actor=director.actor, user_id=admin.id)
    with pytest.raises(StoreUserError) as own, transaction(engine) as session:
        accounts.deactivate_user(session, actor=admin.actor, user_id=admin.id)

    assert own.value.message == "You cannot deactivate your own account."
    assert (_stored(engine, admin.id).is_active, _audit(engine)) == (True, [])
