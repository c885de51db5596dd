"""Who may see a private event, and who may call the JSON API: share links and API tokens.

Terminology:
    share link   an unguessable token that opens a private event's public pages to whoever
                 holds it (printed as a QR code on the sheets); one per event, replaceable.
    API token    a secret a user creates on their account page and sends as
                 ``Authorization: Bearer <token>``; it acts as that user. Only its SHA-256
                 hash is stored (tokens are 256-bit random, so a fast hash is enough), and
                 it is shown once, when created.
    token scope  what a token may do, at most what its user may: ``read`` (no changes),
                 ``results`` (enter and correct match results) or ``full``. A token may
                 also expire; an expired one is refused like a revoked one.

The tables are created by migration ``0003`` (token scope and expiry: ``0006``). Every
change here is one transaction with one audit entry, like the other services.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Field, Session, SQLModel, col, select

from tourney.rules.messages import Message
from tourney.store.audit import Actor, record
from tourney.store.errors import NotFoundError, StoreUserError
from tourney.store.permissions import require_event
from tourney.store.tables import Role, User
from tourney.store.types import UTCDateTime, utcnow

TOKEN_PREFIX = "tny_"
"""API tokens start with this, so a leaked one is recognisable in logs and scanners."""
MAX_TOKENS_PER_USER = 20
TOKEN_SCOPES = ("read", "results", "full")
"""API token scopes, each allowing what the one before it does and more."""
MAX_TOKEN_DAYS = 3650
AUDIT_LABEL_CHARS = 254
"""The audit trail's actor label holds this many characters."""


class EventShare(SQLModel, table=True):
    """The share link of a private event."""

    __tablename__ = "event_shares"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="events.id", unique=True, ondelete="CASCADE")
    token: str = Field(max_length=64, unique=True)
    """Shown to the event's directors, so it is stored as is (it opens pages, not changes)."""
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class ApiToken(SQLModel, table=True):
    """A user's API token (hashed)."""

    __tablename__ = "api_tokens"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    name: str = Field(max_length=80)
    token_hash: str = Field(max_length=64, unique=True)
    """Hex SHA-256 of the whole token."""
    hint: str = Field(max_length=16)
    """The token's first characters, to tell tokens apart on the account page."""
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    scope: str = Field(default="full", max_length=16, sa_column_kwargs={"server_default": "full"})
    """One of ``TOKEN_SCOPES``."""
    expires_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    """None: valid until revoked."""


@dataclass(frozen=True)
class ApiTokenView:
    """An API token as the account page lists it (never the secret)."""

    id: int
    name: str
    hint: str
    created_at: datetime
    revoked: bool
    scope: str
    expires_at: datetime | None
    expired: bool


@dataclass(frozen=True)
class TokenGrant:
    """What a live API token allows: acting as its user, within its scope."""

    actor: Actor
    """The token's user, labelled with the token's name for the audit trail."""
    scope: str

    def allows(self, needed: str) -> bool:
        """True when the token's scope covers ``needed`` (one of ``TOKEN_SCOPES``)."""
        return TOKEN_SCOPES.index(self.scope) >= TOKEN_SCOPES.index(needed)


@dataclass(frozen=True)
class SharingView:
    """An event's visibility as its directors see it."""

    event_id: int
    event_name: str
    slug: str
    is_public: bool
    share_token: str | None


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _token_view(row: ApiToken) -> ApiTokenView:
    return ApiTokenView(
        id=row.id or 0,
        name=row.name,
        hint=row.hint,
        created_at=row.created_at,
        revoked=row.revoked_at is not None,
        scope=row.scope,
        expires_at=row.expires_at,
        expired=row.expires_at is not None and row.expires_at <= utcnow(),
    )


# --- share links ---------------------------------------------------------------------


def share_token_of(session: Session, event_id: int) -> str | None:
    """The event's share token, or none."""
    return session.exec(select(EventShare.token).where(EventShare.event_id == event_id)).first()


def is_share_token(session: Session, event_id: int, token: str) -> bool:
    """True when ``token`` is the event's current share token (compared in constant time)."""
    current = share_token_of(session, event_id)
    return current is not None and hmac.compare_digest(current.encode(), token.encode())


def sharing_view(session: Session, actor: Actor, event_id: int) -> SharingView:
    """The event's visibility and share link, for its directors.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not one of its directors.
    """
    event = require_event(session, actor, event_id, manage=True)
    return SharingView(
        event.id or 0, event.name, event.slug, event.is_public, share_token_of(session, event_id)
    )


def open_sharing(session: Session, *, actor: Actor, event_id: int) -> SharingView:
    """The sharing page of an event: a private event gets its share link here if it has
    none yet (events are created private, and imported or edited to private, without one).

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not one of its directors.
    """
    event = require_event(session, actor, event_id, manage=True)
    _ensure_share_link(session, event_id, public=event.is_public)
    session.flush()
    return sharing_view(session, actor, event_id)


def _ensure_share_link(session: Session, event_id: int, *, public: bool) -> None:
    """Give a private event a share link when it has none; a public one needs none."""
    if not public and share_token_of(session, event_id) is None:
        session.add(EventShare(event_id=event_id, token=secrets.token_urlsafe(24)))


