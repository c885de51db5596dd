"""Events: the list of the user's events, an event's dashboard, its form and audit log."""

from __future__ import annotations

from flask import render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session

from tourney.formats.teams import BoardOrder
from tourney.rules.match_forms import SINGLE
from tourney.rules.variants import DEFAULT_VARIANT
from tourney.store import analyses, audit_views, clocks, event_lifecycle, flight_overview, queries
from tourney.store.events import EventFields, create_event, update_event
from tourney.store.permissions import require_event
from tourney.store.queries import EventDetail
from tourney.web.auth import ALL_ROLES, DIRECTORS, requires
from tourney.web.deps import actor, reading
from tourney.web.director.base import RulesChangeConfirmation, bp, club_choices, load_event
from tourney.web.forms import ActionForm, EventForm, variant_options_data, variant_options_from
from tourney.web.submit import Done, submit_form


@bp.get("/")
@requires(*ALL_ROLES)
def events() -> ResponseReturnValue:
    """The events the user works on."""
    with reading() as session:
        rows = queries.list_events_for(session, actor())
    return render_template("director/events.html", events=rows)


@bp.route("/events/new", methods=["GET", "POST"])
@requires(*DIRECTORS)
def new_event() -> ResponseReturnValue:
    """Create an event."""
    form = EventForm()
    club_choices(form)

    def change(session: Session) -> Done:
        event = create_event(session, actor=actor(), fields=_event_fields(form))
        return Done(
            gettext("Event “%(name)s” created. Add its flights next.", name=event.name),
            url_for(".event", event_id=event.id),
        )

    return submit_form(
        form, change, lambda: render_template("director/event_form.html", form=form, event=None)
    )


@bp.get("/events/<int:event_id>")
@requires(*ALL_ROLES)
def event(event_id: int) -> ResponseReturnValue:
    """An event's dashboard: rules, flights, entries at a glance."""
    return _dashboard(event_id)


@bp.get("/events/<int:event_id>/performance")
@requires(*ALL_ROLES)
def performance(event_id: int) -> ResponseReturnValue:
    """The performance rating (PR) of each player whose recorded matches were analysed."""
    with reading() as session:
        name = require_event(session, actor(), event_id, manage=False).name
        installed, rows = analyses.event_performance(session, event_id)
    return render_template(
        "director/performance.html",
        event_id=event_id,
        event_name=name,
        installed=installed,
        rows=rows,
    )


def _dashboard(event_id: int) -> str:
    with reading() as session:
        detail = queries.get_event_for(session, actor(), event_id)
        board = flight_overview.dashboard(session, actor(), event_id)
        times = clocks.event_times(session, event_id)
    return render_template("director/event.html", event=detail, dashboard=board, times=times)


@bp.route("/events/<int:event_id>/edit", methods=["GET", "POST"])
@requires(*DIRECTORS)
def edit_event(event_id: int) -> ResponseReturnValue:
    """Change an event's details and rules."""
    detail = load_event(event_id)
    form = EventForm(data=None if request.method == "POST" else _event_data(detail))
    club_choices(form)

    asking = RulesChangeConfirmation()

    def save(session: Session, confirmed: str | None) -> Done:
        update_event(
            session,
            actor=actor(),
            event_id=event_id,
            fields=_event_fields(form),
            confirmed_changes=confirmed,
        )
        said = gettext("Event saved.")
        if confirmed:
            said += " " + gettext("The results listed were changed as you confirmed.")
        return Done(said, url_for(".event", event_id=event_id))

    return submit_form(
        form,
        asking.run(save),
        lambda: render_template(
            "director/event_form.html", form=form, event=detail, pending=asking.pending
        ),
    )


