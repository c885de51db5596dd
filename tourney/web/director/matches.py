"""Matches and results: a match page, and entering its result game by game, as a final
score, from a match record, or as a walkover; correcting, deleting and clearing.

Every result form carries the version of the match the page showed (optimistic
locking): a save over someone else's is refused with 409 and the page as it now stands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import flash, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session
from werkzeug.datastructures import FileStorage

from tourney.store import analyses, audit_views, clocks, results, tournament_views
from tourney.store.errors import StoreUserError
from tourney.store.results import GameFields
from tourney.store.tournament_views import MatchDetail, RecordFinding
from tourney.web.auth import ALL_ROLES, DIRECTORS, requires, take_unsaved_form
from tourney.web.deps import actor, reading
from tourney.web.director.base import bp
from tourney.web.forms import (
    Form,
    GameForm,
    RecordPlayersForm,
    ScoreForm,
    UploadForm,
    VersionedForm,
    WalkoverForm,
    options,
    parse_score,
    scope_ids,
)
from tourney.web.i18n import current_language, lazy_gettext
from tourney.web.submit import Done, Refused, submit_form


@bp.get("/matches/<int:match_id>")
@requires(*ALL_ROLES)
def match(match_id: int) -> ResponseReturnValue:
    """A match: running score, games with Crawford marks, result entry."""
    return _match_page(match_id)


def _match_page(
    match_id: int,
    *,
    refused: VersionedForm | None = None,
    slot: str = "",
    findings: tuple[RecordFinding, ...] = (),
    record_name: str = "",
    players_form: RecordPlayersForm | None = None,
) -> str:
    """The match page; a ``refused`` form is shown in its ``slot`` with why it was refused.

    Every form carries the version of the match as the page shows it. ``findings`` are
    the problems of the record ``record_name``; ``players_form`` asks who is who in it.
    """
    with reading() as session:
        detail = tournament_views.match_detail(
            session, actor(), match_id, language=current_language()
        )
        # The match's history is the audit log's, which only directors read.
        history = (
            audit_views.audit_page(session, detail.event_id, match_id=match_id)
            if actor().role in DIRECTORS
            else None
        )
        clock = clocks.match_clock(session, match_id)
    forms: dict[str, VersionedForm] = {
        "game": GameForm(formdata=None),
        "score": ScoreForm(formdata=None),
        "upload": UploadForm(formdata=None),
        "walkover": WalkoverForm(formdata=None),
        "reset": VersionedForm(formdata=None),
    }
    if players_form is not None:
        forms["players"] = players_form
    if refused is not None and slot in forms:
        forms[slot] = refused
    unsaved = _unsaved_form(match_id) if refused is None else None
    if unsaved is not None:
        forms[unsaved.slot] = unsaved.form
    for name, form in forms.items():
        scope_ids(form, name)
    names = [
        ("a", detail.match.a.name if detail.match.a else "A"),
        ("b", detail.match.b.name if detail.match.b else "B"),
    ]
    for form in forms.values():
        form.version.data = str(detail.match.version)
        if isinstance(form, GameForm | WalkoverForm):
            form.winner.choices = options(names)
        if isinstance(form, RecordPlayersForm):
            form.first_player_side.choices = options(names)
        if isinstance(form, GameForm):
            _offer_event_choices(form, detail)
    if unsaved is not None:
        # Saved against the version it was typed on: a result entered meanwhile by
        # someone else makes the save a conflict, never a second copy of the game.
        unsaved.form.version.data = unsaved.version
        flash(
            gettext("Your %(noun)s was not saved yet: check it and save.", noun=unsaved.noun),
            "info",
        )
    with reading() as session:
        analysis = analyses.match_analysis(session, match_id)
        chances = analyses.match_chances(session, match_id)
    analysis_form = Form(formdata=None)
    return render_template(
        "director/match.html",
        match=detail,
        analysis=analysis,
        chances=chances,
        analysis_form=analysis_form,
        forms=forms,
        error=_refusal(refused) if refused is not None else "",
        findings=findings,
        record_name=record_name,
        history=history,
        clock=clock,
    )


@dataclass(frozen=True)
class _Unsaved:
    """A result form sent while the login had lapsed, filled in again."""

    slot: str
    form: VersionedForm
    noun: str
    version: str


_REFILLED: dict[str, tuple[str, type[VersionedForm], str]] = {
    "add_game": ("game", GameForm, lazy_gettext("game")),
    "final_score": ("score", ScoreForm, lazy_gettext("final score")),
    "walkover": ("walkover", WalkoverForm, lazy_gettext("walkover")),
}
"""The match page's forms filled in again after a login: view, slot, form, what it saves."""


