"""The director's pages: events, flights, the player roster, entries and check-in, accounts.

Each view parses its form, calls one service in one transaction, flashes what happened and
redirects (Post/Redirect/Get), or renders a read model. Rights are checked twice: the
``requires`` guard by account role, the services by the actor's part in the event.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from itsdangerous import BadSignature, URLSafeSerializer
from sqlmodel import Session

from tourney.exports.player_import import apply_player_import, preview_player_import
from tourney.rules.variants import DEFAULT_VARIANT
from tourney.store import draws, queries, results, services, tournament_views
from tourney.store.errors import StoreUserError
from tourney.store.queries import EventDetail, FlightView
from tourney.store.results import GameFields
from tourney.store.roles import ACCOUNT_MANAGERS
from tourney.store.services import EventFields, FlightFields, PlayerFields
from tourney.store.tournament_views import MatchDetail, RecordFinding
from tourney.web.auth import ALL_ROLES, DIRECTORS, requires
from tourney.web.deps import actor, reading, state, writing
from tourney.web.forms import (
    ActionForm,
    ClubForm,
    DrawForm,
    EntryForm,
    EventForm,
    FlightForm,
    GameForm,
    KnockoutLateEntryForm,
    LateEntryForm,
    PlayerForm,
    PlayerImportConfirmForm,
    PlayerImportForm,
    ScoreForm,
    TableForm,
    UploadForm,
    UserForm,
    VersionedForm,
    WalkoverForm,
    apply_error,
    options,
    parse_round_lengths,
    parse_rounds_list,
    parse_score,
    variant_options_data,
    variant_options_from,
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


def _club_choices(form: EventForm | PlayerForm | PlayerImportForm) -> None:
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
        variant=form.variant.data or DEFAULT_VARIANT.name,
        crawford=bool(form.crawford.data),
        holland=bool(form.holland.data),
        cube_limit_exponent=form.cube_limit.data,
        money_play=bool(form.money_play.data),
        jacoby=bool(form.jacoby.data),
        beavers=bool(form.beavers.data),
        automatic_doubles=bool(form.automatic_doubles.data),
        notes=form.notes.data or "",
        variant_options=variant_options_from(form),
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
        board = tournament_views.dashboard(session, actor(), event_id)
    return render_template(
        "director/event.html", event=detail, dashboard=board, action_form=ActionForm()
    )


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
        "variant": detail.variant,
        "crawford": detail.crawford,
        "holland": detail.holland,
        "cube_limit": detail.cube_limit_exponent,
        "money_play": detail.money_play,
        "jacoby": detail.jacoby,
        "beavers": detail.beavers,
        "automatic_doubles": detail.automatic_doubles,
        "notes": detail.notes,
        **variant_options_data(detail.variant_options),
    }


@bp.get("/events/<int:event_id>/audit")
@requires(*DIRECTORS)
def audit(event_id: int) -> ResponseReturnValue:
    """The event's audit log, newest first; ``?match=ID`` shows one match's entries."""
    detail = _load_event(event_id)
    wanted = request.args.get("match", "")
    match_id = int(wanted) if wanted.isdigit() else None
    with reading() as session:
        rows = queries.event_audit(session, event_id, match_id=match_id)
    return render_template("director/audit.html", event=detail, entries=rows, match_id=match_id)


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
    return _players_page(search, form=form)


def _players_page(
    search: str,
    *,
    form: PlayerForm | None = None,
    import_form: PlayerImportForm | None = None,
) -> ResponseReturnValue:
    if form is None:
        form = PlayerForm(formdata=None)
        _club_choices(form)
    if import_form is None:
        import_form = PlayerImportForm(formdata=None)
        _club_choices(import_form)
    with reading() as session:
        rows = queries.list_players(session, search=search)
    failed = form.errors or form.form_errors or import_form.errors
    return render_template(
        "director/players.html",
        players=rows,
        form=form,
        club_form=ClubForm(),
        import_form=import_form,
        search=search,
    ), 400 if failed else 200


def _import_signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key or "", salt="tourney.player-import")


@bp.post("/players/import")
@requires(*DIRECTORS)
def import_players() -> ResponseReturnValue:
    """Preview a CSV or XLSX list of players: every row with its problems; nothing is saved."""
    form = PlayerImportForm()
    _club_choices(form)
    if form.validate_on_submit():
        data = form.file.data.read()
        filename = form.file.data.filename or "players.csv"
        try:
            with reading() as session:
                preview = preview_player_import(
                    session, data, filename=filename, club_id=form.club_id.data
                )
        except StoreUserError as error:
            apply_error(form, error)
        else:
            # The confirm step reads the file again from this signed copy, never from
            # rows the browser sends back.
            signed = _import_signer().dumps([filename, form.club_id.data, data.hex()])
            confirm = PlayerImportConfirmForm(upload=signed)
            return render_template("director/player_import.html", preview=preview, form=confirm)
    return _players_page("", import_form=form)


@bp.post("/players/import/confirm")
@requires(*DIRECTORS)
def confirm_player_import() -> ResponseReturnValue:
    """Save the good rows of a previewed file, checked again from the file itself."""
    form = PlayerImportConfirmForm()
    try:
        filename, club_id, data = _import_signer().loads(form.upload.data or "")
    except (BadSignature, ValueError):
        flash("The preview expired or was altered; upload the file again.", "error")
        return redirect(url_for(".players"))
    try:
        with writing() as session:
            preview = preview_player_import(
                session, bytes.fromhex(data), filename=filename, club_id=club_id
            )
            done = apply_player_import(session, preview, actor=actor())
    except StoreUserError as error:
        if error.status_code != 400:
            raise
        flash(error.message, "error")
        return redirect(url_for(".players"))
    flash(
        f"Added {len(done.created)} player(s); skipped {len(done.skipped)} row(s).",
        "success" if done.created else "info",
    )
    return redirect(url_for(".players"))


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
@requires(*ACCOUNT_MANAGERS)
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


# --- draws and rounds ----------------------------------------------------------------


def _flight_page(
    flight_id: int,
    *,
    draw_form: DrawForm | None = None,
    status: int = 200,
    late_form: LateEntryForm | None = None,
    bye_form: KnockoutLateEntryForm | None = None,
) -> ResponseReturnValue:
    with reading() as session:
        board = tournament_views.flight_board(session, actor(), flight_id)
        candidates = tournament_views.late_entry_candidates(session, flight_id)
    late = late_form or LateEntryForm()
    late.entry_id.choices = options([("", "Choose a player…"), *candidates])
    bye = bye_form or KnockoutLateEntryForm()
    _bye_choices(bye, candidates, board.late_bye_slots)
    return render_template(
        "director/flight.html",
        board=board,
        draw_form=draw_form or DrawForm(method=board.flight.draw_method),
        late_form=late,
        bye_form=bye,
        table_form=TableForm(),
        action_form=ActionForm(),
    ), status


def _bye_choices(
    form: KnockoutLateEntryForm,
    candidates: list[tuple[int, str]],
    slots: tuple[tuple[int, str], ...],
) -> None:
    form.entry_id.choices = options([("", "Choose a player…"), *candidates])
    form.match_id.choices = options([("", "Choose a bye…"), *slots])


@bp.get("/flights/<int:flight_id>")
@requires(*ALL_ROLES)
def flight(flight_id: int) -> ResponseReturnValue:
    """A flight: its draw, rounds, matches with tables, standings."""
    return _flight_page(flight_id)


def _flight_action(
    flight_id: int, run: Callable[[Session], object], message: str
) -> ResponseReturnValue:
    """Run one draw use case from a button; a user error is shown on the flight page."""
    if not ActionForm().validate_on_submit():
        flash("The form expired; try again.", "error")
        return redirect(url_for(".flight", flight_id=flight_id))
    try:
        with writing() as session:
            run(session)
    except StoreUserError as error:
        if error.status_code not in (400, 409):
            raise
        flash(error.message, "error")
        return _flight_page(flight_id, status=error.status_code)
    flash(message, "success")
    return redirect(url_for(".flight", flight_id=flight_id))


@bp.post("/flights/<int:flight_id>/draw")
@requires(*DIRECTORS)
def draw(flight_id: int) -> ResponseReturnValue:
    """Make the draw (random from a stored seed, or seeded) for review."""
    form = DrawForm()
    if not form.validate_on_submit():
        return _flight_page(flight_id, draw_form=form, status=400)
    try:
        with writing() as session:
            board = draws.make_draw(
                session,
                actor=actor(),
                flight_id=flight_id,
                method=form.method.data,
                seed=form.seed.data,
            )
    except StoreUserError as error:
        apply_error(form, error)
        return _flight_page(flight_id, draw_form=form, status=error.status_code)
    flash(f"Drawn with seed {board.draw_seed}. Review the draw, then publish it.", "success")
    return redirect(url_for(".flight", flight_id=flight_id))


@bp.post("/flights/<int:flight_id>/publish")
@requires(*DIRECTORS)
def publish(flight_id: int) -> ResponseReturnValue:
    """Publish the drafted draw or round."""
    return _flight_action(
        flight_id,
        lambda s: draws.publish_draw(s, actor=actor(), flight_id=flight_id),
        "Published: players can see it and results can be entered.",
    )


@bp.post("/flights/<int:flight_id>/undo")
@requires(*DIRECTORS)
def undo_draw(flight_id: int) -> ResponseReturnValue:
    """Undo an unpublished draw (a Swiss: its newest unpublished round)."""
    return _flight_action(
        flight_id,
        lambda s: draws.undo_draw(s, actor=actor(), flight_id=flight_id),
        "Draw undone.",
    )


@bp.post("/flights/<int:flight_id>/pair-next")
@requires(*DIRECTORS)
def pair_next(flight_id: int) -> ResponseReturnValue:
    """Pair the next Swiss round as a draft."""
    return _flight_action(
        flight_id,
        lambda s: draws.pair_next_round(s, actor=actor(), flight_id=flight_id),
        "Next round paired. Review it, then publish it.",
    )


@bp.post("/rounds/<int:round_id>/repair")
@requires(*DIRECTORS)
def repair_round(round_id: int) -> ResponseReturnValue:
    """Pair a Swiss round again from the current records."""
    with reading() as session:
        flight_id = tournament_views.round_flight_id(session, round_id)
    return _flight_action(
        flight_id,
        lambda s: draws.repair_round(s, actor=actor(), round_id=round_id),
        "Round paired again from the current records.",
    )


@bp.post("/flights/<int:flight_id>/late-entry")
@requires(*DIRECTORS)
def late_entry(flight_id: int) -> ResponseReturnValue:
    """Enter a player in a running Swiss with a starting record."""
    form = LateEntryForm()
    with reading() as session:
        candidates = tournament_views.late_entry_candidates(session, flight_id)
    form.entry_id.choices = options([("", "Choose a player…"), *candidates])
    if not form.validate_on_submit():
        return _flight_page(flight_id, late_form=form, status=400)
    try:
        with writing() as session:
            draws.add_late_entry(
                session,
                actor=actor(),
                flight_id=flight_id,
                entry_id=form.entry_id.data or 0,
                wins=form.wins.data or 0,
                losses=form.losses.data or 0,
            )
    except StoreUserError as error:
        apply_error(form, error)
        return _flight_page(flight_id, late_form=form, status=error.status_code)
    flash("Late entry added: paired from the next round.", "success")
    return redirect(url_for(".flight", flight_id=flight_id))


@bp.post("/flights/<int:flight_id>/late-bye")
@requires(*DIRECTORS)
def late_bye_entry(flight_id: int) -> ResponseReturnValue:
    """Place a late entrant in a first-round bye of a knockout."""
    form = KnockoutLateEntryForm()
    with reading() as session:
        candidates = tournament_views.late_entry_candidates(session, flight_id)
        slots = tournament_views.flight_board(session, actor(), flight_id).late_bye_slots
    _bye_choices(form, candidates, slots)
    if not form.validate_on_submit():
        return _flight_page(flight_id, bye_form=form, status=400)
    try:
        with writing() as session:
            draws.add_late_knockout_entry(
                session,
                actor=actor(),
                flight_id=flight_id,
                entry_id=form.entry_id.data or 0,
                match_id=form.match_id.data or 0,
            )
    except StoreUserError as error:
        apply_error(form, error)
        return _flight_page(flight_id, bye_form=form, status=error.status_code)
    flash("Late entrant placed in the bye: they play its player in the first round.", "success")
    return redirect(url_for(".flight", flight_id=flight_id))


@bp.post("/matches/<int:match_id>/table")
@requires(*DIRECTORS)
def set_table(match_id: int) -> ResponseReturnValue:
    """Move a match waiting to be played to another table."""
    form = TableForm()
    with reading() as session:
        flight_id = tournament_views.match_flight_id(session, match_id)
    if not form.validate_on_submit():
        flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
        return _flight_page(flight_id, status=400)
    try:
        with writing() as session:
            draws.set_table(session, actor=actor(), match_id=match_id, table=form.table.data or "")
    except StoreUserError as error:
        flash(error.message, "error")
        return _flight_page(flight_id, status=error.status_code)
    flash(f"Match moved to table {form.table.data.strip()}.", "success")
    return redirect(url_for(".flight", flight_id=flight_id) + f"#match-{match_id}")


# --- results -------------------------------------------------------------------------


def _match_page(
    match_id: int,
    *,
    status: int = 200,
    error: str = "",
    forms: dict[str, FlaskForm] | None = None,
    findings: tuple[RecordFinding, ...] = (),
) -> ResponseReturnValue:
    with reading() as session:
        detail = tournament_views.match_detail(session, actor(), match_id)
    names = [
        ("a", detail.match.a.name if detail.match.a else "A"),
        ("b", detail.match.b.name if detail.match.b else "B"),
    ]
    version = str(detail.match.version)
    made: dict[str, FlaskForm] = {
        "game": GameForm(version=version),
        "score": ScoreForm(version=version),
        "upload": UploadForm(version=version),
        "walkover": WalkoverForm(version=version),
        "reset": VersionedForm(version=version),
        "edit": GameForm(version=version),
        "delete": VersionedForm(version=version),
    }
    made.update(forms or {})
    for key in ("game", "edit", "walkover"):
        made[key].winner.choices = options(names)  # type: ignore[attr-defined]
        made[key].version.data = version
    if detail.cube_locked:
        made["game"].cube.choices = options([(1, "1 (no doubling)")])  # type: ignore[attr-defined]
    # Only what the event's options allow: no drop without the cube, koks only where it
    # scores 3, a draw only with the last-roll rule, in the variant's words.
    made["game"].end.choices = options(detail.end_choices)  # type: ignore[attr-defined]
    made["game"].level.choices = options(detail.result_choices)  # type: ignore[attr-defined]
    return render_template(
        "director/match.html", match=detail, forms=made, error=error, findings=findings
    ), status


@bp.get("/matches/<int:match_id>")
@requires(*ALL_ROLES)
def match(match_id: int) -> ResponseReturnValue:
    """A match: running score, games with Crawford marks, result entry."""
    return _match_page(match_id)


def _match_action(
    match_id: int, form: VersionedForm, key: str, run: Callable[[Session, int | None], str]
) -> ResponseReturnValue:
    """Validate a result form, run one use case, flash and redirect; errors re-render the page."""
    if not form.validate_on_submit():
        return _match_page(
            match_id, status=400, forms={key: form}, error="Check the form: " + _first_error(form)
        )
    try:
        with writing() as session:
            message = run(session, form.seen_version())
    except StoreUserError as error:
        if error.status_code not in (400, 409):
            raise
        return _match_page(match_id, status=error.status_code, error=error.message)
    flash(message, "success")
    return redirect(url_for(".match", match_id=match_id))


def _first_error(form: FlaskForm) -> str:
    for name, errors in form.errors.items():
        if errors:
            label = getattr(getattr(form, name, None), "label", None)
            return f"{label.text if label else name}: {errors[0]}"
    return "the form expired; reload the page."


def _game_fields(form: GameForm) -> GameFields:
    return GameFields(
        winner=form.winner.data or "",
        end=form.end.data or "",
        cube=int(form.cube.data or 1),
        level=form.level.data or None,
    )


def _result_message(detail: MatchDetail) -> str:
    m = detail.match
    if m.winner_ref is not None:
        return (
            f"Saved. {m.winner_ref.name} wins {m.score_text}."
            if m.score_text
            else (f"Saved. {m.winner_ref.name} goes through by {m.status_label.lower()}.")
        )
    return f"Saved. The score is {m.score_text or '0-0'}."


@bp.post("/matches/<int:match_id>/games")
@requires(*ALL_ROLES)
def add_game(match_id: int) -> ResponseReturnValue:
    """Enter the next game of a match."""
    form = GameForm()
    form.winner.choices = options([("a", "A"), ("b", "B")])
    return _match_action(
        match_id,
        form,
        "game",
        lambda s, v: _result_message(
            results.record_game(
                s, actor=actor(), match_id=match_id, game=_game_fields(form), expected_version=v
            )
        ),
    )


@bp.post("/matches/<int:match_id>/games/<int:number>/edit")
@requires(*ALL_ROLES)
def edit_game(match_id: int, number: int) -> ResponseReturnValue:
    """Correct a game; the match is rescored and the bracket re-checked."""
    form = GameForm()
    form.winner.choices = options([("a", "A"), ("b", "B")])
    return _match_action(
        match_id,
        form,
        "edit",
        lambda s, v: _result_message(
            results.correct_game(
                s,
                actor=actor(),
                match_id=match_id,
                number=number,
                game=_game_fields(form),
                expected_version=v,
                confirm_cascade=bool(form.confirm_cascade.data),
            )
        ),
    )


@bp.post("/matches/<int:match_id>/games/<int:number>/delete")
@requires(*ALL_ROLES)
def delete_game(match_id: int, number: int) -> ResponseReturnValue:
    """Delete a game; later games move up."""
    form = VersionedForm()
    return _match_action(
        match_id,
        form,
        "delete",
        lambda s, v: _result_message(
            results.delete_game(
                s,
                actor=actor(),
                match_id=match_id,
                number=number,
                expected_version=v,
                confirm_cascade=bool(form.confirm_cascade.data),
            )
        ),
    )


@bp.post("/matches/<int:match_id>/score")
@requires(*ALL_ROLES)
def final_score(match_id: int) -> ResponseReturnValue:
    """Enter the result as a final score ("7-4")."""
    form = ScoreForm()

    def run(session: Session, version: int | None) -> str:
        a, b = parse_score(form.score.data or "")
        return _result_message(
            results.record_final_score(
                session,
                actor=actor(),
                match_id=match_id,
                score_a=a,
                score_b=b,
                expected_version=version,
                confirm_cascade=bool(form.confirm_cascade.data),
            )
        )

    return _match_action(match_id, form, "score", run)


@bp.post("/matches/<int:match_id>/upload")
@requires(*ALL_ROLES)
def upload(match_id: int) -> ResponseReturnValue:
    """Fill in the games from a .mat (or JSON) record, or show the validator's findings."""
    form = UploadForm()
    if not form.validate_on_submit():
        return _match_page(
            match_id,
            status=400,
            forms={"upload": form},
            error="Check the form: " + _first_error(form),
        )
    stored = form.record.data
    try:
        with writing() as session:
            outcome = results.upload_match_record(
                session,
                actor=actor(),
                match_id=match_id,
                filename=stored.filename or "",
                data=stored.read(),
                expected_version=form.seen_version(),
            )
    except StoreUserError as error:
        if error.status_code not in (400, 409):
            raise
        return _match_page(match_id, status=error.status_code, error=error.message)
    if not outcome.ok:
        return _match_page(
            match_id,
            status=400,
            error="The record was not used: nothing was saved to the match.",
            findings=outcome.findings,
        )
    flash(
        f"Record read: {len(outcome.match.games)} games entered. " + _result_message(outcome.match),
        "success",
    )
    return redirect(url_for(".match", match_id=match_id))


@bp.post("/matches/<int:match_id>/walkover")
@requires(*ALL_ROLES)
def walkover(match_id: int) -> ResponseReturnValue:
    """A forfeit: the chosen player goes through by walkover."""
    form = WalkoverForm()
    form.winner.choices = options([("a", "A"), ("b", "B")])
    return _match_action(
        match_id,
        form,
        "walkover",
        lambda s, v: _result_message(
            results.award_walkover(
                s,
                actor=actor(),
                match_id=match_id,
                winner=form.winner.data or "",
                expected_version=v,
                confirm_cascade=bool(form.confirm_cascade.data),
            )
        ),
    )


@bp.post("/matches/<int:match_id>/clear")
@requires(*ALL_ROLES)
def clear(match_id: int) -> ResponseReturnValue:
    """Remove a match's result and games."""
    form = VersionedForm()

    def run(session: Session, version: int | None) -> str:
        results.clear_result(
            session,
            actor=actor(),
            match_id=match_id,
            expected_version=version,
            confirm_cascade=bool(form.confirm_cascade.data),
        )
        return "Result cleared."

    return _match_action(match_id, form, "reset", run)
