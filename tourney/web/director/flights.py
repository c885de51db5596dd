"""Flights and draws: a flight's settings and page, the draw and its publication, Swiss
rounds, late entries and the tables of matches waiting to be played."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from flask import render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session

from tourney.formats.stages import PoolSeeding
from tourney.store import clocks, draws, events, queries, selfservice, tournament_views
from tourney.store.events import FlightFields
from tourney.store.paging import page_of
from tourney.store.public_views import current_round
from tourney.store.queries import EventDetail, FlightView
from tourney.store.tournament_views import FlightBoard
from tourney.store.types import utcnow
from tourney.web import players
from tourney.web.auth import ALL_ROLES, DIRECTORS, requires
from tourney.web.deps import actor, reading
from tourney.web.director.base import RulesChangeConfirmation, bp, load_event
from tourney.web.forms import (
    ActionForm,
    CutPicksForm,
    DrawForm,
    FlightForm,
    KnockoutLateEntryForm,
    LateEntryForm,
    TableForm,
    options,
    parse_round_lengths,
    parse_rounds_list,
)
from tourney.web.i18n import lazy_gettext
from tourney.web.submit import Done, submit_form

# --- settings ------------------------------------------------------------------------


@bp.route("/events/<int:event_id>/flights/new", methods=["GET", "POST"])
@requires(*DIRECTORS)
def new_flight(event_id: int) -> ResponseReturnValue:
    """Add a flight to an event."""
    detail = load_event(event_id)
    form = _flight_form(detail, None)

    def change(session: Session) -> Done:
        flight = events.add_flight(
            session, actor=actor(), event_id=event_id, fields=_flight_fields(form)
        )
        return Done(
            gettext("Flight “%(name)s” added.", name=flight.name),
            url_for(".event", event_id=event_id),
        )

    return submit_form(form, change, lambda: _flight_form_page(form, detail, None))


@bp.route("/flights/<int:flight_id>/edit", methods=["GET", "POST"])
@requires(*DIRECTORS)
def edit_flight(flight_id: int) -> ResponseReturnValue:
    """Change a flight's settings."""
    with reading() as session:
        flight = queries.get_flight(session, actor(), flight_id)
        detail = queries.get_event_for(session, actor(), flight.event_id)
    form = _flight_form(detail, flight)

    asking = RulesChangeConfirmation()

    def save(session: Session, confirmed: str | None) -> Done:
        events.update_flight(
            session,
            actor=actor(),
            flight_id=flight_id,
            fields=_flight_fields(form),
            confirmed_changes=confirmed,
        )
        said = gettext("Flight saved.")
        if confirmed:
            said += " " + gettext("The results listed were changed as you confirmed.")
        return Done(said, url_for(".event", event_id=detail.id))

    return submit_form(
        form, asking.run(save), lambda: _flight_form_page(form, detail, flight, asking)
    )


def _flight_form_page(
    form: FlightForm,
    detail: EventDetail,
    flight: FlightView | None,
    asking: RulesChangeConfirmation | None = None,
) -> str:
    return render_template(
        "director/flight_form.html",
        form=form,
        event=detail,
        flight=flight,
        pending=asking.pending if asking else None,
    )


