"""Matches and results: a match page, and entering its result game by game, as a final
score, from a match record, or as a walkover; correcting, deleting and clearing.

Every result form carries the version of the match the page showed (optimistic
locking): a save over someone else's is refused with 409 and the page as it now stands.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import render_template, url_for
from flask.typing import ResponseReturnValue
from sqlmodel import Session
from werkzeug.datastructures import FileStorage

from tourney.store import audit_views, results, tournament_views
from tourney.store.errors import StoreUserError
from tourney.store.results import GameFields
from tourney.store.tournament_views import MatchDetail, RecordFinding
from tourney.web.auth import ALL_ROLES, DIRECTORS, requires
from tourney.web.deps import actor, reading
from tourney.web.director.base import bp
from tourney.web.forms import (
    GameForm,
    ScoreForm,
    UploadForm,
    VersionedForm,
    WalkoverForm,
    options,
    parse_score,
)
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
) -> str:
    """The match page; a ``refused`` form is shown in its ``slot`` with why it was refused.

    Every form carries the version of the match as the page shows it.
    """
    with reading() as session:
        detail = tournament_views.match_detail(session, actor(), match_id)
        # The match's history is the audit log's, which only directors read.
        history = (
            audit_views.audit_page(session, detail.event_id, match_id=match_id)
            if actor().role in DIRECTORS
            else None
        )
    forms: dict[str, VersionedForm] = {
        "game": GameForm(formdata=None),
        "score": ScoreForm(formdata=None),
        "upload": UploadForm(formdata=None),
        "walkover": WalkoverForm(formdata=None),
        "reset": VersionedForm(formdata=None),
    }
    if refused is not None and slot in forms:
        forms[slot] = refused
    names = [
        ("a", detail.match.a.name if detail.match.a else "A"),
        ("b", detail.match.b.name if detail.match.b else "B"),
    ]
    for form in forms.values():
        form.version.data = str(detail.match.version)
        if isinstance(form, GameForm | WalkoverForm):
            form.winner.choices = options(names)
        if isinstance(form, GameForm):
            _offer_event_choices(form, detail)
    return render_template(
        "director/match.html",
        match=detail,
        forms=forms,
        error=_refusal(refused) if refused is not None else "",
        findings=findings,
        history=history,
    )


def _offer_event_choices(form: GameForm, detail: MatchDetail) -> None:
    """Only what the event's options allow: no drop without the cube, koks only where it
    scores 3, a draw only with the last-roll rule, in the variant's words."""
    if detail.cube_locked:
        form.cube.choices = options([(1, "1 (no doubling)")])
    form.end.choices = options(detail.end_choices)
    form.level.choices = options(detail.result_choices)


def _refusal(form: VersionedForm) -> str:
    """Why a result form was refused, in one line for the top of the match page."""
    if form.form_errors:
        return form.form_errors[0]
    for field in form:
        if field.errors:
            return f"Check the form: {field.label.text}: {field.errors[0]}"
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


def _result_message(detail: MatchDetail) -> str:
    m = detail.match
    if m.winner_ref is not None:
        return (
            f"Saved. {m.winner_ref.name} wins {m.score_text}."
            if m.score_text
            else (f"Saved. {m.winner_ref.name} goes through by {m.status_label.lower()}.")
        )
    return f"Saved. The score is {m.score_text or '0-0'}."


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


@bp.post("/matches/<int:match_id>/games/<int:number>/edit")
@requires(*ALL_ROLES)
def edit_game(match_id: int, number: int) -> ResponseReturnValue:
    """Correct a game; the match is rescored and the bracket re-checked."""
    form = GameForm()
    return _save_result(
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
            )
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
        results.clear_result(
            session,
            actor=actor(),
            match_id=match_id,
            expected_version=version,
            confirm_cascade=bool(form.confirm_cascade.data),
        )
        return "Result cleared."

    return _save_result(match_id, form, "reset", save)


@bp.post("/matches/<int:match_id>/upload")
@requires(*ALL_ROLES)
def upload(match_id: int) -> ResponseReturnValue:
    """Fill in the games from a .mat (or JSON) record, or show the validator's findings."""
    form = UploadForm()
    findings: list[RecordFinding] = []
    stored = form.record.data if form.is_submitted() else None
    filename, data = "", b""
    if isinstance(stored, FileStorage):
        filename, data = stored.filename or "", stored.read()
    # Checked before the write transaction: a large record takes seconds to replay.
    checked = _checked_record(match_id, filename, data) if data else None

    def change(session: Session) -> Done | Refused:
        outcome = results.upload_match_record(
            session,
            actor=actor(),
            match_id=match_id,
            filename=filename,
            data=data,
            expected_version=form.seen_version(),
            checked=checked,
        )
        if not outcome.ok:
            findings.extend(outcome.findings)
            return Refused("The record was not used: nothing was saved to the match.")
        return Done(
            f"Record read: {len(outcome.match.games)} games entered. "
            + _result_message(outcome.match),
            url_for(".match", match_id=match_id),
        )

    return submit_form(
        form,
        change,
        lambda: _match_page(match_id, refused=form, slot="upload", findings=tuple(findings)),
    )


def _checked_record(match_id: int, filename: str, data: bytes) -> results.CheckedRecord | None:
    """The record checked before the write transaction (a large one takes seconds to
    replay), or none when the match cannot be read: the upload itself then says why."""
    try:
        with reading() as session:
            return results.check_match_record(
                session, actor=actor(), match_id=match_id, filename=filename, data=data
            )
    except StoreUserError:
        return None
