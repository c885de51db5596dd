"""Players serving themselves, and the director's side of it.

A player's private link ``/p/<event>/<token>`` (see ``tourney.store.selfservice``) opens
their page on a phone: next match, table, opponent, their results, check-in, reporting a
result and confirming or disputing the opponent's. Opening it keeps the token in a
cookie of that event, so the venue's check-in QR code (``/events/<event>/check-in``)
knows whose phone scanned it. No password: the link is the key, and the director can
revoke it (the old one answers 404).

The director's self-service page (``/director/events/<id>/self-service``) shows who has
checked in (live), the players' links with a revoke button, the queue of disputed
reports (both versions side by side) and overdue matches (walkover in one click), round
deadlines, the printable check-in poster and the mail outbox.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import UTC, datetime

import segno
from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from sqlmodel import col, select

from tourney.i18n import translate
from tourney.store import outbox, registration, selfservice
from tourney.store.errors import NotFoundError, StoreUserError
from tourney.store.permissions import require_event
from tourney.store.results import GameFields
from tourney.store.selfservice import LinkMaker, PlayerGrant
from tourney.store.selfservice_tables import Registration, ResultReport
from tourney.store.tables import Entry, Event, Flight, Round
from tourney.store.teams import entry_display_names
from tourney.store.tournament_views import round_display_name
from tourney.web.auth import ALL_ROLES, DIRECTORS, public, requires
from tourney.web.deps import actor, public_root, public_url_for, reading, writing
from tourney.web.i18n import current_language

bp = Blueprint("players", __name__)

PLAYER_COOKIE = "tourney_player_{event_id}"
PLAYER_COOKIE_DAYS = 60
MAX_GAME_ROWS = 15
"""Game rows the report form offers (blank rows are left out)."""


def links() -> LinkMaker:
    """The app's link maker: its secret key and the address players reach it at."""
    return LinkMaker(str(current_app.config["SECRET_KEY"]), public_root())


def _grant(slug: str, token: str) -> PlayerGrant:
    with reading() as session:
        return selfservice.open_link(session, links(), slug=slug, token=token)


def _home(slug: str, token: str) -> ResponseReturnValue:
    return redirect(url_for("players.home", slug=slug, token=token))


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


# --- the player's pages --------------------------------------------------------------


@bp.get("/p/<slug>/<token>")
@public
def home(slug: str, token: str) -> ResponseReturnValue:
    """A player's own page: next match, check-in, results, reports to confirm."""
    with reading() as session:
        grant = selfservice.open_link(session, links(), slug=slug, token=token)
        view = selfservice.player_home(session, grant=grant)
    response = _private(Response(render_template("players/home.html", home=view)))
    response.set_cookie(
        PLAYER_COOKIE.format(event_id=grant.event_id), token,
        max_age=PLAYER_COOKIE_DAYS * 86400, httponly=True, samesite="Lax",
        secure=request.is_secure,
    )
    return response


@bp.post("/p/<slug>/<token>/check-in")
@public
def check_in(slug: str, token: str) -> ResponseReturnValue:
    """The player checks in from their phone."""
    with writing() as session:
        grant = selfservice.open_link(session, links(), slug=slug, token=token)
        done = selfservice.check_in(session, grant=grant)
    flash(_("You are checked in.") if done else _("You were checked in already."), "success")
    return _home(slug, token)


def _games_from_form(side: str) -> list[GameFields]:
    """The filled game rows of the report form, winners in the match's terms."""
    other = "b" if side == "a" else "a"
    rows = zip(
        request.form.getlist("game_winner"), request.form.getlist("game_end"),
        request.form.getlist("game_cube"), request.form.getlist("game_level"), strict=False,
    )
    games = []
    for winner, end, cube, level in list(rows)[:MAX_GAME_ROWS]:
        if not winner and not end:
            continue
        try:
            cube_value = int(cube or "1")
        except ValueError:
            raise StoreUserError(_("The cube is a number: 1, 2, 4, 8 ..."), field="games") from None
        games.append(GameFields(
            winner={"me": side, "them": other}.get(winner, ""), end=end or "played",
            cube=cube_value, level=None if end == "dropped" else (level or "single"),
        ))
    return games


