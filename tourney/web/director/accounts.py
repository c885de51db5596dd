"""Accounts: the admin's list of accounts and the form that adds directors and scorers."""

from __future__ import annotations

from flask import render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session

from tourney.store import accounts, queries
from tourney.store.roles import ACCOUNT_MANAGERS
from tourney.web.auth import requires
from tourney.web.deps import actor, reading, state
from tourney.web.director.base import bp
from tourney.web.forms import UserForm
from tourney.web.submit import Done, submit_form


@bp.route("/users", methods=["GET", "POST"])
@requires(*ACCOUNT_MANAGERS)
def users() -> ResponseReturnValue:
    """Accounts: an admin lists them and adds directors and scorers."""
    form = UserForm()

    def change(session: Session) -> Done:
        user = accounts.create_user(
            session,
            actor=actor(),
            email=form.email.data or "",
            name=form.name.data or "",
            password=form.password.data or "",
            role=form.role.data or "",
            hasher=state().hasher,
        )
        return Done(gettext("Account for %(email)s created.", email=user.email), url_for(".users"))

    return submit_form(form, change, lambda: _users_page(form))


def _users_page(form: UserForm) -> str:
    with reading() as session:
        rows = queries.list_users(session)
    return render_template("director/users.html", users=rows, form=form)
