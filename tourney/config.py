"""Settings for the app, the CLI and the store.

Settings come from three layers, each overriding the one before: the defaults in
:class:`Settings`, then the ``TOURNEY_*`` environment (``TOURNEY_DATABASE_URL``,
``TOURNEY_SECRET_KEY`` ...), then an explicit mapping (tests, ``create_app(config)``).
Mapping keys are the field names in any case (``database_url`` or ``DATABASE_URL``).

This module imports nothing else of ours.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

ENV_PREFIX = "TOURNEY_"
DEFAULT_DATABASE_URL = "sqlite:///instance/tourney.db"

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


@dataclass(frozen=True)
class Settings:
    """Everything configurable, with its default."""

    database_url: str = DEFAULT_DATABASE_URL
    """SQLAlchemy URL; a relative SQLite path is relative to the working directory."""
    secret_key: str = ""
    """Signs session cookies and CSRF tokens; empty means "read or create instance/secret_key"."""
    instance_path: str = "instance"
    """Directory for the default SQLite file and the generated secret key."""
    testing: bool = False
    check_schema: bool = True
    """Refuse to start when the database schema is not at the newest migration."""
    csrf_enabled: bool = True
    secure_cookies: bool = False
    """Mark cookies Secure (set when served over HTTPS)."""
    behind_proxy: bool = False
    """Trust one reverse proxy's X-Forwarded-For/-Proto/-Host (client address for login
    limits), and, as such a proxy serves HTTPS, mark cookies Secure and send HSTS
    (``TOURNEY_BEHIND_PROXY``)."""
    password_hash_profile: str = "standard"
    """``standard`` (RFC 9106 low-memory argon2id) or ``fast`` (tests only)."""
    login_max_failures: int = 5
    """Failed logins allowed per e-mail address and client address within the window."""
    login_max_failures_per_address: int = 30
    """Failed logins allowed per client address within the window."""
    login_window_seconds: int = 900
    sql_echo: bool = False
    public_url: str = ""
    """The address players reach the app at (``http://192.168.1.20:5000``), used for QR
    codes and printed links; empty means the address of the request."""
    sqlite_busy_timeout_ms: int = 5000
    """How long a SQLite writer waits for another's write lock before it tries again."""
    smtp_host: str = ""
    """The mail server the outbox worker sends through (``TOURNEY_SMTP_HOST``); empty: mails
    stay queued and the outbox page says no server is configured."""
    smtp_port: int = 25
    smtp_user: str = ""
    """Log in with this user (and ``smtp_password``) when set."""
    smtp_password: str = ""
    smtp_starttls: bool = False
    """Switch the connection to TLS (STARTTLS) before logging in."""
    smtp_from: str = "tourney@localhost"
    """The sender address of every mail."""
    smtp_timeout_seconds: int = 20
    """A mail server slower than this counts as a failed attempt (retried later)."""

    def resolved_secret_key(self) -> str:
        """The configured secret key, or one stored in (and created under) the instance path.

        A key file, unlike a per-process random key, is shared by every worker on the host.
        """
        if self.secret_key:
            return self.secret_key
        path = Path(self.instance_path) / "secret_key"
        if path.exists():
            return path.read_text(encoding="utf-8").strip()
        path.parent.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(key)
        return key


def _convert(name: str, kind: Any, value: Any) -> Any:
    """Convert a raw (often string) value to the field's type."""
    if kind in (bool, "bool"):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise ValueError(f"setting {name}: expected a yes/no value, got {value!r}")
    if kind in (int, "int"):
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ValueError(f"setting {name}: expected a whole number, got {value!r}") from None
    return str(value)


def load_settings(
    overrides: Mapping[str, Any] | None = None, *, environ: Mapping[str, str] | None = None
) -> Settings:
    """Build settings from the defaults, the ``TOURNEY_*`` environment, then ``overrides``.

    Raises:
        KeyError: an override names no setting (a typo should not pass silently).
        ValueError: a value cannot be converted to the setting's type.
    """
    env = os.environ if environ is None else environ
    kinds = {f.name: f.type for f in fields(Settings)}
    values: dict[str, Any] = {}
    for name, kind in kinds.items():
        raw = env.get(ENV_PREFIX + name.upper())
        if raw is not None:
            values[name] = _convert(name, kind, raw)
    for key, value in (overrides or {}).items():
        name = key.lower()
        if name not in kinds:
            raise KeyError(f"unknown setting {key!r}")
        values[name] = _convert(name, kinds[name], value)
    return dataclasses.replace(Settings(), **values)
