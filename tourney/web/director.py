"""The director's pages: events, flights, the player roster, entries and check-in, accounts.

Each view parses its form, calls one service in one transaction, flashes what happened and
redirects (Post/Redirect/Get), or renders a read model. Rights are checked twice: the
``requires`` guard by account role, the services by the actor's part in the event.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from tourney.store import queries, services
from tourney.store.errors import StoreUserError
from tourney.store.queries import EventDetail, FlightView
from tourney.store.services import EventFields, FlightFields, PlayerFields
from tourney.store.tables import Role
from tourney.web.auth import ALL_ROLES, DIRECTORS, requires
from tourney.web.deps import actor, reading, state, writing
from tourney.web.forms import (
    ActionForm,
    ClubForm,
    EntryForm,
    EventForm,
    FlightForm,
    PlayerForm,
    UserForm,
    apply_error,
    options,
    parse_round_lengths,
    parse_rounds_list,
)

bp = Blueprint("director", __name__, url_prefix="/director")


# --- events --------------------------------------------------------------------------


@bp.get("/")
@requires(*ALL_ROLES)
def events() -> ResponseReturnValue:
    """The events the user works on."""
    with reading() as session:
        rows = queries.list_events_for(session, actor())
    return render_template("director/events.html", events=rows)


def _club_choices(form: EventForm | PlayerForm) -> None:
    with reading() as session:
        clubs = queries.list_clubs(session)
    form.club_id.choices = options([("", "No club"), *((c.id, c.name) for c in clubs)])


def _event_fields(form: EventForm) -> EventFields:
    return EventFields(
        name=form.name.data or "",
        slug=form.slug.data or "",
        starts_on=form.starts_on.data,
        ends_on=form.ends_on.data,
        club_id=form.club_id.data,
        venue_name=form.venue_name.data or "",
        is_public=bool(form.is_public.data),
        crawford=bool(form.crawford.data),
        holland=bool(form.holland.data),
        cube_limit_exponent=form.cube_limit.data,
        money_play=bool(form.money_play.data),
        jacoby=bool(form.jacoby.data),
        beavers=bool(form.beavers.data),
        automatic_doubles=bool(form.automatic_doubles.data),
        notes=form.notes.data or "",
    )


@bp.route("/events/new", methods=["GET", "POST"])
@requires(*DIRECTORS)
def new_event() -> ResponseReturnValue:
    """Create an event."""
    form = EventForm()
    _club_choices(form)
    if form.validate_on_submit():
        try:
            with writing() as session:
                event = services.create_event(session, actor=actor(), fields=_event_fields(form))
        except StoreUserError as error:
            apply_error(form, error)
        else:
            flash(f"Event “{event.name}” created. Add its flights next.", "success")
            return redirect(url_for(".event", event_id=event.id))
    return render_template("director/event_form.html", form=form, event=None)


@bp.get("/events/<int:event_id>")
@requires(*ALL_ROLES)
def event(event_id: int) -> ResponseReturnValue:
    """An event's dashboard: rules, flights, entries at a glance."""
    with reading() as session:
        detail = queries.get_event_for(session, actor(), event_id)
    return render_template("director/event.html", event=detail, action_form=ActionForm())


def _load_event(event_id: int) -> EventDetail:
    with reading() as session:
        return queries.get_event_for(session, actor(), event_id)


@bp.route("/events/<int:event_id>/edit", methods=["GET", "POST"])
@requires(*DIRECTORS)
def edit_event(event_id: int) -> ResponseReturnValue:
    """Change an event's details and rules."""
    detail = _load_event(event_id)
    form = EventForm(data=None if request.method == "POST" else _event_data(detail))
    _club_choices(form)
    if form.validate_on_submit():
        try:
            with writing() as session:
                services.update_event(
                    session, actor=actor(), event_id=event_id, fields=_event_fields(form)
                )
        except StoreUserError as error:
            apply_error(form, error)
        else:
            flash("Event saved.", "success")
            return redirect(url_for(".event", event_id=event_id))
    return render_template("director/event_form.html", form=form, event=detail)