def _unsaved_form(match_id: int) -> _Unsaved | None:
    """The result form of this match sent while the login had lapsed, if any."""
    paths = {url_for(f".{view}", match_id=match_id): view for view in _REFILLED}
    unsaved = take_unsaved_form(*paths)
    if unsaved is None:
        return None
    path, fields = unsaved
    slot, form_class, noun = _REFILLED[paths[path]]
    return _Unsaved(slot, form_class(formdata=fields), noun, fields.get("version", ""))


def _offer_event_choices(form: GameForm, detail: MatchDetail) -> None:
    """Only what the event's options allow: no drop without the cube, koks only where it
    scores 3, a draw only with the last-roll rule, in the variant's words."""
    if detail.cube_locked:
        form.cube.choices = options([(1, lazy_gettext("1 (no doubling)"))])
    form.end.choices = options(detail.end_choices)
    form.level.choices = options(detail.result_choices)


def _refusal(form: VersionedForm) -> str:
    """Why a result form was refused, in one line for the top of the match page."""
    if form.form_errors:
        return form.form_errors[0]
    for field in form:
        if field.errors:
            return gettext(
                "Check the form: %(field)s: %(error)s",
                field=field.label.text,
                error=field.errors[0],
            )
    return ""


def _save_result(
    match_id: int,
    form: VersionedForm,
    slot: str,
    save: Callable[[Session, int | None], str],
) -> ResponseReturnValue:
    """Save a result form through one use case (``save`` answers what to tell the
    director) and go back to the match; a refused form is shown on the match page."""

    def change(session: Session) -> Done:
        return Done(save(session, form.seen_version()), url_for(".match", match_id=match_id))

    return submit_form(form, change, lambda: _match_page(match_id, refused=form, slot=slot))


def _result_message(detail: MatchDetail, done: str | None = None) -> str:
    """What the director is told after a result change: ``done`` (``Saved.``), then where
    the match stands."""
    m = detail.match
    said = done if done is not None else gettext("Saved.")
    if m.winner_ref is not None and m.score_text:
        stands = gettext("%(player)s wins %(score)s.", player=m.winner_ref.name, score=m.score_text)
    elif m.winner_ref is not None:
        stands = gettext(
            "%(player)s goes through by %(how)s.",
            player=m.winner_ref.name,
            how=m.status_label.lower(),
        )
    else:
        stands = gettext("The score is %(score)s.", score=m.score_text or "0-0")
    return f"{said} {stands}"


def _game_fields(form: GameForm) -> GameFields:
    return GameFields(
        winner=form.winner.data or "",
        end=form.end.data or "",
        cube=int(form.cube.data or 1),
        level=form.level.data or None,
    )


@bp.post("/matches/<int:match_id>/games")
@requires(*ALL_ROLES)
def add_game(match_id: int) -> ResponseReturnValue:
    """Enter the next game of a match."""
    form = GameForm()
    return _save_result(
        match_id,
        form,
        "game",
        lambda s, v: _result_message(
            results.record_game(
                s, actor=actor(), match_id=match_id, game=_game_fields(form), expected_version=v
            )
        ),
    )


@bp.post("/matches/<int:match_id>/analyse")
@requires(*DIRECTORS)
def analyse_match(match_id: int) -> ResponseReturnValue:
    """Queue the analysis of the match's record (``tourney worker`` runs it)."""
    form = Form()

    def change(session: Session) -> Done:
        analyses.request_analysis(session, actor=actor(), match_id=match_id)
        return Done(gettext("The record is queued for analysis."),
                    url_for(".match", match_id=match_id))

    return submit_form(form, change, lambda: _match_page(match_id))


@bp.post("/matches/<int:match_id>/games/<int:number>/edit")
@requires(*ALL_ROLES)
def edit_game(match_id: int, number: int) -> ResponseReturnValue:
    """Correct a game; the match is rescored and the bracket re-checked."""
    form = GameForm()

    def change(session: Session) -> Done:
        back = url_for(".match", match_id=match_id)
        fields = _game_fields(form)
        if results.is_game_unchanged(session, match_id=match_id, number=number, game=fields):
            return Done(
                gettext("Game %(number)s was not changed: it already reads so.", number=number),
                back,
                "info",
            )
        detail = results.correct_game(
            session,
            actor=actor(),
            match_id=match_id,
            number=number,
            game=fields,
            expected_version=form.seen_version(),
            confirm_cascade=bool(form.confirm_cascade.data),
        )
        return Done(
            _result_message(detail, gettext("Game %(number)s corrected.", number=number)), back
        )

    return submit_form(form, change, lambda: _match_page(match_id, refused=form, slot="edit"))


