"""Match clocks, the event's timetable and its venue screen: starting a match, the
expected times of rounds and flights, the late matches, the screen's settings."""

from __future__ import annotations

from collections.abc import Callable

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session

from tourney.formats.timing import HISTORY_MINIMUM
from tourney.i18n import translate
from tourney.store import clocks, screens
from tourney.store.errors import StoreUserError
from tourney.store.tournament_views import match_flight_id
from tourney.web.auth import ALL_ROLES, DIRECTORS, requires
from tourney.web.deps import actor, reading, writing
from tourney.web.director.base import bp, load_event
from tourney.web.forms import ActionForm, ScreenForm, options
from tourney.web.i18n import current_language
from tourney.web.submit import Done, submit_form


def _back(match_id: int) -> str:
    """Where a start button returns: the flight page it was pressed on, else the match."""
    if request.form.get("back") == "flight":
        with reading() as session:
            flight_id = match_flight_id(session, match_id)
        return url_for(".flight", flight_id=flight_id, _anchor="clocks")
    return url_for(".match", match_id=match_id)


def _clock_button(
    match_id: int, run: Callable[[Session], object], message: str
) -> ResponseReturnValue:
    """Run one clock use case from a button; a refusal is flashed where it was pressed."""
    form = ActionForm()
    back = _back(match_id)
    if not form.validate_on_submit():
        flash(gettext("The form had expired: press the button again."), "error")
        return redirect(back)
    try:
        with writing() as session:
            run(session)
    except StoreUserError as error:
        flash(translate(error.message, current_language()), "error")
        return redirect(back)
    flash(message, "success")
    return redirect(back)


def _version() -> int | None:
    text = request.form.get("version", "")
    return int(text) if text.isdigit() and len(text) < 10 else None


@bp.post("/matches/<int:match_id>/start")
@requires(*ALL_ROLES)
def start_match(match_id: int) -> ResponseReturnValue:
    """Mark a match started: its running time shows against its budget."""
    return _clock_button(
        match_id,
        lambda s: clocks.start_match(
            s, actor=actor(), match_id=match_id, expected_version=_version()
        ),
        gettext("Match started: its clock is running."),
    )


@bp.post("/matches/<int:match_id>/unstart")
@requires(*ALL_ROLES)
def undo_start(match_id: int) -> ResponseReturnValue:
    """Take back a start marked by mistake."""
    return _clock_button(
        match_id,
        lambda s: clocks.undo_start(
            s, actor=actor(), match_id=match_id, expected_version=_version()
        ),
        gettext("The start was taken back: the match waits to be played."),
    )


@bp.get("/events/<int:event_id>/timetable")
@requires(*ALL_ROLES)
def timetable(event_id: int) -> ResponseReturnValue:
    """The event's timetable: each flight's rounds with expected start and end, the
    final, the matches running late."""
    detail = load_event(event_id)
    with reading() as session:
        times = clocks.event_times(session, event_id)
    return render_template(
        "director/timetable.html", event=detail, times=times, history_minimum=HISTORY_MINIMUM
    )


@bp.route("/events/<int:event_id>/screen", methods=["GET", "POST"])
@requires(*DIRECTORS)
def screen_settings(event_id: int) -> ResponseReturnValue:
    """The venue screen's settings: panels, seconds a slide, announcement, round clock."""
    with reading() as session:
        settings = screens.screen_settings(session, actor(), event_id)
    data = None
    if request.method != "POST":
        data = {
            "panels": list(settings.panels),
            "rotation_seconds": settings.rotation_seconds,
            "announcement": settings.announcement,
        }
    form = ScreenForm(data=data)
    form.panels.choices = options((p.key, p.label) for p in screens.PANELS)

    def change(session: Session) -> Done:
        screens.set_screen(
            session,
            actor=actor(),
            event_id=event_id,
            panels=tuple(form.panels.data or ()),
            rotation_seconds=form.rotation_seconds.data or screens.DEFAULT_ROTATION_SECONDS,
            announcement=form.announcement.data or "",
            clock_minutes=form.clock_minutes.data,
        )
        return Done(
            gettext("The venue screen shows the new settings within seconds."),
            url_for(".screen_settings", event_id=event_id),
        )

    return submit_form(
        form,
        change,
        lambda: render_template("director/screen.html", form=form, settings=settings),
    )
