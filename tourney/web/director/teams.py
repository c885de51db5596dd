"""Teams and team flights: an event's teams in board order, a team flight's rounds of
fixtures and standings, a fixture's boards and its line-ups."""

from __future__ import annotations

from collections.abc import Sequence

from flask import Response, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session

from tourney.exports.registry import PAPERS
from tourney.exports.team_sheets import render_team_scoresheets_pdf
from tourney.store import teams
from tourney.store.documents import FixtureSheet
from tourney.store.errors import StoreUserError
from tourney.web.auth import ALL_ROLES, DIRECTORS, requires
from tourney.web.deps import actor, reading
from tourney.web.director.base import bp, load_event
from tourney.web.forms import LineupForm, TeamDrawForm, TeamForm, options
from tourney.web.i18n import current_language
from tourney.web.submit import Done, submit_form


@bp.route("/events/<int:event_id>/teams", methods=["GET", "POST"])
@requires(*DIRECTORS)
def teams_page(event_id: int) -> ResponseReturnValue:
    """An event's teams, and the form that enters another."""
    detail = load_event(event_id)
    form = TeamForm()

    def change(session: Session) -> Done:
        team = teams.add_team(
            session,
            actor=actor(),
            event_id=event_id,
            name=form.name.data or "",
            members=teams.parse_members(form.members.data or ""),
            seed=form.seed.data,
        )
        return Done(
            gettext("Team “%(name)s” entered.", name=team.name),
            url_for(".teams_page", event_id=event_id),
        )

    def page() -> str:
        with reading() as session:
            listed = teams.teams_for(session, actor(), event_id)
            flights = teams.team_flights(session, event_id)
        return render_template(
            "director/teams.html", event=detail, teams=listed, flights=flights, form=form
        )

    return submit_form(form, change, page)


def _team_flight_page(flight_id: int, form: TeamDrawForm | None = None) -> str:
    with reading() as session:
        view = teams.team_flight_for(session, actor(), flight_id)
    return render_template("director/team_flight.html", view=view, form=form or TeamDrawForm())


@bp.get("/flights/<int:flight_id>/fixtures")
@requires(*ALL_ROLES)
def team_flight(flight_id: int) -> ResponseReturnValue:
    """A team flight: standings, and each round's fixtures with their boards."""
    return _team_flight_page(flight_id)


@bp.post("/flights/<int:flight_id>/fixtures/draw")
@requires(*DIRECTORS)
def draw_fixtures(flight_id: int) -> ResponseReturnValue:
    """Draw and publish the next round of fixtures."""
    form = TeamDrawForm()

    def change(session: Session) -> Done:
        number = teams.draw_team_round(
            session, actor=actor(), flight_id=flight_id, seed=form.seed.data
        )
        return Done(
            gettext("Round %(number)s drawn.", number=number),
            url_for(".team_flight", flight_id=flight_id),
        )

    return submit_form(form, change, lambda: _team_flight_page(flight_id, form))


@bp.route("/fixtures/<int:fixture_id>", methods=["GET", "POST"])
@requires(*ALL_ROLES)
def fixture(fixture_id: int) -> ResponseReturnValue:
    """A fixture: its boards (each a match page of its own), and a line-up form where the
    event names line-ups per fixture."""
    form = LineupForm()

    def change(session: Session) -> Done:
        current = teams.fixture_for(session, actor(), fixture_id)
        names = [line.strip() for line in (form.players.data or "").splitlines() if line.strip()]
        side = form.side.data or "a"
        team_name = current.a if side == "a" else current.b
        roster = {
            m.name.casefold(): m.entry_id
            for t in teams.teams_for(session, actor(), current.event_id)
            if t.name == team_name
            for m in t.members
        }
        unknown = [n for n in names if n.casefold() not in roster]
        if unknown:
            raise StoreUserError(
                gettext("Not in %(team)s: %(names)s.", team=team_name, names=", ".join(unknown)),
                field="players",
            )
        teams.set_lineup(
            session,
            actor=actor(),
            fixture_id=fixture_id,
            side=side,
            entry_ids=[roster[n.casefold()] for n in names],
        )
        return Done(gettext("Line-up saved."), url_for(".fixture", fixture_id=fixture_id))

    def page() -> str:
        with reading() as session:
            view = teams.fixture_for(session, actor(), fixture_id)
        form.side.choices = options([("a", view.a), ("b", view.b or "")])
        return render_template("director/fixture.html", fixture=view, form=form)

    return submit_form(form, change, page)


def _sheets_response(sheets: Sequence[FixtureSheet], stem: str) -> Response:
    rendered = render_team_scoresheets_pdf(
        sheets, stem=stem, paper=_paper(), language=current_language()
    )
    return Response(
        rendered.content,
        content_type=rendered.content_type,
        headers={"Content-Disposition": f'attachment; filename="{rendered.filename}"'},
    )


def _paper() -> str:
    key = request.args.get("paper", "a4").lower()
    return key if key in PAPERS else "a4"


@bp.get("/fixtures/<int:fixture_id>/scoresheet.pdf")
@requires(*ALL_ROLES)
def fixture_sheet(fixture_id: int) -> ResponseReturnValue:
    """One fixture's score sheet (PDF)."""
    with reading() as session:
        view = teams.fixture_for(session, actor(), fixture_id)
        sheets = teams.fixture_sheets(
            session, actor(), flight_id=view.flight_id, fixture_id=fixture_id
        )
    return _sheets_response(sheets, f"{view.event_slug}-fixture-{fixture_id}-scoresheet")


@bp.get("/flights/<int:flight_id>/fixtures/scoresheets.pdf")
@requires(*ALL_ROLES)
def round_sheets(flight_id: int) -> ResponseReturnValue:
    """The score sheets of a team flight's newest round, one page a fixture (PDF)."""
    with reading() as session:
        view = teams.team_flight_for(session, actor(), flight_id)
        sheets = teams.fixture_sheets(session, actor(), flight_id=flight_id)
    number = len(view.rounds)
    return _sheets_response(sheets, f"{view.event_slug}-round-{number}-team-scoresheets")
