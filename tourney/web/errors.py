"""Error pages: 400/403/404/405/409/429/500/503 as HTML, JSON under ``/api/v1``; never a traceback.

A ``StoreUserError`` escaping a view becomes the page of its status with its message; a
CSRF failure becomes a 400 that says to reload the form (or, for someone whose login is
gone with its cookie, the login page, saying that nothing was saved). Anything else is logged and
shown as a plain 500 page.
"""

from __future__ import annotations

from flask import Flask, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from jinja2 import TemplateNotFound
from werkzeug.exceptions import HTTPException, InternalServerError

from tourney.i18n import translate
from tourney.store.errors import DatabaseBusyError, StoreUserError
from tourney.web.auth import csrf_refused_without_login
from tourney.web.i18n import current_language, lazy_gettext

TITLES = {
    400: lazy_gettext("That did not work"),
    401: lazy_gettext("Log in first"),
    403: lazy_gettext("Not allowed"),
    404: lazy_gettext("Not found"),
    405: lazy_gettext("Not allowed here"),
    409: lazy_gettext("Changed by someone else"),
    429: lazy_gettext("Too many attempts"),
    500: lazy_gettext("Something went wrong"),
    503: lazy_gettext("Busy"),
}

MESSAGES = {
    400: lazy_gettext("The request could not be understood."),
    401: lazy_gettext("Log in to continue."),
    403: lazy_gettext("Your account may not open this page."),
    404: lazy_gettext("There is nothing at this address."),
    405: lazy_gettext("This address does not take that kind of request."),
    429: lazy_gettext("Too many attempts; wait a few minutes."),
    500: lazy_gettext("The error has been logged. Go back and try again."),
}


def _render(status: int, message: str) -> ResponseReturnValue:
    message = str(message)
    if request.path.startswith("/api/"):
        return jsonify({"error": {"status": status, "message": message}}), status
    title = str(TITLES.get(status, gettext("Error")))
    context = {"status": status, "title": title, "message": message}
    try:
        return render_template(f"errors/{status}.html", **context), status
    except TemplateNotFound:
        return render_template("errors/error.html", **context), status


def _http_error(error: HTTPException) -> ResponseReturnValue:
    status = error.code or 500
    if status >= 500:
        return _render(status, MESSAGES[500])
    # Werkzeug's own descriptions are generic; ours are shorter. A message set by our
    # code (abort(400, "…")) is kept.
    default = type(error).description
    message = error.description if error.description != default else MESSAGES.get(status, "")
    return _render(status, message or TITLES.get(status, gettext("Error")))


def _csrf_error(error: CSRFError) -> ResponseReturnValue:
    to_login = csrf_refused_without_login()
    if to_login is not None:
        return to_login
    return _render(
        400, gettext("The form expired or did not come from this site. Reload it and try again.")
    )


def _store_error(error: StoreUserError) -> ResponseReturnValue:
    return _render(error.status_code, translate(error.message, current_language()))


def _busy_error(error: DatabaseBusyError) -> ResponseReturnValue:
    """503 with ``Retry-After``: nothing was saved, and the same request may be sent again."""
    response = make_response(
        _render(
            503,
            gettext("Many changes are being saved at once; nothing was saved. Try again shortly."),
        )
    )
    response.headers["Retry-After"] = str(error.retry_after_seconds)
    return response


def _server_error(error: InternalServerError) -> ResponseReturnValue:
    return _render(500, MESSAGES[500])


def init_app(app: Flask) -> None:
    """Register the handlers on ``app``."""
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(StoreUserError, _store_error)
    app.register_error_handler(DatabaseBusyError, _busy_error)
    app.register_error_handler(InternalServerError, _server_error)
    app.register_error_handler(HTTPException, _http_error)