def _score_from_form(side: str, mine: str, theirs: str) -> tuple[int, int] | None:
    if not mine.strip() and not theirs.strip():
        return None
    try:
        me, them = int(mine), int(theirs)
    except ValueError:
        raise StoreUserError(_("Enter both scores as whole numbers."), field="score") from None
    if not (0 <= me <= 999 and 0 <= them <= 999):
        raise StoreUserError(_("Enter both scores as whole numbers."), field="score")
    return (me, them) if side == "a" else (them, me)


@bp.route("/p/<slug>/<token>/matches/<int:match_id>/report", methods=["GET", "POST"])
@public
def report(slug: str, token: str, match_id: int) -> ResponseReturnValue:
    """Report a match's result: final score, game by game, or with the match file."""
    grant = _grant(slug, token)
    with reading() as session:
        view = selfservice.player_home(session, grant=grant)
    match = next((m for m in view.matches if m.match_id == match_id), None)
    if match is None:
        raise NotFoundError(_("No such match."))
    error = None
    if request.method == "POST":
        try:
            with writing() as session:
                side = selfservice.side_in_match(session, grant, match_id)
                upload = request.files.get("record")
                record_file = None
                if upload is not None and upload.filename:
                    record_file = (upload.filename, upload.read())
                games = _games_from_form(side)
                outcome = selfservice.report_result(
                    session, grant=grant, match_id=match_id,
                    score=_score_from_form(
                        side, request.form.get("my_score", ""), request.form.get("their_score", "")
                    ),
                    games=games, record_file=record_file, links=links(),
                )
        except StoreUserError as refused:
            if refused.status_code not in (400, 409):
                raise
            error = _shown(refused.message)
        else:
            flash(
                _("Result reported: %(result)s. Your opponent is asked to confirm it.",
                  result=_shown(outcome.reported))
                if outcome.status == "pending"
                else _("Your opponent had reported the same result: it is confirmed.")
                if outcome.status == "confirmed"
                else _("Your result differs from your opponent's: the director will decide."),
                "success",
            )
            return _home(slug, token)
    page = render_template(
        "players/report.html", grant=grant, match=match, error=error, rows=range(MAX_GAME_ROWS)
    )
    return _private(Response(page, status=400 if error else 200))


@bp.post("/p/<slug>/<token>/reports/<int:report_id>/confirm")
@public
def confirm(slug: str, token: str, report_id: int) -> ResponseReturnValue:
    """The opponent confirms a reported result."""
    with writing() as session:
        grant = selfservice.open_link(session, links(), slug=slug, token=token)
        outcome = selfservice.confirm_report(
            session, grant=grant, report_id=report_id, links=links()
        )
    flash(_shown(outcome.message), "success" if outcome.applied else "error")
    return _home(slug, token)


@bp.post("/p/<slug>/<token>/reports/<int:report_id>/dispute")
@public
def dispute(slug: str, token: str, report_id: int) -> ResponseReturnValue:
    """The opponent disputes a reported result, optionally with their own score."""
    try:
        with writing() as session:
            grant = selfservice.open_link(session, links(), slug=slug, token=token)
            report = session.get(ResultReport, report_id)
            side = "a"
            if report is not None and report.event_id == grant.event_id:
                side = selfservice.side_in_match(session, grant, report.match_id)
            score = _score_from_form(
                side, request.form.get("my_score", ""), request.form.get("their_score", "")
            )
            selfservice.dispute_report(
                session, grant=grant, report_id=report_id, score=score, links=links()
            )
    except StoreUserError as refused:
        if refused.status_code not in (400, 409):
            raise
        flash(_shown(refused.message), "error")
    else:
        flash(_("Disputed: the director will decide and you will be told by e-mail."), "success")
    return _home(slug, token)