def set_visibility(session: Session, *, actor: Actor, event_id: int, public: bool) -> SharingView:
    """Make an event public (listed, open to all) or private (share link or staff login).

    Making it private creates its share link when it has none.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not one of its directors.
    """
    event = require_event(session, actor, event_id, manage=True)
    before = {"is_public": event.is_public}
    event.is_public = public
    _ensure_share_link(session, event_id, public=public)
    session.flush()
    record(
        session,
        actor=actor,
        action="event.visibility",
        entity_type="event",
        entity_id=event_id,
        event_id=event_id,
        before=before,
        after={"is_public": public},
    )
    return sharing_view(session, actor, event_id)


def renew_share_link(session: Session, *, actor: Actor, event_id: int) -> SharingView:
    """Replace the event's share link; the old one stops working at once.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not one of its directors.
    """
    require_event(session, actor, event_id, manage=True)
    row = session.exec(select(EventShare).where(EventShare.event_id == event_id)).first()
    if row is None:
        row = EventShare(event_id=event_id, token="")
        session.add(row)
    row.token = secrets.token_urlsafe(24)
    row.created_at = utcnow()
    session.flush()
    record(
        session,
        actor=actor,
        action="event.share_link",
        entity_type="event",
        entity_id=event_id,
        event_id=event_id,
        after={"share_link": "renewed"},
    )
    return sharing_view(session, actor, event_id)


# --- API tokens ----------------------------------------------------------------------


def list_api_tokens(session: Session, actor: Actor) -> list[ApiTokenView]:
    """The actor's tokens, newest first."""
    rows = session.exec(
        select(ApiToken).where(ApiToken.user_id == actor.user_id).order_by(col(ApiToken.id).desc())
    )
    return [_token_view(r) for r in rows]


def create_api_token(
    session: Session,
    *,
    actor: Actor,
    name: str,
    scope: str = "full",
    valid_days: int | None = None,
) -> tuple[ApiTokenView, str]:
    """A new token for the actor: its view and the secret, which is never shown again.

    Args:
        scope: one of ``TOKEN_SCOPES``.
        valid_days: the token expires this many days from now; none: when revoked.

    Raises:
        StoreUserError: no name, an unknown scope or length, or too many live tokens.
    """
    name = " ".join(name.split())
    if not name:
        raise StoreUserError(Message("Name the token (what will use it)."), field="name")
    if scope not in TOKEN_SCOPES:
        raise StoreUserError(
            Message("Choose a scope: %(scopes)s.", scopes=", ".join(TOKEN_SCOPES)), field="scope"
        )
    if valid_days is not None and not 1 <= valid_days <= MAX_TOKEN_DAYS:
        raise StoreUserError(
            Message(
                "A token is valid for 1 to %(most)s days, or until revoked.", most=MAX_TOKEN_DAYS
            ),
            field="valid_days",
        )
    if actor.user_id is None:
        raise StoreUserError(Message("Only an account can own an API token."))
    live = session.exec(
        select(ApiToken).where(
            ApiToken.user_id == actor.user_id, col(ApiToken.revoked_at).is_(None)
        )
    ).all()
    if len(live) >= MAX_TOKENS_PER_USER:
        raise StoreUserError(
            Message("At most %(most)s tokens; revoke one first.", most=MAX_TOKENS_PER_USER)
        )
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    expires_at = None if valid_days is None else utcnow() + timedelta(days=valid_days)
    row = ApiToken(
        user_id=actor.user_id,
        name=name[:80],
        token_hash=_hash(secret),
        hint=secret[:10],
        scope=scope,
        expires_at=expires_at,
    )
    session.add(row)
    session.flush()
    record(
        session,
        actor=actor,
        action="api_token.create",
        entity_type="api_token",
        entity_id=row.id,
        after={
            "name": row.name,
            "hint": row.hint,
            "scope": row.scope,
            "expires_at": None if expires_at is None else expires_at.isoformat(),
        },
    )
    return _token_view(row), secret


def revoke_api_token(session: Session, *, actor: Actor, token_id: int) -> ApiTokenView:
    """Revoke one of the actor's tokens.

    Raises:
        NotFoundError: no such token of the actor's.
    """
    row = session.get(ApiToken, token_id)
    if row is None or row.user_id != actor.user_id:
        raise NotFoundError(Message("No such token."))
    if row.revoked_at is None:
        row.revoked_at = utcnow()
        record(
            session,
            actor=actor,
            action="api_token.revoke",
            entity_type="api_token",
            entity_id=row.id,
            after={"name": row.name, "hint": row.hint},
        )
    return _token_view(row)


def actor_for_token(session: Session, token: str) -> TokenGrant | None:
    """What a live token allows, or none (unknown, revoked, expired, or account inactive).

    The grant's actor is the token's user, labelled "api token 'NAME' of EMAIL" so that
    the audit trail names the token a change was made with.
    """
    if not token.startswith(TOKEN_PREFIX) or len(token) > 100:
        return None
    found = session.exec(
        select(ApiToken, User)
        .join(User, col(User.id) == ApiToken.user_id)
        .where(ApiToken.token_hash == _hash(token), col(ApiToken.revoked_at).is_(None))
    ).first()
    if found is None:
        return None
    row, user = found
    if row.expires_at is not None and row.expires_at <= utcnow():
        return None
    if not user.is_active or user.role not in {r.value for r in Role}:
        return None
    label = f"api token '{row.name}' of {user.email}"[:AUDIT_LABEL_CHARS]
    return TokenGrant(Actor(user_id=user.id, label=label, role=user.role), row.scope)