@bp.post("/events/<int:event_id>/finish", defaults={"archive": False})
@bp.post("/events/<int:event_id>/archive", defaults={"archive": True})
@requires(*DIRECTORS)
def close_event(event_id: int, archive: bool) -> ResponseReturnValue:
    """Mark the event finished (archive: and take it off the public index)."""

    def change(session: Session) -> Done:
        event_lifecycle.close_event(session, actor=actor(), event_id=event_id, archive=archive)
        message = (
            gettext(
                "Event archived: finished and off the public index; "
                "its pages still open by address."
            )
            if archive
            else gettext("Event finished.")
        )
        return Done(message, url_for(".event", event_id=event_id))

    return submit_form(ActionForm(), change, lambda: _dashboard(event_id))


@bp.post("/events/<int:event_id>/reopen")
@requires(*DIRECTORS)
def reopen_event(event_id: int) -> ResponseReturnValue:
    """Take a finished or archived event back to running."""

    def change(session: Session) -> Done:
        event_lifecycle.reopen_event(session, actor=actor(), event_id=event_id)
        return Done(gettext("Event reopened."), url_for(".event", event_id=event_id))

    return submit_form(ActionForm(), change, lambda: _dashboard(event_id))


@bp.get("/events/<int:event_id>/audit")
@requires(*DIRECTORS)
def audit(event_id: int) -> ResponseReturnValue:
    """The event's audit log in sentences, newest first, 50 a page; ``?kind=``,
    ``?match=ID`` and ``?player=ENTRY_ID`` filter it, ``?page=`` pages it."""
    detail = load_event(event_id)
    with reading() as session:
        log = audit_views.audit_page(
            session,
            event_id,
            kind=request.args.get("kind", ""),
            match_id=_whole_number("match"),
            entry_id=_whole_number("player"),
            page=_whole_number("page") or 1,
        )
    return render_template("director/audit.html", event=detail, log=log)


def _whole_number(name: str) -> int | None:
    """A query parameter that is a whole number, or none."""
    value = request.args.get(name, "")
    return int(value) if value.isdigit() and len(value) < 10 else None


def _event_fields(form: EventForm) -> EventFields:
    return EventFields(
        name=form.name.data or "",
        slug=form.slug.data or "",
        starts_on=form.starts_on.data,
        ends_on=form.ends_on.data,
        club_id=form.club_id.data,
        venue_name=form.venue_name.data or "",
        is_public=bool(form.is_public.data),
        variant=form.variant.data or DEFAULT_VARIANT.name,
        match_form=form.match_form.data or SINGLE.name,
        dice_names=form.dice_names.data or "",
        board_order=form.board_order.data or BoardOrder.FIXED.value,
        crawford=bool(form.crawford.data),
        holland=bool(form.holland.data),
        cube_limit_exponent=form.cube_limit.data,
        money_play=bool(form.money_play.data),
        jacoby=bool(form.jacoby.data),
        beavers=bool(form.beavers.data),
        automatic_doubles=bool(form.automatic_doubles.data),
        condoned_plays=bool(form.condoned_plays.data),
        unrated=bool(form.unrated.data),
        notes=form.notes.data or "",
        variant_options=variant_options_from(form),
    )


def _event_data(detail: EventDetail) -> dict[str, object]:
    return {
        "name": detail.name,
        "slug": detail.slug,
        "starts_on": detail.starts_on,
        "ends_on": detail.ends_on,
        "club_id": detail.club_id,
        "venue_name": detail.venue_name,
        "is_public": detail.is_public,
        "variant": detail.variant,
        "match_form": detail.match_form,
        "dice_names": detail.dice_names,
        "board_order": detail.board_order,
        "crawford": detail.crawford,
        "holland": detail.holland,
        "cube_limit": detail.cube_limit_exponent,
        "money_play": detail.money_play,
        "jacoby": detail.jacoby,
        "beavers": detail.beavers,
        "automatic_doubles": detail.automatic_doubles,
        "condoned_plays": detail.condoned_plays,
        "unrated": detail.unrated,
        "notes": detail.notes,
        **variant_options_data(detail.variant_options),
    }
