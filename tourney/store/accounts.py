"""Use cases of accounts: creating users (the first admin too), logging in within the
failed-login limits, changing one's password, ending one's sessions, deactivating.

The use cases keep the contract described in ``tourney.store``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta

from argon2 import PasswordHasher
from sqlalchemy import func
from sqlmodel import Session, col, delete, select

from tourney.rules.messages import Message, PluralMessage
from tourney.store import queries
from tourney.store.audit import Actor, record, snapshot
from tourney.store.errors import AccessDeniedError, NotFoundError, StoreUserError
from tourney.store.inputs import EMAIL_ADDRESS, clean_text
from tourney.store.passwords import dummy_hash, verify_password
from tourney.store.permissions import require_role
from tourney.store.queries import UserView
from tourney.store.roles import ACCOUNT_MANAGERS
from tourney.store.tables import LoginAttempt, Role, User
from tourney.store.types import utcnow

MIN_PASSWORD_LENGTH = 10


@dataclass(frozen=True)
class LoginLimits:
    """How many failed logins are allowed within the window."""

    max_failures: int = 5
    """For one account from one address."""
    max_failures_per_address: int = 30
    """From one address, over all accounts."""
    window_seconds: int = 900


@dataclass(frozen=True)
class LoginResult:
    """The outcome of a login attempt; a failure is recorded, so it is not an exception."""

    user: UserView | None
    message: str = ""
    throttled: bool = False


def _check_password_length(password: str) -> None:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise StoreUserError(
            Message(
                "Use a password of at least %(least)s characters.", least=MIN_PASSWORD_LENGTH
            ),
            field="password",
        )


def _check_new_user(session: Session, *, email: str, name: str, password: str, role: str) -> str:
    address = email.strip().lower()
    if not EMAIL_ADDRESS.match(address):
        raise StoreUserError(Message("Enter a valid e-mail address."), field="email")
    if not clean_text(name):
        raise StoreUserError(Message("Enter a name."), field="name")
    _check_password_length(password)
    if role not in {r.value for r in Role}:
        raise StoreUserError(Message("Unknown role %(role)s.", role=repr(role)), field="role")
    if session.exec(select(User.id).where(User.email == address)).first() is not None:
        raise StoreUserError(
            Message("An account with this e-mail address exists."), field="email"
        )
    return address


def _add_user(
    session: Session,
    *,
    actor: Actor,
    email: str,
    name: str,
    password: str,
    role: str,
    hasher: PasswordHasher,
) -> UserView:
    address = _check_new_user(session, email=email, name=name, password=password, role=role)
    user = User(
        email=address, name=clean_text(name), password_hash=hasher.hash(password), role=role
    )
    session.add(user)
    session.flush()
    record(
        session,
        actor=actor,
        action="user.create",
        entity_type="user",
        entity_id=user.id,
        after=snapshot(user, exclude={"password_hash"}),
    )
    return queries.user_view(user)


def create_user(
    session: Session,
    *,
    actor: Actor,
    email: str,
    name: str,
    password: str,
    role: str,
    hasher: PasswordHasher,
) -> UserView:
    """An admin creates an account.

    Raises:
        AccessDeniedError: the actor is not an admin.
        StoreUserError: a bad address, a short password, a taken address.
    """
    require_role(actor, *ACCOUNT_MANAGERS)
    return _add_user(
        session, actor=actor, email=email, name=name, password=password, role=role, hasher=hasher
    )


def create_first_admin(
    session: Session, *, email: str, name: str, password: str, hasher: PasswordHasher
) -> UserView:
    """The first-run page creates the first account, an admin; refused once any exists.

    Raises:
        AccessDeniedError: an account exists already.
        StoreUserError: a bad address or a short password.
    """
    if queries.count_users(session) > 0:
        raise AccessDeniedError(Message("The first account exists already; log in."))
    actor = Actor(user_id=None, label=email.strip().lower(), role=Role.ADMIN.value)
    return _add_user(
        session,
        actor=actor,
        email=email,
        name=name,
        password=password,
        role=Role.ADMIN.value,
        hasher=hasher,
    )


def authenticate(
    session: Session,
    *,
    email: str,
    password: str,
    remote_addr: str,
    hasher: PasswordHasher,
    limits: LoginLimits,
) -> LoginResult:
    """Check a login and record the attempt; too many recent failures lock it out.

    Failures are counted per account and address (so someone guessing from one address
    never locks the owner out at another) and per address over all accounts. Attempts
    are rows in the database, so the limit holds across workers and hosts, and attempts
    from one address are taken one at a time, so parallel requests cannot all pass the
    count before any of them is recorded. A locked-out login is refused even with the
    right password, without checking it.
    """
    address = email.strip().lower()[:254]
    remote = (remote_addr or "unknown")[:64]
    _one_attempt_at_a_time(session, remote)
    now = utcnow()
    since = now - timedelta(seconds=limits.window_seconds)
    failures = (
        select(func.count())
        .select_from(LoginAttempt)
        .where(
            col(LoginAttempt.at) >= since,
            col(LoginAttempt.succeeded).is_(False),
            LoginAttempt.remote_addr == remote,
        )
    )
    by_account = session.exec(failures.where(LoginAttempt.email == address)).one()
    by_remote = session.exec(failures).one()
    if by_account >= limits.max_failures or by_remote >= limits.max_failures_per_address:
        minutes = max(1, limits.window_seconds // 60)
        return LoginResult(
            user=None,
            throttled=True,
            message=PluralMessage(
                "Too many failed logins. Wait %(count)s minute and try again.",
                "Too many failed logins. Wait %(count)s minutes and try again.",
                minutes,
            ),
        )
    user = session.exec(select(User).where(User.email == address)).first()
    ok = verify_password(hasher, user.password_hash if user else dummy_hash(hasher), password)
    ok = ok and user is not None and user.is_active
    session.add(LoginAttempt(email=address, remote_addr=remote, succeeded=ok, at=now))
    if not ok or user is None:
        return LoginResult(user=None, message=Message("Wrong e-mail address or password."))
    user.last_login_at = now
    if hasher.check_needs_rehash(user.password_hash):
        user.password_hash = hasher.hash(password)
    # A success clears the account's failures: a director who mistyped can carry on.
    session.exec(
        delete(LoginAttempt).where(
            col(LoginAttempt.email) == address, col(LoginAttempt.succeeded).is_(False)
        )
    )
    record(
        session,
        actor=Actor(user_id=user.id, label=user.email, role=user.role),
        action="user.login",
        entity_type="user",
        entity_id=user.id,
        after={"remote_addr": remote},
    )
    return LoginResult(user=queries.user_view(user))


def _one_attempt_at_a_time(session: Session, remote: str) -> None:
    """Hold the address's lock until the transaction ends.

    SQLite writers queue already (every unit of work begins IMMEDIATE); PostgreSQL takes
    a transaction-scoped advisory lock keyed by the address.
    """
    if session.get_bind().dialect.name != "postgresql":
        return
    digest = hashlib.blake2b(remote.encode(), digest_size=8).digest()
    key = int.from_bytes(digest, "big", signed=True)
    session.exec(select(func.pg_advisory_xact_lock(key))).one()


def _own_account(session: Session, actor: Actor) -> User:
    user = session.get(User, actor.user_id) if actor.user_id is not None else None
    if user is None or not user.is_active:
        raise AccessDeniedError(Message("Log in with an active account first."))
    return user


def end_sessions(session: Session, *, actor: Actor) -> UserView:
    """Log the actor out everywhere: every session cookie of the account stops working.

    Raises:
        AccessDeniedError: the actor has no active account.
    """
    user = _own_account(session, actor)
    user.session_version += 1
    record(session, actor=actor, action="user.logout", entity_type="user", entity_id=user.id)
    return queries.user_view(user)


def change_password(
    session: Session,
    *,
    actor: Actor,
    current_password: str,
    new_password: str,
    hasher: PasswordHasher,
) -> UserView:
    """The actor changes their own password; every session of the account ends.

    The caller logs the device the change was made on in again with the returned view.

    Raises:
        AccessDeniedError: the actor has no active account.
        StoreUserError: the current password is wrong, or the new one is too short or
            the same.
    """
    user = _own_account(session, actor)
    if not verify_password(hasher, user.password_hash, current_password):
        raise StoreUserError(
            Message("Your current password is wrong."), field="current_password"
        )
    _check_password_length(new_password)
    if new_password == current_password:
        raise StoreUserError(
            Message("Choose a password other than the current one."), field="password"
        )
    user.password_hash = hasher.hash(new_password)
    user.session_version += 1
    record(
        session, actor=actor, action="user.password_change", entity_type="user", entity_id=user.id
    )
    return queries.user_view(user)


def deactivate_user(session: Session, *, actor: Actor, user_id: int) -> UserView:
    """An admin deactivates an account: it can no longer log in, its sessions and API
    tokens stop working at once.

    Raises:
        AccessDeniedError: the actor is not an admin.
        NotFoundError: no such account.
        StoreUserError: the admin's own account (someone must be left to manage accounts).
    """
    require_role(actor, Role.ADMIN)
    user = session.get(User, user_id)
    if user is None:
        raise NotFoundError(Message("No such account."))
    if user.id == actor.user_id:
        raise StoreUserError(Message("You cannot deactivate your own account."))
    before = snapshot(user, exclude={"password_hash"})
    user.is_active = False
    user.session_version += 1
    record(
        session,
        actor=actor,
        action="user.deactivate",
        entity_type="user",
        entity_id=user.id,
        before=before,
        after=snapshot(user, exclude={"password_hash"}),
    )
    return queries.user_view(user)
