"""Who sees what: an event's visibility and share link (directors), API tokens (accounts).

``/director/events/<id>/sharing`` lets an event's directors make it private or public
and renew its share link; ``/account/tokens`` lets any account create and revoke the
API tokens that the JSON API accepts as ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from wtforms import IntegerField, SelectField, StringField
from wtforms.validators import DataRequired, Length, NumberRange
from wtforms.validators import Optional as OptionalValue

from tourney.store import access
from tourney.store.errors import StoreUserError
from tourney.web.auth import ALL_ROLES, DIRECTORS, requires
from tourney.web.deps import actor, public_url_for, reading, writing
from tourney.web.forms import Form, apply_error, options
from tourney.web.i18n import lazy_gettext

bp = Blueprint("sharing", __name__)


class ActionForm(Form):
    """A button that only needs its CSRF token."""


class TokenForm(Form):
    """Name a new API token."""

    name = StringField(
        lazy_gettext("Token name"),
        validators=[DataRequired(), Length(max=80)],
        description=lazy_gettext("What will use it, e.g. “results screen” or “club website”."),
    )
    scope = SelectField(
        lazy_gettext("May"),
        choices=options(
            [
                ("read", lazy_gettext("read only")),
                ("results", lazy_gettext("enter results")),
                ("full", lazy_gettext("do what my account can do")),
            ]
        ),
        default="full",
    )
    valid_days = IntegerField(
        lazy_gettext("Valid for (days)"),
        validators=[OptionalValue(), NumberRange(min=1, max=access.MAX_TOKEN_DAYS)],
        description=lazy_gettext("Empty: until you revoke it."),
    )


def _share_url(slug: str, token: str | None) -> str | None:
    if token is None:
        return None
    return public_url_for("public.event", slug=slug, key=token)


@bp.get("/director/events/<int:event_id>/sharing")
@requires(*DIRECTORS)
def sharing(event_id: int) -> ResponseReturnValue:
    """The event's visibility, its share link and the QR code of that link."""
    with writing() as session:
        view = access.open_sharing(session, actor=actor(), event_id=event_id)
    return render_template(
        "sharing/event.html",
        view=view,
        share_url=_share_url(view.slug, view.share_token),
        form=ActionForm(),
    )


@bp.post("/director/events/<int:event_id>/sharing/public", defaults={"visibility": "public"})
@bp.post("/director/events/<int:event_id>/sharing/private", defaults={"visibility": "private"})
@requires(*DIRECTORS)
def set_visibility(event_id: int, visibility: str) -> ResponseReturnValue:
    """Make the event public or private."""
    if ActionForm().validate_on_submit():
        with writing() as session:
            view = access.set_visibility(
                session, actor=actor(), event_id=event_id, public=visibility == "public"
            )
        flash(
            gettext("The event is public: listed and open to everyone.")
            if view.is_public
            else gettext("The event is private: its pages need the share link or a login."),
            "success",
        )
    return redirect(url_for(".sharing", event_id=event_id))


@bp.post("/director/events/<int:event_id>/sharing/renew")
@requires(*DIRECTORS)
def renew(event_id: int) -> ResponseReturnValue:
    """Replace the share link; the old one stops working."""
    if ActionForm().validate_on_submit():
        with writing() as session:
            access.renew_share_link(session, actor=actor(), event_id=event_id)
        flash(gettext("New share link made; the old one no longer opens the event."), "success")
    return redirect(url_for(".sharing", event_id=event_id))


@bp.route("/account/tokens", methods=["GET", "POST"])
@requires(*ALL_ROLES)
def tokens() -> ResponseReturnValue:
    """The account's API tokens; a new one is shown once, right after it is made."""
    form = TokenForm()
    secret = None
    if form.validate_on_submit():
        try:
            with writing() as session:
                _, secret = access.create_api_token(
                    session,
                    actor=actor(),
                    name=form.name.data or "",
                    scope=form.scope.data or "full",
                    valid_days=form.valid_days.data,
                )
        except StoreUserError as error:
            apply_error(form, error)
        else:
            form = TokenForm(formdata=None)
    with reading() as session:
        rows = access.list_api_tokens(session, actor())
    return render_template(
        "sharing/tokens.html", form=form, tokens=rows, secret=secret, action_form=ActionForm()
    )


@bp.post("/account/tokens/<int:token_id>/revoke")
@requires(*ALL_ROLES)
def revoke(token_id: int) -> ResponseReturnValue:
    """Revoke one of the account's tokens."""
    if ActionForm().validate_on_submit():
        with writing() as session:
            view = access.revoke_api_token(session, actor=actor(), token_id=token_id)
        flash(gettext("Token “%(name)s” revoked.", name=view.name), "success")
    return redirect(url_for(".tokens"))
