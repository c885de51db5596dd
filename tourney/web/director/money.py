"""Money sessions and chouettes of an event: starting one, entering its games one by one,
taking a wrong one back, ending it, and its settlement sheet as PDF or spreadsheet."""

from __future__ import annotations

from datetime import timedelta

from flask import abort, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session

from tourney.exports.settlement import render_settlement_pdf, render_settlement_xlsx
from tourney.formats.money import stake_mode_choices
from tourney.store import money_sessions
from tourney.store.errors import StoreUserError
from tourney.store.money_sessions import ResultFields, SessionFields, SessionView
from tourney.store.types import utcnow
from tourney.web.auth import ALL_ROLES, DIRECTORS, requires
from tourney.web.deps import actor, reading
from tourney.web.director.base import bp
from tourney.web.downloads import send_rendered
from tourney.web.forms import MoneyEndForm, MoneyGameForm, MoneySessionForm, options
from tourney.web.i18n import current_language, lazy_gettext
from tourney.web.submit import Done, submit_form

HOW_CHOICES = (
    ("single", lazy_gettext("Single game, played out")),
    ("gammon", lazy_gettext("Gammon, played out")),
    ("backgammon", lazy_gettext("Backgammon, played out")),
    ("resigned-single", lazy_gettext("Resigned: single")),
    ("resigned-gammon", lazy_gettext("Resigned: gammon")),
    ("resigned-backgammon", lazy_gettext("Resigned: backgammon")),
    ("dropped", lazy_gettext("Double dropped")),
)
"""How a game ended, as the game form offers it: (value, label)."""
_LEVELS = {"single": 1, "gammon": 2, "backgammon": 3}
CUBE_VALUES = tuple(2**e for e in range(0, 11))


@bp.route("/events/<int:event_id>/money", methods=["GET", "POST"])
@requires(*ALL_ROLES)
def money_sessions_page(event_id: int) -> ResponseReturnValue:
    """The event's money sessions and chouettes, and the form that starts one."""
    form = MoneySessionForm()
    with reading() as session:
        players = money_sessions.session_players_choices(session, actor(), event_id)
    form.stake_mode.choices = options(stake_mode_choices())
    for field in form.seat_fields():
        field.choices = options([(None, "—"), *players])

    def change(session: Session) -> Done:
        seats = tuple(f.data for f in form.seat_fields() if f.data is not None)
        row = money_sessions.start_session(
            session,
            actor=actor(),
            event_id=event_id,
            fields=SessionFields(
                name=form.name.data or "",
                player_ids=seats,
                stake_mode=form.stake_mode.data or "",
                stake_minor=form.stake_minor(),
                currency=form.currency.data or "",
                jacoby=bool(form.jacoby.data),
                beavers=bool(form.beavers.data),
                raccoons=bool(form.raccoons.data),
                automatic_doubles=form.automatic_doubles.data or 0,
                cube_limit=form.cube_limit.data,
                team_cube=bool(form.team_cube.data),
                end_difference=form.end_difference.data,
                ends_at=utcnow() + timedelta(minutes=form.time_limit.data)
                if form.time_limit.data
                else None,
            ),
        )
        said = (
            gettext("Chouette started.") if row.is_chouette else gettext("Money session started.")
        )
        return Done(said, url_for(".money_session", session_id=row.id))

    def page() -> str:
        with reading() as session:
            listed = money_sessions.event_sessions(session, actor(), event_id)
        return render_template("director/money_sessions.html", listed=listed, form=form)

    return submit_form(form, change, page)


@bp.get("/money/<int:session_id>")
@requires(*ALL_ROLES)
def money_session(session_id: int) -> ResponseReturnValue:
    """A money session: totals, the chouette's rotation, its games and the next game."""
    return _session_page(session_id)


def _session_page(
    session_id: int, *, game_form: MoneyGameForm | None = None, error: str = ""
) -> str:
    with reading() as session:
        view = money_sessions.session_view(session, actor(), session_id)
    form = game_form or MoneyGameForm(formdata=None, games_before=str(view.game_count))
    return render_template(
        "director/money_session.html",
        view=view,
        form=form,
        end_form=MoneyEndForm(formdata=None),
        how_choices=HOW_CHOICES,
        cube_values=CUBE_VALUES,
        entry_error=error,
        opponents=_entry_opponents(view),
    )


