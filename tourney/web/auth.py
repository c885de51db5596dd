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

A form sent after the login has lapsed is not lost: its fields wait in the session
(:func:`take_unsaved_form`) while the director logs in again, and the login then leads
back to the page that showed the form, which fills the form in again to be checked and
saved. ``next`` after a login is always a page (a GET address): the address a form was
sent to is not one.
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
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask import session as browser_session
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_login import LoginManager, UserMixin, current_user, login_user, logout_user
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from tourney.i18n import translate
from tourney.store import accounts, queries
from tourney.store.audit import Actor
from tourney.store.errors import StoreUserError
from tourney.store.queries import UserView
from tourney.store.roles import ACCOUNT_MANAGERS, EVENT_DIRECTORS, AccountRole, account_role
from tourney.store.tables import Role
from tourney.web.deps import reading, state, writing
from tourney.web.forms import LoginForm, PasswordForm, SetupForm, apply_error
from tourney.web.i18n import current_language

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
        response = jsonify({"error": {"status": 401, "message": gettext("Log in first.")}})
        response.status_code = 401
        return response
    if request.method == "GET":
        flash(gettext("Log in to continue."), "info")
        return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
    _keep_unsaved_form()
    flash(gettext("Log in to continue. What you sent was not saved yet."), "info")
    return redirect(url_for("auth.login", next=_page_that_sent()))


UNSAVED_FORM_KEY = "unsaved_form"
_UNSAVED_FORM_LIMIT = 4096
"""The most characters of form fields kept across a login (a game or a score is tiny)."""


def _keep_unsaved_form() -> None:
    """Keep the fields of a form sent without a valid login, for the page to fill in
    again after the login (not its CSRF token, nor a file: a browser cannot be given one)."""
    fields = [(k, v) for k, v in request.form.items(multi=True) if k != "csrf_token"]
    if request.files or sum(len(k) + len(v) for k, v in fields) > _UNSAVED_FORM_LIMIT:
        browser_session.pop(UNSAVED_FORM_KEY, None)
        return
    browser_session[UNSAVED_FORM_KEY] = {"path": request.path, "fields": fields}


def take_unsaved_form(*paths: str) -> tuple[str, MultiDict[str, str]] | None:
    """The form sent to one of ``paths`` while the login had lapsed, as ``(path, fields)``;
    taken out of the session, so that it is filled in again once only."""
    kept = browser_session.get(UNSAVED_FORM_KEY)
    if not isinstance(kept, dict) or kept.get("path") not in paths:
        return None
    browser_session.pop(UNSAVED_FORM_KEY, None)
    return str(kept["path"]), MultiDict([(str(k), str(v)) for k, v in kept.get("fields", [])])


def _page_that_sent() -> str:
    """The page a form came from: the referring page of this site, else the nearest page
    above the address it was sent to (``/director/matches/7`` for ``.../7/games``)."""
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc == request.host and _is_page(referrer.path):
        return referrer.path + (f"?{referrer.query}" if referrer.query else "")
    return page_for(request.path)


def _is_page(path: str) -> bool:
    """Whether ``path`` is an address of this app that answers a GET."""
    adapter = current_app.url_map.bind("localhost")
    try:
        adapter.match(path, method="GET")
    except RequestRedirect:
        return True
    except HTTPException:
        return False
    return True


def page_for(target: str) -> str:
    """``target`` if it is a page (answers a GET), else the nearest page above it: a
    login never leads to an address only a form may be sent to."""
    parts = urlsplit(target)
    if _is_page(parts.path):
        return target
    path = parts.path.rstrip("/")
    while "/" in path:
        path = path.rsplit("/", 1)[0]
        if path and _is_page(path):
            return path
    return url_for("director.events")


def csrf_refused_without_login() -> ResponseReturnValue | None:
    """A form of a logged-in page refused for its CSRF token from someone not logged in
    (the session cookie is gone): to the login, and back to the page the form was on,
    saying that nothing was saved. None for anyone else (the usual error page)."""
    view = current_app.view_functions.get(request.endpoint or "")
    needs_login = getattr(view, ROLES_ATTR, None) is not None
    if current_user.is_authenticated or request.path.startswith("/api/") or not needs_login:
        return None
    # Without our session the form cannot be told from one another site sent: its fields
    # are not kept.
    flash(
        gettext("Your login had ended: what you sent was not saved. Log in and send it again."),
        "error",
    )
    return redirect(url_for("auth.login", next=_page_that_sent()))


def init_app(app: Flask) -> None:
    """Set up Flask-Login and register the accounts blueprint."""
    manager = LoginManager()
    manager.session_protection = "basic"
    manager.user_loader(_load_user)
    manager.unauthorized_handler(_unauthorized)
    manager.init_app(app)
    app.register_blueprint(bp)


def _safe_next(target: str | None) -> str:
    """Only local pages: never redirect a login to another site, nor to an address that
    takes only forms (the page that shows the form instead)."""
    if not target:
        return url_for("director.events")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return url_for("director.events")
    return page_for(target)


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
            flash(
                gettext("Welcome, %(name)s. Your admin account is ready.", name=user.name),
                "success",
            )
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
            flash(gettext("Logged in as %(name)s.", name=result.user.name), "success")
            return redirect(_safe_next(request.args.get("next")))
        form.password.errors = [translate(result.message, current_language())]
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
    flash(gettext("Logged out."), "info")
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
            flash(gettext("Password changed. Every other device has been logged out."), "success")
            return redirect(url_for("auth.change_password"))
    status = 400 if form.errors or form.form_errors else 200
    return render_template("auth/password.html", form=form), status


@bp.post("/director/users/<int:user_id>/deactivate")
@requires(*ACCOUNT_MANAGERS)
def deactivate_user(user_id: int) -> ResponseReturnValue:
    """An admin deactivates an account: no more logins, its sessions and tokens end."""
    with writing() as session:
        user = accounts.deactivate_user(session, actor=current_user.actor, user_id=user_id)
    flash(
        gettext("%(email)s is deactivated and logged out everywhere.", email=user.email), "success"
    )
    return redirect(url_for("director.users"))
