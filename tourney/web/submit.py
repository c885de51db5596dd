"""The Post/Redirect/Get run of a form view, and its one rule for refused forms.

A view builds its form, says what the change is and how its page looks; ``submit_form``
does the rest. A GET shows the page. A POST whose form validates runs the change (one
service call in one transaction), flashes what happened and redirects. A *refused* form,
one that fails its shape checks or whose change the store refuses with a
``StoreUserError``, is shown again on its page with its errors (a store error lands on
the field it names): HTTP 400, or 409 when someone else changed the data first. A
``StoreUserError`` of another status (403, 404) is not a form's fault and goes on to the
error pages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import flash, redirect
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from sqlmodel import Session

from tourney.i18n import translate
from tourney.store.errors import StoreUserError
from tourney.web.deps import writing
from tourney.web.forms import apply_error
from tourney.web.i18n import current_language


@dataclass(frozen=True)
class Done:
    """A change that went through: what to tell the user, and the page to show next."""

    message: str
    location: str
    category: str = "success"
    """The flash category: ``success``, or ``info`` for a change that did less than asked."""


@dataclass(frozen=True)
class Refused:
    """The service kept a record of the attempt but made no change; ``reason`` says why.

    (An invalid match record is stored with its findings: raising would roll that back.)
    """

    reason: str


Change = Callable[[Session], Done | Refused]
"""One use case, run in one transaction."""


def submit_form(
    form: FlaskForm, change: Change, page: Callable[[], str]
) -> ResponseReturnValue:
    """Show ``page``, or run ``change`` for a submitted ``form`` and redirect (see the module).

    Args:
        form: the submitted form (its refusal errors are added to it).
        change: the use case; called only when the form validates.
        page: renders the page that holds ``form``, for a GET and for a refused form.
    """
    if not form.is_submitted():
        return page()
    if not form.validate():
        return page(), 400
    try:
        with writing() as session:
            outcome = change(session)
    except StoreUserError as error:
        apply_error(form, error)
        return page(), error.status_code
    if isinstance(outcome, Refused):
        form.form_errors.append(translate(outcome.reason, current_language()))
        return page(), 400
    flash(outcome.message, outcome.category)
    return redirect(outcome.location)