def _event_data(detail: EventDetail) -> dict[str, object]:
    return {
        "name": detail.name,
        "slug": detail.slug,
        "starts_on": detail.starts_on,
        "ends_on": detail.ends_on,
        "club_id": detail.club_id,
        "venue_name": detail.venue_name,
        "is_public": detail.is_public,
        "crawford": detail.crawford,
        "holland": detail.holland,
        "cube_limit": detail.cube_limit_exponent,
        "money_play": detail.money_play,
        "jacoby": detail.jacoby,
        "beavers": detail.beavers,
        "automatic_doubles": detail.automatic_doubles,
        "notes": detail.notes,
    }


@bp.get("/events/<int:event_id>/audit")
@requires(*DIRECTORS)
def audit(event_id: int) -> ResponseReturnValue:
    """The event's audit log, newest first."""
    detail = _load_event(event_id)
    with reading() as session:
        rows = queries.event_audit(session, event_id)
    return render_template("director/audit.html", event=detail, entries=rows)


# --- flights -------------------------------------------------------------------------


def _flight_form(detail: EventDetail, flight: FlightView | None) -> FlightForm:
    data = None
    if flight is not None and request.method != "POST":
        chain = (*flight.tiebreaks, "", "", "")
        data = {
            "name": flight.name,
            "format": flight.format,
            "match_length": flight.match_length,
            "round_lengths": flight.round_lengths_text,
            "swiss_rounds": flight.swiss_rounds,
            "swiss_lives": flight.swiss_lives,
            "bye_counts_as_win": flight.bye_counts_as_win,
            "feeds_from_id": flight.feeds_from_id,
            "feed_rounds": ", ".join(str(r) for r in flight.feed_rounds),
            "progressive": flight.progressive,
            "feed_bye_losers": flight.feed_bye_losers,
            "reset_match": flight.reset_match,
            "draw_method": flight.draw_method,
            "tiebreak_1": chain[0],
            "tiebreak_2": chain[1],
            "tiebreak_3": chain[2],
        }
    form = FlightForm(data=data)
    others = [f for f in detail.flights if flight is None or f.id != flight.id]
    form.feeds_from_id.choices = options(
        [("", "Nobody: players enter directly"), *((f.id, f.name) for f in others)]
    )
    return form


def _flight_fields(form: FlightForm) -> FlightFields:
    return FlightFields(
        name=form.name.data or "",
        format=form.format.data or "",
        match_length=form.match_length.data or 0,
        round_lengths=parse_round_lengths(form.round_lengths.data or ""),
        swiss_rounds=form.swiss_rounds.data,
        swiss_lives=form.swiss_lives.data,
        bye_counts_as_win=bool(form.bye_counts_as_win.data),
        feeds_from_id=form.feeds_from_id.data,
        feed_rounds=parse_rounds_list(form.feed_rounds.data or ""),
        progressive=bool(form.progressive.data),
        feed_bye_losers=bool(form.feed_bye_losers.data),
        reset_match=bool(form.reset_match.data),
        draw_method=form.draw_method.data or "",
        tiebreaks=form.tiebreaks(),
    )


@bp.route("/events/<int:event_id>/flights/new", methods=["GET", "POST"])
@requires(*DIRECTORS)
def new_flight(event_id: int) -> ResponseReturnValue:
    """Add a flight to an event."""
    detail = _load_event(event_id)
    form = _flight_form(detail, None)
    if form.validate_on_submit():
        try:
            with writing() as session:
                flight = services.add_flight(
                    session, actor=actor(), event_id=event_id, fields=_flight_fields(form)
                )
        except StoreUserError as error:
            apply_error(form, error)
        else:
            flash(f"Flight “{flight.name}” added.", "success")
            return redirect(url_for(".event", event_id=event_id))
    return render_template("director/flight_form.html", form=form, event=detail, flight=None)