def _flight_form(detail: EventDetail, flight: FlightView | None) -> FlightForm:
    """The settings form: ``flight``'s settings on a GET, and the event's other flights
    as the ones it may be fed from."""
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
            "unrated": flight.unrated,
            "feeds_from_id": flight.feeds_from_id,
            "feed_rounds": ", ".join(str(r) for r in flight.feed_rounds),
            "progressive": flight.progressive,
            "feed_bye_losers": flight.feed_bye_losers,
            "reset_match": flight.reset_match,
            "draw_method": flight.draw_method,
            "pools": flight.pools,
            "pool_seeding": flight.pool_seeding,
            "qualifies_from_id": flight.qualifies_from_id,
            "qualifiers": flight.qualifiers,
            "cut_ties": flight.cut_ties,
            "tiebreak_1": chain[0],
            "tiebreak_2": chain[1],
            "tiebreak_3": chain[2],
            "boards": flight.boards,
            "clock_minutes_per_point": Decimal(flight.clock_seconds_per_point) / 60,
            "clock_delay_seconds": flight.clock_delay_seconds,
        }
    form = FlightForm(data=data)
    others = [f for f in detail.flights if flight is None or f.id != flight.id]
    form.feeds_from_id.choices = options(
        [("", lazy_gettext("Nobody: players enter directly")), *((f.id, f.name) for f in others)]
    )
    form.qualifies_from_id.choices = options(
        [("", lazy_gettext("No qualifying stage")), *((f.id, f.name) for f in others)]
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
        unrated=bool(form.unrated.data),
        feeds_from_id=form.feeds_from_id.data,
        feed_rounds=parse_rounds_list(form.feed_rounds.data or ""),
        progressive=bool(form.progressive.data),
        feed_bye_losers=bool(form.feed_bye_losers.data),
        reset_match=bool(form.reset_match.data),
        draw_method=form.draw_method.data or "",
        tiebreaks=form.tiebreaks(),
        pools=form.pools.data,
        pool_seeding=form.pool_seeding.data or PoolSeeding.SNAKE.value,
        qualifies_from_id=form.qualifies_from_id.data,
        qualifiers=form.qualifiers.data,
        cut_ties=form.cut_ties.data or "tiebreaks",
        boards=form.boards.data,
        clock_seconds_per_point=form.clock_seconds_per_point(),
        clock_delay_seconds=form.clock_delay_seconds.data
        if form.clock_delay_seconds.data is not None
        else 12,
    )


# --- the flight page -----------------------------------------------------------------


@bp.get("/flights/<int:flight_id>")
@requires(*ALL_ROLES)
def flight(flight_id: int) -> ResponseReturnValue:
    """A flight: its draw, rounds, matches with tables, standings."""
    return _flight_page(flight_id)


def _flight_page(
    flight_id: int,
    *,
    draw_form: DrawForm | None = None,
    late_form: LateEntryForm | None = None,
    bye_form: KnockoutLateEntryForm | None = None,
    table_form: TableForm | None = None,
    action_form: ActionForm | None = None,
    cut_form: CutPicksForm | None = None,
) -> str:
    """The flight page, with the form a director just sent where it was refused."""
    with reading() as session:
        board = tournament_views.flight_board(session, actor(), flight_id)
        candidates = tournament_views.late_entry_candidates(session, flight_id)
    late = late_form or LateEntryForm(formdata=None)
    _entrant_choices(late, candidates)
    bye = bye_form or KnockoutLateEntryForm(formdata=None)
    _bye_choices(bye, candidates, board.late_bye_slots)
    window = _match_window(board)
    with reading() as session:
        times = clocks.event_times(session, board.event_id)
    published = [m for r in board.rounds if not r.is_draft for m in r.matches]
    return render_template(
        "director/flight.html",
        board=board,
        times=times,
        clock_rows=times.clock_rows(published),
        **window,
        draw_form=draw_form or DrawForm(formdata=None, method=board.flight.draw_method),
        late_form=late,
        bye_form=bye,
        table_form=table_form or TableForm(formdata=None),
        action_form=action_form or ActionForm(formdata=None),
        cut_form=cut_form or _cut_choices(CutPicksForm(formdata=None), board),
    )


def _cut_choices(form: CutPicksForm, board: FlightBoard) -> CutPicksForm:
    form.players.choices = [(fe_id, name) for tie in board.cut_ties for fe_id, name in tie.players]
    return form


@bp.post("/flights/<int:flight_id>/cut")
@requires(*DIRECTORS)
def decide_cut(flight_id: int) -> ResponseReturnValue:
    """Send on the players the director chose from a tie at the cut."""
    with reading() as session:
        board = tournament_views.flight_board(session, actor(), flight_id)
    form = _cut_choices(CutPicksForm(), board)

    def change(session: Session) -> Done:
        draws.decide_cut(
            session, actor=actor(), flight_id=flight_id, picks=list(form.players.data or [])
        )
        return _to_flight(
            flight_id, gettext("The tie at the cut is decided. Draw from the qualifiers.")
        )

    return submit_form(form, change, lambda: _flight_page(flight_id, cut_form=form))


