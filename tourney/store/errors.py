"""Errors the store raises for the shells to show.

``StoreUserError`` and its subclasses are user-fixable: their message says what to change
and the web turns them into a form error, a flash or a 400/403/404/409 page. Anything else
escaping a service is a bug.
"""

from __future__ import annotations


class StoreUserError(ValueError):
    """A request the director can correct; the message names what is wrong."""

    status_code = 400

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        """The form field the message belongs to, when there is one."""


class NotFoundError(StoreUserError):
    """The thing asked for does not exist (or the actor may not know it does)."""

    status_code = 404


class AccessDeniedError(StoreUserError):
    """The actor's role does not allow this."""

    status_code = 403


class ConflictError(StoreUserError):
    """Someone else changed the thing first; nothing was overwritten."""

    status_code = 409


class LoginThrottledError(StoreUserError):
    """Too many failed logins in the window."""

    status_code = 429


class StoreInvariantError(RuntimeError):
    """The database holds something the code never writes (a bug or a hand edit).

    Not user-fixable from a page: it surfaces as a logged server error.
    """


class DatabaseBusyError(RuntimeError):
    """Other writers held the database's write lock for every attempt; nothing was done.

    Not the request's fault: the web answers 503 with ``Retry-After``.
    """

    retry_after_seconds = 2


class EventImportError(StoreUserError):
    """An event JSON document cannot be imported; the message names the field and what
    is wrong."""


class NewerVersionError(EventImportError):
    """The event JSON document was written by a newer tourney."""


class EventExistsError(EventImportError):
    """An event with the document's slug is in the database already."""

    status_code = 409