@bp.get("/events/<slug>/check-in")
@public
def venue_check_in(slug: str) -> ResponseReturnValue:
    """Where the venue's QR code leads: check in with the link this phone opened before."""
    grant = None
    with reading() as session:
        event = session.exec(select(Event).where(Event.slug == slug)).first()
        if event is None:
            raise NotFoundError(_("No such event."))
        event_name = event.name
        token = request.cookies.get(PLAYER_COOKIE.format(event_id=event.id), "")
        if token:
            try:
                grant = selfservice.open_link(session, links(), slug=slug, token=token)
            except NotFoundError:
                grant = None
        checked_in = False
        if grant is not None:
            entry = session.get(Entry, grant.entry_id)
            checked_in = entry is not None and entry.checked_in_at is not None
    page = render_template(
        "players/check_in.html", event_name=event_name, grant=grant, checked_in=checked_in
    )
    return _private(Response(page))


# --- the director's side -------------------------------------------------------------


@dataclass(frozen=True)
class EventRef:
    """What the director's self-service pages show of the event."""

    id: int
    slug: str
    name: str


def _event_for_staff(event_id: int) -> EventRef:
    with reading() as session:
        event = require_event(session, actor(), event_id, manage=False)
        return EventRef(event.id or 0, event.slug, event.name)


def _checked_in(event_id: int) -> tuple[list[tuple[int, str, bool, str]], int]:
    """The event's entries: id, name, checked in, link; and how many are checked in."""
    with reading() as session:
        rows = session.exec(
            select(Entry).where(Entry.event_id == event_id).order_by(col(Entry.id))
        ).all()
        names = entry_display_names(session, [r.id or 0 for r in rows])
        maker = links()
        out = [
            (r.id or 0, names.get(r.id or 0, "?"), r.checked_in_at is not None,
             selfservice.link_for_entry(session, maker, r.id or 0))
            for r in rows
        ]
    return sorted(out, key=lambda row: row[1].casefold()), sum(1 for r in out if r[2])


@bp.get("/director/events/<int:event_id>/self-service")
@requires(*ALL_ROLES)
def director_page(event_id: int) -> ResponseReturnValue:
    """Check-in (live), players' links, the queue, deadlines, poster and outbox."""
    event = _event_for_staff(event_id)
    version = _data_version(event_id)
    players, count = _checked_in(event_id)
    with reading() as session:
        queue = selfservice.director_queue(session, actor(), event_id)
        rounds = session.exec(
            select(Round, Flight)
            .join(Flight, Flight.id == Round.flight_id)  # type: ignore[arg-type]
            .where(Flight.event_id == event_id)
            .order_by(Flight.position, Round.number)  # type: ignore[arg-type]
        ).all()
        deadlines = [
            (r.id, f.name, round_display_name(r.name, r.number), r.deadline_at)
            for r, f in rounds
        ]
    return render_template(
        "players/director.html", event=event, players=players, checked_in=count, queue=queue,
        rounds=deadlines, version=version,
        decisions=selfservice.DECISIONS,
    )


def _data_version(event_id: int) -> int:
    with reading() as session:
        found = session.exec(select(Event.data_version).where(Event.id == event_id)).first()
    return found or 0


@bp.get("/director/events/<int:event_id>/self-service/check-ins")
@requires(*ALL_ROLES)
def director_check_ins(event_id: int) -> ResponseReturnValue:
    """The live check-in list, polled by the director's page with the event's data version
    it shows: 204 (one indexed read) while nothing changed, else the new list."""
    _event_for_staff(event_id)
    version = _data_version(event_id)
    if request.args.get("since") == str(version):
        return Response(status=204)
    players, count = _checked_in(event_id)
    return render_template(
        "players/_check_ins.html", event_id=event_id, players=players, checked_in=count,
        version=version,
    )