MATCH_WINDOW = 100
"""Matches the flight page shows at once; a bigger flight shows one round, a page at a time."""


def _match_window(board: FlightBoard) -> dict[str, Any]:
    """The rounds and matches the flight page shows (``?round=`` and ``?page=``)."""
    every = [(r, r.matches) for r in board.rounds]
    if sum(len(r.matches) for r in board.rounds) <= MATCH_WINDOW:
        return {
            "window": every,
            "windowed": False,
            "matches": page_of((), 1),
            "table_matches": board.table_matches,
            "standings_limit": None,
            "page_link": None,
        }
    asked = request.args.get("round", "")
    shown = next((r for r in board.rounds if asked.isdigit() and r.number == int(asked)), None)
    shown = shown or current_round(board) or board.rounds[0]
    page = request.args.get("page", "1")
    matches = page_of(
        shown.matches, int(page) if page.isdigit() and len(page) < 6 else 1, per_page=MATCH_WINDOW
    )
    on_page = {m.id for m in matches.rows}
    return {
        "window": [(shown, matches.rows)],
        "windowed": True,
        "matches": matches,
        "table_matches": tuple(m for m in board.table_matches if m.id in on_page),
        "standings_limit": MATCH_WINDOW,
        "page_link": lambda page: url_for(
            "director.flight", flight_id=board.flight.id, round=shown.number, page=page
        ),
    }


def _entrant_choices(
    form: LateEntryForm | KnockoutLateEntryForm, candidates: list[tuple[int, str]]
) -> None:
    form.entry_id.choices = options([("", lazy_gettext("Choose a player…")), *candidates])


def _bye_choices(
    form: KnockoutLateEntryForm,
    candidates: list[tuple[int, str]],
    slots: tuple[tuple[int, str], ...],
) -> None:
    _entrant_choices(form, candidates)
    form.match_id.choices = options([("", lazy_gettext("Choose a bye…")), *slots])


def _to_flight(flight_id: int, message: str) -> Done:
    return Done(message, url_for(".flight", flight_id=flight_id))


# --- the draw and the rounds ---------------------------------------------------------


@bp.post("/flights/<int:flight_id>/draw")
@requires(*DIRECTORS)
def draw(flight_id: int) -> ResponseReturnValue:
    """Make the draw (random from a stored seed, or seeded) for review."""
    form = DrawForm()

    def change(session: Session) -> Done:
        seed = draws.draw_flight(
            session,
            actor=actor(),
            flight_id=flight_id,
            method=form.method.data,
            seed=form.seed.data,
            present_only=False if form.everyone.data else None,
        )
        return _to_flight(
            flight_id,
            gettext("Drawn with seed %(seed)s. Review the draw, then publish it.", seed=seed),
        )

    return submit_form(form, change, lambda: _flight_page(flight_id, draw_form=form))


def _flight_button(
    flight_id: int, run: Callable[[Session], object], message: str
) -> ResponseReturnValue:
    """A button of the flight page that runs one draw use case; a refusal shows there."""
    form = ActionForm()

    def change(session: Session) -> Done:
        run(session)
        return _to_flight(flight_id, message)

    return submit_form(form, change, lambda: _flight_page(flight_id, action_form=form))


@bp.post("/flights/<int:flight_id>/publish")
@requires(*DIRECTORS)
def publish(flight_id: int) -> ResponseReturnValue:
    """Publish the drafted draw or round."""
    since = utcnow()

    def publish_and_tell(session: Session) -> None:
        draws.publish_flight(session, actor=actor(), flight_id=flight_id)
        # Each player gets their pairing, table and link by mail (sent by the queue worker).
        selfservice.mail_published_rounds(
            session, flight_id=flight_id, since=since, links=players.links()
        )

    return _flight_button(
        flight_id,
        publish_and_tell,
        gettext("Published: players can see it and results can be entered."),
    )


