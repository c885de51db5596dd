"""Divisions and handicaps: an event's divisions and draw scoring, each player's division,
each flight's division rule, and a match's handicap start set by hand.

Each view reads its form, calls one service in one transaction, flashes what happened and
redirects back (Post/Redirect/Get); a refusal is flashed with its reason.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session

from tourney.i18n import translate
from tourney.store import divisions
from tourney.store.errors import StoreUserError
from tourney.web.auth import DIRECTORS, requires
from tourney.web.deps import actor, reading, writing
from tourney.web.director.base import bp
from tourney.web.i18n import current_language


@bp.get("/events/<int:event_id>/divisions")
@requires(*DIRECTORS)
def event_divisions(event_id: int) -> ResponseReturnValue:
    """The event's divisions, draw scoring, players' divisions and flights' rules."""
    with reading() as session:
        page = divisions.divisions_page(session, actor(), event_id)
    return render_template("director/divisions.html", page=page)


def _saved(event_id: int, change: Callable[[Session], None], done: str) -> ResponseReturnValue:
    """Run one change in a transaction; flash it, or the reason it was refused."""
    try:
        with writing() as session:
            change(session)
    except StoreUserError as error:
        flash(translate(error.message, current_language()), "error")
    else:
        flash(done, "success")
    return redirect(url_for("director.event_divisions", event_id=event_id))


@bp.post("/events/<int:event_id>/divisions")
@requires(*DIRECTORS)
def save_divisions(event_id: int) -> ResponseReturnValue:
    """Set the event's divisions (one per line, strongest first) and draw scoring."""
    text = request.form.get("divisions", "")
    scoring = request.form.get("draw_scoring", "")

    def change(session: Session) -> None:
        divisions.set_divisions(session, actor=actor(), event_id=event_id, text=text)
        if scoring:
            divisions.set_draw_scoring(session, actor=actor(), event_id=event_id,
                                       draw_scoring=scoring)

    return _saved(event_id, change, gettext("Divisions saved."))


@bp.post("/events/<int:event_id>/divisions/players")
@requires(*DIRECTORS)
def save_player_divisions(event_id: int) -> ResponseReturnValue:
    """Put each player listed in the division chosen beside them."""
    chosen = {int(key.removeprefix("entry-")): value for key, value in request.form.items()
              if key.startswith("entry-") and key.removeprefix("entry-").isdigit()}

    def change(session: Session) -> None:
        divisions.set_entry_divisions(session, actor=actor(), event_id=event_id,
                                      chosen=chosen)

    return _saved(event_id, change, gettext("Players' divisions saved."))


@bp.post("/events/<int:event_id>/divisions/flights/<int:flight_id>")
@requires(*DIRECTORS)
def save_flight_division(event_id: int, flight_id: int) -> ResponseReturnValue:
    """Make a flight one division's or mixed, with its handicap per division."""
    raw = request.form.get("handicap", "0").strip() or "0"
    if not raw.isdigit():
        flash(gettext("The handicap is a whole number of points per division."), "error")
        return redirect(url_for("director.event_divisions", event_id=event_id))
    division = request.form.get("division", "")

    def change(session: Session) -> None:
        divisions.set_flight_division(session, actor=actor(), flight_id=flight_id,
                                      division=division, handicap=int(raw),
                                      division_standings="division_standings" in request.form)

    return _saved(event_id, change, gettext("Flight's division rule saved."))


@bp.post("/matches/<int:match_id>/starting-score")
@requires(*DIRECTORS)
def set_match_start(match_id: int) -> ResponseReturnValue:
    """Set the match's starting score by hand (a handicap start)."""
    raw_a = request.form.get("start_a", "").strip()
    raw_b = request.form.get("start_b", "").strip()
    if not (raw_a.isdigit() and raw_b.isdigit()):
        flash(gettext("A starting score is two whole numbers."), "error")
    else:
        try:
            with writing() as session:
                divisions.set_match_start(session, actor=actor(), match_id=match_id,
                                          start_a=int(raw_a), start_b=int(raw_b))
        except StoreUserError as error:
            flash(translate(error.message, current_language()), "error")
        else:
            flash(gettext("Starting score set to %(a)s-%(b)s.", a=raw_a, b=raw_b), "success")
    return redirect(url_for("director.match", match_id=match_id))
