"""Accounts: the first-run page, login and logout, one's own password, an admin's
deactivation of an account, and the role guard on every other view.

``requires(...)`` is the only way a view is opened to logged-in users: it checks the login,
then the account's role, and records the roles on the view function so that a test can
walk ``app.url_map`` and prove that no mutating route is left open. Event-level rights
(a director's own events, a scorer's events) are checked again by the services.

A session cookie carries the account's id and its session version (``"17:3"``), checked
against the database on every request: logging out, changing the password and
deactivation move the version on, so a cookie copied before then opens nothing, on any
device.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import LoginManager, UserMixin, current_user, login_user, logout_user

from tourney.store import accounts, queries
from tourney.store.audit import Actor
from tourney.store.errors import StoreUserError
from tourney.store.queries import UserView
from tourney.store.roles import ACCOUNT_MANAGERS, EVENT_DIRECTORS, AccountRole, account_role
from tourney.store.tables import Role
from tourney.web.deps import reading, state, writing
from tourney.web.forms import LoginForm, PasswordForm, SetupForm, apply_error

bp = Blueprint("auth", __name__)
F = TypeVar("F", bound=Callable[..., Any])

PUBLIC_ENDPOINT_ATTR = "tourney_public"
ROLES_ATTR = "tourney_roles"


class SessionUser(UserMixin):
    """The logged-in user, built from a read model for each request."""

    def __init__(self, view: UserView) -> None:
        self.view = view

    def get_id(self) -> str:
        """What Flask-Login keeps in the signed session cookie: id and session version."""
        return f"{self.view.id}:{self.view.session_version}"

    @property
    def is_active(self) -> bool:
        """A deactivated account is logged out at its next request."""
        return self.view.is_active

    @property
    def actor(self) -> Actor:
        """This user as the actor of a service call."""
        return self.view.actor

    @property
    def role(self) -> str:
        """``admin``, ``director`` or ``scorer``."""
        return self.view.role

    @property
    def account_role(self) -> AccountRole:
        """What the account's role allows (pages show links by it)."""
        return account_role(self.view.role)

    @property
    def name(self) -> str:
        """Display name."""
        return self.view.name


def requires(*roles: Role) -> Callable[[F], F]:
    """Open a view to logged-in users with one of ``roles`` (others get 403)."""
    allowed = frozenset(r.value for r in roles)

    def decorate(view: F) -> F:
        @wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            if not current_user.is_authenticated:
                return login_manager_of().unauthorized()
            if current_user.role not in allowed:
                abort(403)
            return view(*args, **kwargs)

        setattr(guarded, ROLES_ATTR, allowed)
        return cast(F, guarded)

    return decorate


def public(view: F) -> F:
    """Mark a view as deliberately open to everyone (the route-protection test reads it)."""
    setattr(view, PUBLIC_ENDPOINT_ATTR, True)
    return view


ALL_ROLES = tuple(Role)
DIRECTORS = EVENT_DIRECTORS


def login_manager_of() -> LoginManager:
    """The app's login manager."""
    from flask import current_app

    manager: LoginManager = current_app.login_manager  # type: ignore[attr-defined]
    return manager


def _load_user(session_id: str) -> SessionUser | None:
    """The user of a session cookie, while its session version is the account's."""
    user_id, _, version = session_id.partition(":")
    if not (_is_small_number(user_id) and _is_small_number(version)):
        return None
    with reading() as session:
        view = queries.get_user(session, int(user_id))
    if view is None or not view.is_active or view.session_version != int(version):
        return None
    return SessionUser(view)