@bp.post("/flights/<int:flight_id>/undo")
@requires(*DIRECTORS)
def undo_draw(flight_id: int) -> ResponseReturnValue:
    """Undo an unpublished draw (a Swiss: its newest unpublished round)."""
    return _flight_button(
        flight_id,
        lambda s: draws.undo_draw(s, actor=actor(), flight_id=flight_id),
        gettext("Draw undone."),
    )


@bp.post("/flights/<int:flight_id>/pair-next")
@requires(*DIRECTORS)
def pair_next(flight_id: int) -> ResponseReturnValue:
    """Pair the next Swiss round as a draft."""
    return _flight_button(
        flight_id,
        lambda s: draws.pair_round(s, actor=actor(), flight_id=flight_id),
        gettext("Next round paired. Review it, then publish it."),
    )


@bp.post("/rounds/<int:round_id>/repair")
@requires(*DIRECTORS)
def repair_round(round_id: int) -> ResponseReturnValue:
    """Pair a Swiss round again from the current records."""
    with reading() as session:
        flight_id = tournament_views.round_flight_id(session, round_id)
    return _flight_button(
        flight_id,
        lambda s: draws.repair_round(s, actor=actor(), round_id=round_id),
        gettext("Round paired again from the current records."),
    )


# --- late entries and tables ---------------------------------------------------------


@bp.post("/flights/<int:flight_id>/late-entry")
@requires(*DIRECTORS)
def late_entry(flight_id: int) -> ResponseReturnValue:
    """Enter a player in a running Swiss with a starting record."""
    form = LateEntryForm()
    with reading() as session:
        candidates = tournament_views.late_entry_candidates(session, flight_id)
    _entrant_choices(form, candidates)

    def change(session: Session) -> Done:
        draws.add_late_entry(
            session,
            actor=actor(),
            flight_id=flight_id,
            entry_id=form.entry_id.data or 0,
            wins=form.wins.data or 0,
            losses=form.losses.data or 0,
        )
        return _to_flight(flight_id, gettext("Late entry added: paired from the next round."))

    return submit_form(form, change, lambda: _flight_page(flight_id, late_form=form))


@bp.post("/flights/<int:flight_id>/late-bye")
@requires(*DIRECTORS)
def late_bye_entry(flight_id: int) -> ResponseReturnValue:
    """Place a late entrant in a first-round bye of a knockout."""
    form = KnockoutLateEntryForm()
    with reading() as session:
        candidates = tournament_views.late_entry_candidates(session, flight_id)
        slots = tournament_views.flight_board(session, actor(), flight_id).late_bye_slots
    _bye_choices(form, candidates, slots)

    def change(session: Session) -> Done:
        draws.add_late_knockout_entry(
            session,
            actor=actor(),
            flight_id=flight_id,
            entry_id=form.entry_id.data or 0,
            match_id=form.match_id.data or 0,
        )
        return _to_flight(
            flight_id,
            gettext("Late entrant placed in the bye: they play its player in the first round."),
        )

    return submit_form(form, change, lambda: _flight_page(flight_id, bye_form=form))


@bp.post("/matches/<int:match_id>/table")
@requires(*DIRECTORS)
def set_table(match_id: int) -> ResponseReturnValue:
    """Move a match waiting to be played to another table."""
    form = TableForm()
    with reading() as session:
        flight_id = tournament_views.match_flight_id(session, match_id)

    def change(session: Session) -> Done:
        table = (form.table.data or "").strip()
        draws.set_table(session, actor=actor(), match_id=match_id, table=table)
        return Done(
            gettext("Match moved to table %(table)s.", table=table),
            url_for(".flight", flight_id=flight_id) + f"#match-{match_id}",
        )

    return submit_form(form, change, lambda: _flight_page(flight_id, table_form=form))