def _entry_opponents(view: SessionView) -> tuple[money_sessions.MoneyPlayer, ...]:
    """Whose result the game form asks for: with one team cube, the captain's only."""
    return view.opponents[:1] if view.team_cube else view.opponents


@bp.post("/money/<int:session_id>/games")
@requires(*DIRECTORS)
def money_game(session_id: int) -> ResponseReturnValue:
    """Enter the next game of a session."""
    form = MoneyGameForm()
    with reading() as session:
        view = money_sessions.session_view(session, actor(), session_id)

    def change(session: Session) -> Done:
        results = [_result_of(player.player_id) for player in _entry_opponents(view)]
        number = money_sessions.record_game(
            session,
            actor=actor(),
            session_id=session_id,
            results=results,
            games_before=int(form.games_before.data or 0),
        )
        return Done(
            gettext("Game %(number)s entered.", number=number),
            url_for(".money_session", session_id=session_id),
        )

    return submit_form(form, change, lambda: _session_page(session_id, game_form=form))


def _result_of(player_id: int) -> ResultFields:
    """One opponent's result from the game form's fields named by ``player_id``."""
    winner = request.form.get(f"winner_{player_id}", "")
    how = request.form.get(f"how_{player_id}", "")
    cube = request.form.get(f"cube_{player_id}", "1")
    checkers = request.form.get(f"checkers_{player_id}", "0") or "0"
    if winner not in ("box", "member"):
        raise StoreUserError(gettext("Say who won each game."))
    if how not in dict(HOW_CHOICES):
        raise StoreUserError(gettext("Say how each game ended."))
    if not cube.isdigit() or int(cube) not in CUBE_VALUES:
        raise StoreUserError(gettext("The cube shows 1, 2, 4, 8 … 1024."))
    if not checkers.isdigit() or int(checkers) > 15:
        raise StoreUserError(gettext("Checkers left are a number from 0 to 15."))
    end, _, level = how.rpartition("-") if how.startswith("resigned") else ("", "", how)
    if how == "dropped":
        end, level = "dropped", "single"
    return ResultFields(
        member_id=player_id,
        box_won=winner == "box",
        end=end or "played",
        level=_LEVELS[level],
        cube=int(cube),
        centred=request.form.get(f"centred_{player_id}") == "y",
        checkers_left=int(checkers),
    )


@bp.post("/money/<int:session_id>/take-back")
@requires(*DIRECTORS)
def money_take_back(session_id: int) -> ResponseReturnValue:
    """Take back the last game entered."""
    form = MoneyEndForm()

    def change(session: Session) -> Done:
        number = money_sessions.take_back_game(session, actor=actor(), session_id=session_id)
        return Done(
            gettext("Game %(number)s taken back.", number=number),
            url_for(".money_session", session_id=session_id),
        )

    return submit_form(form, change, lambda: _session_page(session_id))


@bp.post("/money/<int:session_id>/end")
@requires(*DIRECTORS)
def money_end(session_id: int) -> ResponseReturnValue:
    """End a session."""
    form = MoneyEndForm()

    def change(session: Session) -> Done:
        money_sessions.end_session(
            session, actor=actor(), session_id=session_id, how=form.how.data or ""
        )
        return Done(gettext("Session ended."), url_for(".money_session", session_id=session_id))

    return submit_form(form, change, lambda: _session_page(session_id))


@bp.get("/money/<int:session_id>/settlement.<extension>")
@requires(*ALL_ROLES)
def money_settlement(session_id: int, extension: str) -> ResponseReturnValue:
    """The settlement sheet: totals, games and who pays whom, as PDF or spreadsheet."""
    renderers = {"pdf": render_settlement_pdf, "xlsx": render_settlement_xlsx}
    if extension not in renderers:
        abort(404)
    with reading() as session:
        document = money_sessions.settlement_document(session, actor(), session_id)
    return send_rendered(renderers[extension](document, language=current_language()))
