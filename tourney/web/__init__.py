"""The Flask app: ``create_app(config=None)`` builds everything, nothing happens at import.

The factory reads the settings (defaults, ``TOURNEY_*`` environment, then ``config``),
makes the engine, refuses a database whose schema is behind the migrations, and registers
the blueprints (accounts, public pages, director pages, the JSON API), the error pages,
CSRF protection and the Jinja filters. Templates live in the top-level ``templates/``.

Every request passes two checks before any view: an id in the path is a database id
(``<int:...>`` matches at most 2**31 - 1, so a larger number is simply not found), and no
text holds a NUL character, which PostgreSQL refuses and nothing of ours ever needs.
"""

from __future__ import annotations

import gc
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, request
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.engine import Engine
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter, Map

from tourney.config import load_settings
from tourney.i18n import translate
from tourney.store.db import NUL_MESSAGE, engine_from_settings
from tourney.store.passwords import make_hasher
from tourney.store.schema import check_current
from tourney.web import (
    api,
    auth,
    director,
    downloads,
    errors,
    filters,
    i18n,
    live,
    players,
    public,
    sharing,
)
from tourney.web.api_models import MAX_ID
from tourney.web.deps import EXTENSION, AppState

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"

PRIVATE_PATHS = ("/director", "/account", "/login", "/logout", "/setup")
"""Pages for staff and the login forms: never kept by a browser's or a proxy's cache."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'"
)


YOUNG_OBJECTS_BEFORE_COLLECTING = 20_000
"""New container objects the garbage collector lets pile up before it looks for cycles."""


def _collect_garbage_less_often() -> None:
    """Raise the collector's first threshold from Python's 700.

    A page of a 10,000-player flight makes a few hundred thousand short-lived tuples and
    rows, none in a cycle; at 700 the collector runs hundreds of times for one page and
    took about half its time (0.81 s against 0.45 s measured). Cycles are still found,
    only in larger batches.
    """
    young, *older = gc.get_threshold()
    if young < YOUNG_OBJECTS_BEFORE_COLLECTING:
        gc.set_threshold(YOUNG_OBJECTS_BEFORE_COLLECTING, *older)


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
    _collect_garbage_less_often()
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
    # Before any blueprint adds a route: every <int:...> in them is a database id.
    app.url_map.converters["int"] = DatabaseIdConverter
    app.config.update(
        SECRET_KEY=settings.resolved_secret_key(),
        TESTING=settings.testing,
        WTF_CSRF_ENABLED=settings.csrf_enabled,
        WTF_CSRF_TIME_LIMIT=None,  # the token lives as long as the session cookie
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # Behind a proxy the site is served over HTTPS: cookies never travel in the clear.
        SESSION_COOKIE_SECURE=settings.secure_cookies or settings.behind_proxy,
        MAX_CONTENT_LENGTH=4 * 1024 * 1024,
    )
    app.extensions[EXTENSION] = AppState(
        settings=settings, engine=engine, hasher=make_hasher(settings.password_hash_profile)
    )
    if settings.behind_proxy:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]
        app.after_request(_strict_transport_security)

    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    CSRFProtect(app)
    auth.init_app(app)
    filters.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    app.register_blueprint(public.bp)
    app.register_blueprint(director.bp)
    api.init_app(app)
    app.register_blueprint(sharing.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(downloads.bp)
    live.init_app(app)
    app.before_request(_refuse_nul_characters)
    app.after_request(_security_headers)
    return app


class DatabaseIdConverter(IntegerConverter):
    """``<int:...>``: a whole number from 0 to the largest database id.

    The databases raise on a larger one (SQLite past 2**63, PostgreSQL past 2**31); no
    row has such an id, so the route does not match and the answer is 404.
    """

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", MAX_ID)
        super().__init__(map, *args, **kwargs)


def _refuse_nul_characters() -> None:
    """400 for a NUL character in the path, the query or a form field."""
    texts = [request.path]
    for fields in (request.args, request.form):
        for key, value in fields.items(multi=True):
            texts += (key, value)
    if any("\x00" in text for text in texts):
        abort(400, translate(NUL_MESSAGE, i18n.current_language()))


HSTS = "max-age=31536000"
"""Browsers keep to HTTPS for a year once they have seen the site over it."""


def _strict_transport_security(response: Response) -> Response:
    """HSTS on every answer the proxy received over HTTPS (``X-Forwarded-Proto``)."""
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", HSTS)
    return response


def _security_headers(response: Response) -> Response:
    """Headers every page carries: no framing, no sniffing, scripts and styles from us only;
    and on staff pages, no caching."""
    if request.path.startswith(PRIVATE_PATHS):
        response.headers.setdefault("Cache-Control", "no-store")
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