@bp.route("/flights/<int:flight_id>/edit", methods=["GET", "POST"])
@requires(*DIRECTORS)
def edit_flight(flight_id: int) -> ResponseReturnValue:
    """Change a flight's settings."""
    with reading() as session:
        flight = queries.get_flight(session, actor(), flight_id)
        detail = queries.get_event_for(session, actor(), flight.event_id)
    form = _flight_form(detail, flight)
    if form.validate_on_submit():
        try:
            with writing() as session:
                services.update_flight(
                    session, actor=actor(), flight_id=flight_id, fields=_flight_fields(form)
                )
        except StoreUserError as error:
            apply_error(form, error)
        else:
            flash("Flight saved.", "success")
            return redirect(url_for(".event", event_id=detail.id))
    return render_template("director/flight_form.html", form=form, event=detail, flight=flight)


# --- entries -------------------------------------------------------------------------


@bp.route("/events/<int:event_id>/entries", methods=["GET", "POST"])
@requires(*DIRECTORS)
def entries(event_id: int) -> ResponseReturnValue:
    """The event's entries with check-in and withdrawal; a form enters roster players."""
    detail = _load_event(event_id)
    with reading() as session:
        rows = queries.list_entries(session, event_id)
        candidates = queries.players_not_entered(session, event_id)
    form = EntryForm()
    form.player_id.choices = options(
        [
            ("", "Choose a player…"),
            *((p.id, f"{p.name} ({p.country})" if p.country else p.name) for p in candidates),
        ]
    )
    status = 200
    if form.validate_on_submit():
        try:
            with writing() as session:
                entry = services.enter_player(
                    session,
                    actor=actor(),
                    event_id=event_id,
                    player_id=form.player_id.data or 0,
                    seed=form.seed.data,
                )
        except StoreUserError as error:
            apply_error(form, error)
        else:
            flash(f"{entry.player_name} entered.", "success")
            return redirect(url_for(".entries", event_id=event_id))
    if form.errors or form.form_errors:
        status = 400
    return render_template(
        "director/entries.html",
        event=detail,
        entries=rows,
        form=form,
        action_form=ActionForm(),
    ), status


def _entry_action(entry_id: int, change: str) -> ResponseReturnValue:
    if not ActionForm().validate_on_submit():
        flash("The form expired; try again.", "error")
        return redirect(request.referrer or url_for(".events"))
    with writing() as session:
        if change == "check_in":
            entry = services.check_in(session, actor=actor(), entry_id=entry_id)
            message = f"{entry.player_name} checked in."
        elif change == "undo_check_in":
            entry = services.check_in(session, actor=actor(), entry_id=entry_id, checked_in=False)
            message = f"{entry.player_name} is no longer checked in."
        elif change == "withdraw":
            entry = services.withdraw(session, actor=actor(), entry_id=entry_id)
            message = f"{entry.player_name} withdrawn."
        else:
            entry = services.reinstate(session, actor=actor(), entry_id=entry_id)
            message = f"{entry.player_name} is back in the event."
    flash(message, "success")
    return redirect(url_for(".entries", event_id=entry.event_id) + f"#entry-{entry.id}")


@bp.post("/entries/<int:entry_id>/check-in")
@requires(*DIRECTORS)
def check_in(entry_id: int) -> ResponseReturnValue:
    """Mark an entry present."""
    return _entry_action(entry_id, "check_in")


@bp.post("/entries/<int:entry_id>/undo-check-in")
@requires(*DIRECTORS)
def undo_check_in(entry_id: int) -> ResponseReturnValue:
    """Take back a check-in."""
    return _entry_action(entry_id, "undo_check_in")


@bp.post("/entries/<int:entry_id>/withdraw")
@requires(*DIRECTORS)
def withdraw(entry_id: int) -> ResponseReturnValue:
    """Withdraw an entry."""
    return _entry_action(entry_id, "withdraw")


