"""The Flask app: ``create_app(config=None)`` builds everything, nothing happens at import.

The factory reads the settings (defaults, ``TOURNEY_*`` environment, then ``config``),
makes the engine, refuses a database whose schema is behind the migrations, and registers
the blueprints (accounts, public pages, director pages, the JSON API), the error pages,
CSRF protection and the Jinja filters. Templates live in the top-level ``templates/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.engine import Engine
from werkzeug.middleware.proxy_fix import ProxyFix

from tourney.config import load_settings
from tourney.store.db import engine_from_settings
from tourney.store.passwords import make_hasher
from tourney.store.schema import check_current
from tourney.web import api, auth, director, downloads, errors, filters, live, public, sharing
from tourney.web.deps import EXTENSION, AppState

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'"
)


def create_app(config: Mapping[str, Any] | None = None, *, engine: Engine | None = None) -> Flask:
    """Build the app.

    Args:
        config: setting overrides (``{"DATABASE_URL": ..., "TESTING": True}``), applied
            after the ``TOURNEY_*`` environment.
        engine: an engine to use instead of one made from ``database_url`` (tests share
            one migrated in-memory database this way).

    Raises:
        SchemaOutOfDateError: the database is not at the newest migration; the message
            names the command that fixes it (unless ``check_schema`` is off).
    """
    settings = load_settings(config)
    own_engine = engine is None
    engine = engine or engine_from_settings(settings)
    if settings.check_schema:
        try:
            check_current(engine)
        except Exception:
            if own_engine:
                engine.dispose()
            raise

    app = Flask(
        __name__,
        template_folder=str(TEMPLATES),
        static_folder="static",
        instance_path=str(Path(settings.instance_path).resolve()),
    )
    app.config.update(
        SECRET_KEY=settings.resolved_secret_key(),
        TESTING=settings.testing,
        WTF_CSRF_ENABLED=settings.csrf_enabled,
        WTF_CSRF_TIME_LIMIT=None,  # the token lives as long as the session cookie
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=settings.secure_cookies,
        MAX_CONTENT_LENGTH=4 * 1024 * 1024,
    )
    app.extensions[EXTENSION] = AppState(
        settings=settings, engine=engine, hasher=make_hasher(settings.password_hash_profile)
    )
    if settings.behind_proxy:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]

    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    CSRFProtect(app)
    auth.init_app(app)
    filters.init_app(app)
    errors.init_app(app)
    app.register_blueprint(public.bp)
    app.register_blueprint(director.bp)
    api.init_app(app)
    app.register_blueprint(sharing.bp)
    app.register_blueprint(downloads.bp)
    live.init_app(app)
    app.after_request(_security_headers)
    return app


def _security_headers(response: Response) -> Response:
    """Headers every page carries: no framing, no sniffing, scripts and styles from us only."""
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