@bp.post("/matches/<int:match_id>/games/<int:number>/delete")
@requires(*ALL_ROLES)
def delete_game(match_id: int, number: int) -> ResponseReturnValue:
    """Delete a game; later games move up."""
    form = VersionedForm()
    return _save_result(
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
            ),
            gettext("Game %(number)s deleted; the games after it moved up.", number=number),
        ),
    )


@bp.post("/matches/<int:match_id>/score")
@requires(*ALL_ROLES)
def final_score(match_id: int) -> ResponseReturnValue:
    """Enter the result as a final score ("7-4")."""
    form = ScoreForm()

    def save(session: Session, version: int | None) -> str:
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

    return _save_result(match_id, form, "score", save)


@bp.post("/matches/<int:match_id>/walkover")
@requires(*ALL_ROLES)
def walkover(match_id: int) -> ResponseReturnValue:
    """A forfeit: the chosen player goes through by walkover."""
    form = WalkoverForm()
    return _save_result(
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

    def save(session: Session, version: int | None) -> str:
        had_result = results.version_with_result(session, match_id) is not None
        results.clear_result(
            session,
            actor=actor(),
            match_id=match_id,
            expected_version=version,
            confirm_cascade=bool(form.confirm_cascade.data),
        )
        if not had_result:
            return gettext("The match had no games or result: nothing was cleared.")
        return gettext("Result cleared.")

    return _save_result(match_id, form, "reset", save)


@bp.post("/matches/<int:match_id>/upload")
@requires(*ALL_ROLES)
def upload(match_id: int) -> ResponseReturnValue:
    """Fill in the games from a .mat (or JSON) record, or show the validator's findings."""
    form = UploadForm()
    stored = form.record.data if form.is_submitted() else None
    filename, data = "", b""
    if isinstance(stored, FileStorage):
        filename, data = stored.filename or "", stored.read()
    return _use_record(match_id, form, "upload", filename, data, None)


@bp.post("/matches/<int:match_id>/upload/players")
@requires(*ALL_ROLES)
def upload_players(match_id: int) -> ResponseReturnValue:
    """Use an uploaded record whose player names are not the match's, the director
    having said who the record's first player is."""
    form = RecordPlayersForm()
    filename, data = "", b""
    if form.validate_on_submit():
        filename, data = form.signed_record()
    side = form.first_player_side.data or None
    return _use_record(match_id, form, "players", filename, data, side)


def _use_record(
    match_id: int,
    form: VersionedForm,
    slot: str,
    filename: str,
    data: bytes,
    first_player_side: str | None,
) -> ResponseReturnValue:
    """Fill in the games from a record, or show the match page with why not (and, when
    only the player names differ, a form to say who is who)."""
    refusal: list[results.UploadOutcome] = []
    # Checked before the write transaction: a large record takes seconds to replay.
    checked = _checked_record(match_id, filename, data, first_player_side) if data else None

    def change(session: Session) -> Done | Refused:
        outcome = results.upload_match_record(
            session,
            actor=actor(),
            match_id=match_id,
            filename=filename,
            data=data,
            expected_version=form.seen_version(),
            checked=checked,
            first_player_side=first_player_side,
        )
        if not outcome.ok:
            refusal.append(outcome)
            return Refused(gettext("The record was not used: nothing was saved to the match."))
        return Done(
            gettext("Record read: %(count)s games entered.", count=len(outcome.match.games))
            + " "
            + _result_message(outcome.match),
            url_for(".match", match_id=match_id),
        )

    def page() -> str:
        if not refusal:
            # Refused before the record was kept (a file the database cannot hold as
            # text): what the check found still says what is wrong with it.
            found = checked.findings if checked is not None else ()
            return _match_page(
                match_id, refused=form, slot=slot, findings=found, record_name=filename
            )
        outcome = refusal[0]
        players = None
        if outcome.other_players is not None:
            players = RecordPlayersForm.of(filename, data)
            first, second = outcome.other_players
            players.first_player_side.label.text = gettext("%(player)s is", player=first)
            players.first_player_side.description = gettext(
                "%(player)s is the other player.", player=second
            )
        return _match_page(
            match_id,
            refused=form,
            slot=slot,
            findings=outcome.findings,
            record_name=filename,
            players_form=players,
        )

    return submit_form(form, change, page)


def _checked_record(
    match_id: int, filename: str, data: bytes, first_player_side: str | None
) -> results.CheckedRecord | None:
    """The record checked before the write transaction (a large one takes seconds to
    replay), or none when the match cannot be read: the upload itself then says why."""
    try:
        with reading() as session:
            return results.check_match_record(
                session,
                actor=actor(),
                match_id=match_id,
                filename=filename,
                data=data,
                first_player_side=first_player_side,
            )
    except StoreUserError:
        return None