@bp.get("/director/events/<int:event_id>/check-in-poster")
@requires(*ALL_ROLES)
def poster(event_id: int) -> ResponseReturnValue:
    """A printable page with the venue's check-in QR code."""
    event = _event_for_staff(event_id)
    target = public_url_for("players.venue_check_in", slug=event.slug)
    buffer = io.BytesIO()
    segno.make(target, error="m").save(buffer, kind="svg", scale=8, title=event.name)
    svg = buffer.getvalue().decode("utf-8")
    return render_template("players/poster.html", event=event, target=target, svg=svg)


@bp.post("/director/reports/<int:report_id>/decide")
@requires(*ALL_ROLES)
def decide(report_id: int) -> ResponseReturnValue:
    """The director decides a disputed report."""
    with reading() as session:
        found = session.get(ResultReport, report_id)
        event_id = found.event_id if found else None
    if event_id is None:
        raise NotFoundError(_("No such report."))
    try:
        with writing() as session:
            outcome = selfservice.decide_dispute(
                session, actor=actor(), report_id=report_id,
                decision=request.form.get("decision", ""), links=links(),
            )
    except StoreUserError as refused:
        if refused.status_code not in (400, 409):
            raise
        flash(_shown(refused.message), "error")
    else:
        flash(_shown(outcome.message), "success")
    return redirect(url_for(".director_page", event_id=event_id))


@bp.post("/director/rounds/<int:round_id>/deadline")
@requires(*DIRECTORS)
def deadline(round_id: int) -> ResponseReturnValue:
    """Set or clear a round's deadline (a date and time in UTC)."""
    text = request.form.get("deadline", "").strip()
    when = None
    if text:
        try:
            when = datetime.fromisoformat(text).replace(tzinfo=UTC)
        except ValueError:
            raise StoreUserError(_("Give the deadline as a date and time.")) from None
    with writing() as session:
        rnd = session.get(Round, round_id)
        flight = session.get(Flight, rnd.flight_id) if rnd else None
        selfservice.set_round_deadline(session, actor=actor(), round_id=round_id, deadline=when)
        event_id = flight.event_id if flight else 0
    flash(_("Deadline saved.") if when else _("Deadline removed."), "success")
    return redirect(url_for(".director_page", event_id=event_id))


@bp.post("/director/entries/<int:entry_id>/revoke-link")
@requires(*DIRECTORS)
def revoke(entry_id: int) -> ResponseReturnValue:
    """End a player's link at once; the page then shows the new one."""
    with writing() as session:
        selfservice.revoke_link(session, actor=actor(), entry_id=entry_id)
        entry = session.get(Entry, entry_id)
        event_id = entry.event_id if entry else 0
    flash(_("The old link no longer opens anything; give the player the new one."), "success")
    return redirect(url_for(".director_page", event_id=event_id))


@bp.get("/director/events/<int:event_id>/outbox")
@requires(*DIRECTORS)
def outbox_page(event_id: int) -> ResponseReturnValue:
    """What was mailed, what waits, what failed (with the error)."""
    with reading() as session:
        rows = outbox.outbox_rows(session, actor(), event_id)
    event = _event_for_staff(event_id)
    configured = bool(current_app.extensions["tourney"].settings.smtp_host)
    return render_template("players/outbox.html", event=event, rows=rows, configured=configured)



# --- online registration ---------------------------------------------------------------


def _shown(text: str) -> str:
    """A store message (a refusal, an outcome) in the page's language."""
    return translate(text, current_language())


def _form_error(error: StoreUserError) -> str:
    if error.status_code not in (400, 409):
        raise error
    return _shown(error.message)


@bp.route("/events/<slug>/register", methods=["GET", "POST"])
@public
def register(slug: str) -> ResponseReturnValue:
    """The event's sign-up form; a confirmation link goes to the address given."""
    error = None
    sent_to = None
    if request.method == "POST":
        try:
            with writing() as session:
                registration.register(
                    session, slug=slug, name=request.form.get("name", ""),
                    club=request.form.get("club", ""), email=request.form.get("email", ""),
                    rating_id=request.form.get("rating_id", ""), links=links(),
                    language=current_language(),
                )
            sent_to = request.form.get("email", "").strip()
        except StoreUserError as refused:
            error = _form_error(refused)
    with reading() as session:
        page = registration.registration_page(session, slug=slug)
    body = render_template(
        "players/register.html", page=page, error=error, sent_to=sent_to, form=request.form
    )
    return Response(body, status=400 if error else 200)