def _is_small_number(text: str) -> bool:
    """Digits that fit a database integer (a forged cookie may hold anything)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _unauthorized() -> ResponseReturnValue:
    if request.path.startswith("/api/"):
        response = jsonify({"error": {"status": 401, "message": "Log in first."}})
        response.status_code = 401
        return response
    flash("Log in to continue.", "info")
    return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))


def init_app(app: Flask) -> None:
    """Set up Flask-Login and register the accounts blueprint."""
    manager = LoginManager()
    manager.session_protection = "basic"
    manager.user_loader(_load_user)
    manager.unauthorized_handler(_unauthorized)
    manager.init_app(app)
    app.register_blueprint(bp)


def _safe_next(target: str | None) -> str:
    """Only local paths: never redirect a login to another site."""
    if not target:
        return url_for("director.events")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return url_for("director.events")
    return target


def _no_users() -> bool:
    with reading() as session:
        return queries.count_users(session) == 0


@bp.route("/setup", methods=["GET", "POST"])
@public
def setup() -> ResponseReturnValue:
    """First run: create the first account (an admin). Gone once any account exists."""
    if not _no_users():
        abort(404)
    form = SetupForm()
    if form.validate_on_submit():
        try:
            with writing() as session:
                user = accounts.create_first_admin(
                    session,
                    email=form.email.data or "",
                    name=form.name.data or "",
                    password=form.password.data or "",
                    hasher=state().hasher,
                )
        except StoreUserError as error:
            apply_error(form, error)
        else:
            login_user(SessionUser(user))
            flash(f"Welcome, {user.name}. Your admin account is ready.", "success")
            return redirect(url_for("director.events"))
    return render_template("auth/setup.html", form=form)


@bp.route("/login", methods=["GET", "POST"])
@public
def login() -> ResponseReturnValue:
    """Log in with e-mail address and password; failures are counted and limited."""
    if _no_users():
        return redirect(url_for("auth.setup"))
    if current_user.is_authenticated:
        return redirect(_safe_next(request.args.get("next")))
    form = LoginForm()
    status = 200
    if form.validate_on_submit():
        settings = state().settings
        with writing() as session:
            result = accounts.authenticate(
                session,
                email=form.email.data or "",
                password=form.password.data or "",
                remote_addr=request.remote_addr or "",
                hasher=state().hasher,
                limits=accounts.LoginLimits(
                    max_failures=settings.login_max_failures,
                    max_failures_per_address=settings.login_max_failures_per_address,
                    window_seconds=settings.login_window_seconds,
                ),
            )
        if result.user is not None:
            login_user(SessionUser(result.user))
            flash(f"Logged in as {result.user.name}.", "success")
            return redirect(_safe_next(request.args.get("next")))
        form.password.errors = [result.message]
        status = 429 if result.throttled else 200
    return render_template("auth/login.html", form=form), status


@bp.route("/logout", methods=["POST"])
@requires(*ALL_ROLES)
def logout() -> ResponseReturnValue:
    """Log out on every device (a POST with a CSRF token, so no other site can log a
    director out)."""
    with writing() as session:
        accounts.end_sessions(session, actor=current_user.actor)
    logout_user()
    flash("Logged out.", "info")
    return redirect(url_for("public.index"))


@bp.route("/account/password", methods=["GET", "POST"])
@requires(*ALL_ROLES)
def change_password() -> ResponseReturnValue:
    """Change one's own password; every other device is logged out, this one stays in."""
    form = PasswordForm()
    if form.validate_on_submit():
        try:
            with writing() as session:
                user = accounts.change_password(
                    session,
                    actor=current_user.actor,
                    current_password=form.current_password.data or "",
                    new_password=form.password.data or "",
                    hasher=state().hasher,
                )
        except StoreUserError as error:
            apply_error(form, error)
        else:
            login_user(SessionUser(user))
            flash("Password changed. Every other device has been logged out.", "success")
            return redirect(url_for("auth.change_password"))
    status = 400 if form.errors or form.form_errors else 200
    return render_template("auth/password.html", form=form), status


@bp.post("/director/users/<int:user_id>/deactivate")
@requires(*ACCOUNT_MANAGERS)
def deactivate_user(user_id: int) -> ResponseReturnValue:
    """An admin deactivates an account: no more logins, its sessions and tokens end."""
    with writing() as session:
        user = accounts.deactivate_user(session, actor=current_user.actor, user_id=user_id)
    flash(f"{user.email} is deactivated and logged out everywhere.", "success")
    return redirect(url_for("director.users"))