@bp.post("/entries/<int:entry_id>/reinstate")
@requires(*DIRECTORS)
def reinstate(entry_id: int) -> ResponseReturnValue:
    """Undo a withdrawal."""
    return _entry_action(entry_id, "reinstate")


# --- roster --------------------------------------------------------------------------


def _player_fields(form: PlayerForm) -> PlayerFields:
    return PlayerFields(
        name=form.name.data or "",
        country=form.country.data or "",
        rating=form.rating.data,
        email=form.email.data or None,
        club_id=form.club_id.data,
    )


@bp.route("/players", methods=["GET", "POST"])
@requires(*DIRECTORS)
def players() -> ResponseReturnValue:
    """The roster, with a search box and a form to add a player."""
    search = request.args.get("q", "").strip()[:80]
    form = PlayerForm()
    _club_choices(form)
    if form.validate_on_submit():
        try:
            with writing() as session:
                player = services.register_player(
                    session, actor=actor(), fields=_player_fields(form)
                )
        except StoreUserError as error:
            apply_error(form, error)
        else:
            flash(f"{player.name} added to the roster.", "success")
            return redirect(url_for(".players"))
    with reading() as session:
        rows = queries.list_players(session, search=search)
    status = 400 if form.errors or form.form_errors else 200
    return render_template(
        "director/players.html", players=rows, form=form, club_form=ClubForm(), search=search
    ), status


@bp.route("/players/<int:player_id>/edit", methods=["GET", "POST"])
@requires(*DIRECTORS)
def edit_player(player_id: int) -> ResponseReturnValue:
    """Correct a roster player."""
    with reading() as session:
        player = queries.get_player(session, player_id)
    data = None
    if request.method != "POST":
        data = {
            "name": player.name,
            "country": player.country,
            "rating": player.rating,
            "email": player.email,
            "club_id": player.club_id,
        }
    form = PlayerForm(data=data)
    _club_choices(form)
    if form.validate_on_submit():
        try:
            with writing() as session:
                services.update_player(
                    session, actor=actor(), player_id=player_id, fields=_player_fields(form)
                )
        except StoreUserError as error:
            apply_error(form, error)
        else:
            flash("Player saved.", "success")
            return redirect(url_for(".players"))
    return render_template("director/player_form.html", form=form, player=player)


@bp.post("/clubs")
@requires(*DIRECTORS)
def add_club() -> ResponseReturnValue:
    """Add a club (from the roster page)."""
    form = ClubForm()
    if not form.validate_on_submit():
        flash("Enter the club's name.", "error")
        return redirect(url_for(".players"))
    try:
        with writing() as session:
            club = services.create_club(session, actor=actor(), name=form.club_name.data or "")
    except StoreUserError as error:
        if error.status_code != 400:
            raise
        flash(error.message, "error")
    else:
        flash(f"Club “{club.name}” added.", "success")
    return redirect(url_for(".players"))


# --- accounts ------------------------------------------------------------------------


@bp.route("/users", methods=["GET", "POST"])
@requires(Role.ADMIN)
def users() -> ResponseReturnValue:
    """Accounts: an admin lists them and adds directors and scorers."""
    form = UserForm()
    if form.validate_on_submit():
        try:
            with writing() as session:
                user = services.create_user(
                    session,
                    actor=actor(),
                    email=form.email.data or "",
                    name=form.name.data or "",
                    password=form.password.data or "",
                    role=form.role.data or "",
                    hasher=state().hasher,
                )
        except StoreUserError as error:
            apply_error(form, error)
        else:
            flash(f"Account for {user.email} created.", "success")
            return redirect(url_for(".users"))
    with reading() as session:
        rows = queries.list_users(session)
    status = 400 if form.errors or form.form_errors else 200
    return render_template("director/users.html", users=rows, form=form), status