@bp.route("/events/<slug>/register/confirm/<token>", methods=["GET", "POST"])
@public
def confirm_registration(slug: str, token: str) -> ResponseReturnValue:
    """The mailed confirmation link: a button (so that a mail scanner opening the link
    confirms nothing), then the outcome."""
    status = None
    if request.method == "POST":
        with writing() as session:
            status = registration.confirm_registration(
                session, slug=slug, token=token, links=links()
            )
    else:
        with reading() as session:
            if links().read_registration(token) is None:
                raise NotFoundError(_("This confirmation link does not open anything."))
    with reading() as session:
        page = registration.registration_page(session, slug=slug)
    return _private(Response(render_template(
        "players/registration_confirmed.html", page=page, status=status
    )))


@bp.post("/p/<slug>/<token>/withdraw")
@public
def withdraw(slug: str, token: str) -> ResponseReturnValue:
    """A player withdraws before the draw; the waiting list moves up."""
    try:
        with writing() as session:
            grant = selfservice.open_link(session, links(), slug=slug, token=token)
            registration.withdraw(session, grant=grant, links=links())
    except StoreUserError as refused:
        flash(_form_error(refused), "error")
    else:
        flash(_("You have withdrawn."), "success")
    return _home(slug, token)


@bp.route("/director/events/<int:event_id>/registration", methods=["GET", "POST"])
@requires(*DIRECTORS)
def registration_settings(event_id: int) -> ResponseReturnValue:
    """Open or close online registration; the list of registrations and the waiting list."""
    event = _event_for_staff(event_id)
    error = None
    if request.method == "POST":
        try:
            capacity_text = request.form.get("capacity", "").strip()
            closes_text = request.form.get("closes_at", "").strip()
            with writing() as session:
                registration.set_registration(
                    session, actor=actor(), event_id=event_id,
                    is_open=request.form.get("is_open") == "on",
                    capacity=int(capacity_text) if capacity_text.isdigit() else None,
                    needs_approval=request.form.get("needs_approval") == "on",
                    closes_at=(datetime.fromisoformat(closes_text).replace(tzinfo=UTC)
                               if closes_text else None),
                )
        except StoreUserError as refused:
            error = _form_error(refused)
        except ValueError:
            error = _("Give the closing time as a date and time.")
        else:
            flash(_("Registration settings saved."), "success")
            return redirect(url_for(".registration_settings", event_id=event_id))
    with reading() as session:
        rows = registration.registrations(session, actor(), event_id)
        try:
            page = registration.registration_page(session, slug=event.slug)
        except NotFoundError:
            page = None
    form_url = public_url_for("players.register", slug=event.slug)
    body = render_template(
        "players/registration_director.html", event=event, rows=rows, page=page, error=error,
        form_url=form_url,
    )
    return Response(body, status=400 if error else 200)


@bp.post("/director/registrations/<int:registration_id>/decide")
@requires(*DIRECTORS)
def decide_registration(registration_id: int) -> ResponseReturnValue:
    """Approve or reject a registration that awaits approval."""
    with reading() as session:
        found = session.get(Registration, registration_id)
        event_id = found.event_id if found else None
    if event_id is None:
        raise NotFoundError(_("No such registration."))
    try:
        with writing() as session:
            status = registration.decide_registration(
                session, actor=actor(), registration_id=registration_id,
                approve=request.form.get("decision") == "approve", links=links(),
            )
    except StoreUserError as refused:
        flash(_form_error(refused), "error")
    else:
        flash(
            _("Registration: %(status)s.", status=_shown(registration.status_name(status))),
            "success",
        )
    return redirect(url_for(".registration_settings", event_id=event_id))
